// Feeds hostile bytes to everything in engine/schema that reads bytes from the network: a
// table definition, a filter, an update program, a packed row and a packed key, split from one
// input as
//   int<2> n1 | n1 bytes TableDef | int<2> n2 | n2 bytes filter | int<2> n3 | n3 bytes update |
//   the rest: a packed full row of the fixed test table, and a packed key of its text columns
// (a missing length takes the rest). Nothing may crash; a definition that parses must survive
// Append → Parse unchanged, whatever validates must run on the split row, and a key's
// collation form must fold to itself.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/schema/collation.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"

namespace shoal::schema {
namespace {

ColumnDef Column(const char* name, ColumnType type, uint32_t length = 0) {
  ColumnDef c;
  c.name = name;
  c.type = type;
  c.length = length;
  return c;
}

// db.t with one column of every type, some unsigned, some NOT NULL.
const TableDef& FuzzTable() {
  static const TableDef* table = [] {
    auto* t = new TableDef;
    t->database = "db";
    t->name = "t";
    for (int type = 1; type <= static_cast<int>(kMaxColumnType); ++type) {
      ColumnDef c = Column("c", static_cast<ColumnType>(type), 8);
      c.name += std::to_string(type);
      c.precision = 6;
      c.scale = 2;
      if (IsEnumOrSet(c.type)) c.elements = {"x", "y"};
      // VARCHAR and TEXT case-insensitive, CHAR binary: both kinds of comparison and key.
      if (c.type == ColumnType::kVarChar || c.type == ColumnType::kText) {
        c.collation = Collation::kCaseInsensitive;
      }
      t->columns.push_back(c);
    }
    ColumnDef id = Column("id", ColumnType::kBigInt);
    id.is_unsigned = true;
    id.nullable = false;
    t->columns.push_back(id);
    ColumnDef u = Column("u", ColumnType::kTinyInt);
    u.is_unsigned = true;
    t->columns.push_back(u);
    IndexDef pk;
    pk.columns = {static_cast<int>(t->columns.size()) - 2};
    pk.primary = true;
    t->indexes.push_back(pk);
    if (!ValidateAndComplete(t).ok()) std::abort();
    return t;
  }();
  return *table;
}

absl::string_view Take(absl::string_view* in) {
  if (in->size() < 2) {
    absl::string_view all = *in;
    *in = absl::string_view();
    return all;
  }
  size_t n = static_cast<uint8_t>((*in)[0]) | (static_cast<uint8_t>((*in)[1]) << 8);
  in->remove_prefix(2);
  n = std::min(n, in->size());
  absl::string_view part = in->substr(0, n);
  in->remove_prefix(n);
  return part;
}

void CheckDefinition(absl::string_view bytes) {
  absl::string_view in = bytes;
  absl::StatusOr<TableDef> table = ParseTableDef(&in);
  if (!table.ok()) return;
  std::string again;
  AppendTableDef(*table, &again);
  // An older format comes back in the current one, which then round-trips byte for byte.
  absl::string_view parsed_bytes = bytes.substr(0, bytes.size() - in.size());
  absl::string_view reread = again;
  absl::StatusOr<TableDef> reparsed = ParseTableDef(&reread);
  std::string third;
  if (reparsed.ok()) AppendTableDef(*reparsed, &third);
  if (!reparsed.ok() || !reread.empty() || third != again ||
      (parsed_bytes[0] == again[0] && again != parsed_bytes)) {
    std::fprintf(stderr, "table definition changed in a round trip\n");
    std::abort();
  }
  TableDef copy = *table;
  (void)ValidateAndComplete(&copy);
}

}  // namespace
}  // namespace shoal::schema

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal::schema;
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  absl::string_view definition = Take(&in);
  absl::string_view filter = Take(&in);
  absl::string_view update = Take(&in);
  absl::string_view row_bytes = in;

  CheckDefinition(definition);

  const TableDef& table = FuzzTable();
  std::vector<uint16_t> columns(table.columns.size());
  for (size_t i = 0; i < columns.size(); ++i) columns[i] = static_cast<uint16_t>(i);
  std::vector<Field> row(columns.size());
  size_t consumed = 0;
  bool have_row = SplitRow(table, columns, row_bytes, row.data(), &consumed);
  if (have_row && consumed > row_bytes.size()) std::abort();

  if (ValidateFilter(table, filter).ok() && have_row) {
    (void)FilterPasses(table, filter, row.data());
  }
  if (ValidateUpdate(table, update).ok() && have_row) {
    RowWriter out;
    if (ApplyUpdate(table, update, row.data(), &out).ok()) {
      std::vector<Field> updated(columns.size());
      if (!SplitRow(table, columns, out.view(), updated.data(), &consumed) ||
          consumed != out.view().size()) {
        std::fprintf(stderr, "an update wrote a malformed row\n");
        std::abort();
      }
    } else if (!out.view().empty()) {
      std::fprintf(stderr, "a failed update left output behind\n");
      std::abort();
    }
  }
  if (have_row) {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (!row[i].null) (void)CompareField(table.columns[i], row[i].bytes, row[i].bytes);
    }
  }
  // A key a client sends a data node, folded there: (VARCHAR _ci, CHAR _bin, the BIGINT id).
  auto At = [](ColumnType type) { return static_cast<uint16_t>(static_cast<int>(type) - 1); };
  const uint16_t key_columns[] = {At(ColumnType::kVarChar), At(ColumnType::kChar),
                                  static_cast<uint16_t>(kMaxColumnType)};
  std::string form, again;
  if (FoldKey(table.columns, key_columns, row_bytes, &form) &&
      (!FoldKey(table.columns, key_columns, form, &again) || again != form)) {
    std::fprintf(stderr, "a key's collation form does not fold to itself\n");
    std::abort();
  }
  return 0;
}
