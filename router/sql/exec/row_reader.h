// RowReader: a statement that reads rows by key and by scan and gathers them (SELECT over one
// table, a join's steps). It is the Completion and ScanReceiver of every read it defines: a
// row goes to AddRow, a key not found is no row, the first error is kept, a KILL QUERY stops
// the scans, and OneDone is called once per read or scan ended.
#pragma once

#include <optional>

#include "engine/api/client.h"
#include "protocol/sql_error.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql {

class RowReader : public AsyncStatement, public api::Completion, public api::ScanReceiver {
 public:
  explicit RowReader(const internal::ExecContext& ctx)
      : AsyncStatement(ctx), utc_offset_(SessionUtcOffset(*ctx.state)) {}

  // Key reads.
  void Done(const api::Outcome& outcome) override {
    if (outcome.ok()) {
      AddRow(outcome.row);
    } else if (!outcome.not_found() && !error_) {
      error_ = EngineError(outcome.code, outcome.message);
    }
    OneDone();
  }

  // Scans.
  void Row(absl::string_view row) override { AddRow(row); }
  bool Interrupted() const override {
    return state() != nullptr && state()->process != nullptr && state()->process->interrupted();
  }
  void Done(uint16_t code, absl::string_view message) override {
    if (code != 0 && !error_) error_ = EngineError(code, message);
    OneDone();
  }

 protected:
  // A packed row a data node sent.
  virtual void AddRow(absl::string_view packed) = 0;
  // A read or a scan has ended.
  virtual void OneDone() = 0;

  std::optional<mysql::SqlError> error_;  // the first error a read met
  // The session's time zone, which TIMESTAMP values are read in (DecodeRow).
  const int utc_offset_;
};

}  // namespace shoal::sql
