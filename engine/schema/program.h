// Programs a client pushes down to the data node with an operation, so that work happens
// where the row is: filters (for scans and conditional reads) and interpreted updates (SET
// k = k + 1 without reading the row first). Both are compact byte strings that travel inside
// native frames unchanged; the data node validates them against the table before running.
//
// Filter (prefix notation, one node after the other):
//   int<1> 1 (AND) | int<1> n | n filters          all true → true; any false → false
//   int<1> 2 (OR)  | int<1> n | n filters          any true → true; all false → false
//   int<1> 3 (NOT) | filter
//   int<1> 4 (CMP) | int<2> column | int<1> op | operand
//       op: 1 =, 2 <>, 3 <, 4 <=, 5 >, 6 >=, 7 IS NULL, 8 IS NOT NULL, 9 LIKE, 10 NOT LIKE
//       operand (absent for 7 and 8): the value packed as the column's field (row.h): fixed
//       bytes, or int<2> length | bytes; for LIKE the pattern (% _ and \ escapes): byte for
//       byte, but on a column that folds case (collation.h) against the text's form, so the
//       pattern must be a form too (FilterBuilder::Like makes it one).
//   SQL's three-valued logic: a comparison with a NULL column is UNKNOWN; a row passes only
//   when the whole filter is TRUE. The empty filter passes every row.
//
// Update program: int<1> n | n steps, each
//   int<2> column | int<1> op | operand
//     op 1 SET: the new value packed as the column's field; op 2 SET NULL (no operand);
//     op 3 ADD: int<8> signed for integer columns, binary64 for FLOAT/DOUBLE; the result must
//       fit the column or the step fails with ER_DATA_OUT_OF_RANGE (1690); NULL + x is NULL.
//     op 4 SET IF CHANGED: as SET, but only when the other steps changed some column's value
//       (MySQL's ON UPDATE CURRENT_TIMESTAMP: an UPDATE that leaves the row as it was must not
//       move the column; the data node, which alone sees the row, decides).
//   Steps run in order on the row as changed by the steps before; the SET IF CHANGED steps
//   are left out when deciding whether the row changed.
//
// Beyond the formats, validation refuses: LIKE on a fixed-size column, any step on the hidden
// key, SET NULL on a NOT NULL column ("1048: Column 'c' cannot be null"), ADD to anything but
// an integer, FLOAT or DOUBLE column. An empty update program means zero steps. LIKE's `_`
// is one character on CHAR/VARCHAR/TEXT (UTF-8) and one byte on the other types.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"

namespace shoal::schema {

enum class FilterNode : uint8_t { kAnd = 1, kOr = 2, kNot = 3, kCompare = 4 };
enum class CompareOp : uint8_t {
  kEq = 1,
  kNe = 2,
  kLt = 3,
  kLe = 4,
  kGt = 5,
  kGe = 6,
  kIsNull = 7,
  kIsNotNull = 8,
  kLike = 9,
  kNotLike = 10,
};
enum class UpdateOp : uint8_t { kSet = 1, kSetNull = 2, kAdd = 3, kSetIfChanged = 4 };

// Checks a filter against the table (columns exist, operands well-formed, nesting at most 32
// deep). An error is InvalidArgument.
absl::Status ValidateFilter(const TableDef& table, absl::string_view filter);
// REQUIRES: ValidateFilter passed. `row` is the split full row (one Field per table column).
bool FilterPasses(const TableDef& table, absl::string_view filter, const Field* row);

absl::Status ValidateUpdate(const TableDef& table, absl::string_view program);
// Applies a validated program to the split full row `row` and writes the new packed full
// row to `out`. A step that overflows gives OutOfRange with MySQL's 1690 message text
// ("BIGINT UNSIGNED value is out of range in '(`db`.`t`.`k` + 1)'" style). `changed`, when
// given, says whether the new row differs from `row` in some column's value (MySQL's
// "changed" rows of an UPDATE).
absl::Status ApplyUpdate(const TableDef& table, absl::string_view program, const Field* row,
                         RowWriter* out, bool* changed = nullptr);

// Builders used by clients (the native API, the router's planner, tests).
class FilterBuilder {
 public:
  FilterBuilder& And(int children);
  FilterBuilder& Or(int children);
  FilterBuilder& Not();
  FilterBuilder& CompareInt(const ColumnDef& column, int column_id, CompareOp op, int64_t value);
  // `packed_field` as EncodeValue (row.h) gives it, LIKE patterns included.
  FilterBuilder& CompareBytes(const ColumnDef& column, int column_id, CompareOp op,
                              absl::string_view packed_field);
  FilterBuilder& IsNull(int column_id, bool is_null);
  // `column` [NOT] LIKE `pattern` (`\` escapes), the pattern folded when the column folds case.
  // REQUIRES: pattern.size() <= 65535.
  FilterBuilder& Like(const ColumnDef& column, int column_id, bool negated,
                      absl::string_view pattern);
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class UpdateBuilder {
 public:
  UpdateBuilder& SetInt(const ColumnDef& column, int column_id, int64_t value);
  UpdateBuilder& SetBytes(int column_id, absl::string_view value);  // variable-size types
  UpdateBuilder& SetField(const ColumnDef& column, int column_id, absl::string_view packed_field);
  // SET IF CHANGED: `packed_field` (EncodeValue) only when the other steps change the row.
  UpdateBuilder& SetFieldIfChanged(int column_id, absl::string_view packed_field);
  UpdateBuilder& SetNull(int column_id);
  UpdateBuilder& AddInt(int column_id, int64_t delta);
  UpdateBuilder& AddDouble(int column_id, double delta);
  std::string Finish() const;  // int<1> n prefix + steps

 private:
  int steps_ = 0;
  std::string bytes_;
};

}  // namespace shoal::schema
