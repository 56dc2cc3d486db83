// Fuzz target: arbitrary text through split, lex, parse, prepare and execute must never crash
// or hang, and a session survives any sequence of statements.
#include <cstddef>
#include <cstdint>
#include <string>

#include "router/sql/exec/executor.h"
#include "router/sql/parse/lexer.h"
#include "router/sql/parse/parser.h"
#include "router/sql/parse/redact.h"
#include "router/sql/parse/split.h"

namespace {

// Where a statement that finishes later (one that reads a derived table, say) delivers its
// result, as a connection would: here it is dropped.
class DiscardingSink : public shoal::sql::ResultSink {
 public:
  void StatementDone(shoal::sql::StatementResult) override {}
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal::sql;
  std::string text(reinterpret_cast<const char*>(data), size);
  static ServerInfo server;
  static DiscardingSink sink;
  SessionState state;
  state.server = &server;
  state.sink = &sink;
  state.user = "fuzz";
  state.host = "localhost";
  Lex(text, BackslashEscapes::kOff);
  RedactSecrets(text);
  for (absl::string_view stmt : SplitStatements(text)) {
    ExecuteText(stmt, &state);
    auto prepared = Prepare(stmt, state);
    if (auto* ps = std::get_if<std::unique_ptr<PreparedStatement>>(&prepared)) {
      std::vector<shoal::mysql::Value> params((*ps)->param_count(), int64_t{7});
      Execute(std::move(*ps), params, &state);
    }
  }
  return 0;
}
