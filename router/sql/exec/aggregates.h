// The aggregate functions the row pipeline computes over a group of rows: COUNT, SUM, AVG,
// MIN, MAX (DISTINCT too, COUNT(DISTINCT a, b) over several values), GROUP_CONCAT with
// DISTINCT, ORDER BY and SEPARATOR, JSON_ARRAYAGG, BIT_AND/BIT_OR/BIT_XOR, and the variances and
// standard deviations (VAR_POP, VARIANCE, VAR_SAMP, STD, STDDEV, STDDEV_POP, STDDEV_SAMP) — their
// MySQL 8.0 result types and their running state.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "protocol/column.h"
#include "protocol/value.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// Whether `name` (upper-case) is one of the aggregates above.
bool IsAggregateName(absl::string_view name);
// A call of one (not a window function's OVER).
bool IsAggregate(const Expr& e);

// Every aggregate call in `e` (not looking inside an aggregate's own arguments).
void CollectAggregates(const Expr& e, std::vector<const Expr*>* out);

// MySQL's result type of aggregate `call` over a first argument typed `arg`.
mysql::ColumnDefinition AggregateType(const Expr& call, const mysql::ColumnDefinition& arg,
                                      const SessionState& state);

// One aggregate's running state over a group.
class Accumulator {
 public:
  // One row: the call's arguments' values (COUNT(*): a single 1) and, for GROUP_CONCAT, its
  // ORDER BY keys. A row with a NULL argument is skipped, as MySQL skips it.
  // `collations`: each argument's collation where known (a column's; 0 otherwise): MIN, MAX
  // and DISTINCT compare a binary one's strings (utf8mb4_bin, VARBINARY) byte for byte.
  void Add(const Expr& call, const std::vector<mysql::Value>& args, std::vector<mysql::Value> keys,
           const std::vector<uint16_t>& collations = {});

  // The group's value, as `type`; GROUP_CONCAT cut at group_concat_max_len bytes with
  // warning 1260 for the `group`th group (1-based) in `state`.
  mysql::Value Result(const Expr& call, const mysql::ColumnDefinition& type, size_t group,
                      SessionState* state) const;

 private:
  struct Piece {  // a GROUP_CONCAT row: its ORDER BY keys and its text
    std::vector<mysql::Value> keys;
    std::string text;
  };

  uint64_t count_ = 0;
  bool exact_ = true;  // every value an integer or a decimal: sum exactly
  __int128 int_sum_ = 0;
  mysql::Value decimal_sum_ = int64_t{0};  // the decimals' exact sum, while it fits
  double double_sum_ = 0;
  uint64_t bits_and_ = ~uint64_t{0};  // BIT_AND of no rows is every bit, as in MySQL
  uint64_t bits_or_ = 0;
  uint64_t bits_xor_ = 0;
  double mean_ = 0;  // variances: Welford's running mean and sum of squared deviations
  double squares_ = 0;
  mysql::Value best_;                      // MIN/MAX
  absl::flat_hash_set<std::string> seen_;  // DISTINCT
  std::vector<Piece> pieces_;              // GROUP_CONCAT
};

}  // namespace shoal::sql::internal
