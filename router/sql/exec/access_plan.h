// How a statement reaches the rows its WHERE clause selects (docs/architecture.md I2):
//   key lookup          the primary key's columns all equal constants: one key operation,
//                       sent to the partition's primary;
//   batched lookups     `pk IN (…)` on a one-column primary key: one key operation per value,
//                       all in one batch;
//   index ranges        bounds on the first column of an ordered index (the primary key's
//                       or a secondary one), from =, IN, BETWEEN, <, > and ORs of them: one
//                       scan of that index for all the ranges (a range list; overlapping
//                       ranges merged), every partition in parallel;
//   full scan           anything else.
// Every path may return rows the WHERE clause does not want (bounds are kept inclusive, and
// values that do not convert exactly are not used as bounds): the router checks WHERE again
// on every row, so the plan decides speed, never the result.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/client.h"
#include "engine/schema/schema.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

struct AccessPlan {
  enum class Kind : uint8_t { kKeyLookup, kBatchedLookup, kIndexRange, kFullScan, kNothing };
  Kind kind = Kind::kFullScan;
  std::vector<std::string> keys;  // packed primary keys (key lookups)
  int index = 0;                  // kIndexRange: position in TableDef::indexes
  // kIndexRange: inclusive packed one-column bounds, disjoint and in order; empty = open.
  struct Range {
    std::string lower, upper;
  };
  std::vector<Range> ranges;
  // The rows it reads are exactly those the WHERE selects — the whole WHERE became integer
  // keys or ranges with exact bounds — so the router need not check them again.
  bool exact = false;

  // What EXPLAIN shows: "key lookup on PRIMARY", "index range scan on k_1", …
  std::string Describe(const schema::TableDef& table) const;
};

// Defines the scans a kIndexRange or kFullScan plan needs: `base` (table, columns, lock,
// transaction set) with the plan's ranges — many as one range list, one scan operation per
// partition for them all; `*outstanding` grows by the number of scans.
void DefineScans(const AccessPlan& plan, const api::ScanRequest& base, api::Client* client,
                 api::ScanReceiver* receiver, int* outstanding);

// The top-level AND-ed parts of a condition (none for a null one).
void Conjuncts(const Expr* e, std::vector<const Expr*>* out);

// Whether `e` reads any column.
bool HasColumn(const Expr& e);

// Whether a key plan selects exactly what `where` asks, so no row needs checking again: every
// part of it a primary-key column compared to a constant with = or IN.
bool WhereIsKeyOnly(const schema::TableDef& table, const Expr* where, const AccessPlan& plan);

// Whether UPDATE's SET can travel as an interpreted update program (schema/program.h):
// constants, or `c = c ± n` on an integer column, and no key column changed.
bool SetFitsProgram(const schema::TableDef& table, const std::vector<Assignment>& set);

// The part of `where` the data nodes can check while they scan (schema/program.h filter):
// the top-level conjuncts comparing an integer column with an integer constant (BETWEEN as
// its two bounds), and IS [NOT] NULL — where the data node's comparison is exactly MySQL's
// (strings are left to the router, whose comparisons follow the connection's collation).
// Empty when none. `*whole` (if given) tells whether every conjunct went into it: the rows
// that come back then need no check in the router.
std::string PushedFilter(const schema::TableDef& table, const Expr* where, const ExecContext& ctx,
                         bool* whole = nullptr);
// The same over a condition already split into its conjuncts.
std::string PushedFilter(const schema::TableDef& table, const std::vector<const Expr*>& conjuncts,
                         const ExecContext& ctx, bool* whole = nullptr);

// Chooses the access path for `where` (may be null) over `table`. Constants in the clause
// (literals, parameters, variables) are evaluated with `ctx`.
AccessPlan PlanAccess(const schema::TableDef& table, const Expr* where, const ExecContext& ctx);
// The same over a condition already split into its conjuncts (a join's, about one table).
AccessPlan PlanAccess(const schema::TableDef& table, const std::vector<const Expr*>& conjuncts,
                      const ExecContext& ctx);

// `value` packed as a key field of `column` when it converts without changing meaning
// (integers into integer columns, strings into string columns); nullopt otherwise.
std::optional<std::string> KeyField(const schema::ColumnDef& column, const mysql::Value& value);

}  // namespace shoal::sql::internal
