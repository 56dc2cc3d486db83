// What a FOREIGN KEY must find when CREATE TABLE or ALTER TABLE defines it, checked against
// the router's dictionary as MySQL checks it (docs/architecture.md, "Foreign keys").
#pragma once

#include <optional>

#include "engine/api/cluster.h"
#include "engine/schema/schema.h"
#include "protocol/sql_error.h"

namespace shoal::sql::internal {

// Checks the foreign keys of `table` from `first_new` on (those an ALTER adds; all for a
// CREATE): a name no other constraint of the database has (1826), SET NULL only over nullable
// columns (1830), and, with foreign_key_checks on (`checks`), a parent table that exists
// (1824; the table itself for a self-reference) with the named columns (3734), an index that
// begins with them (1822) and the types of the child's columns (3780).
std::optional<mysql::SqlError> CheckForeignKeyDefinitions(const schema::TableDef& table,
                                                          const api::Dictionary& dictionary,
                                                          bool checks, size_t first_new = 0);

// An ALTER TABLE of a table other tables' foreign keys reference, from `before` to `after`
// (`source`: per column of `after`, the column of `before` it comes from, or -1), with
// foreign_key_checks on: each referenced column must stay (1829), keep a type its children's
// columns match (3780) and an index that begins with the referenced columns (1553); a copying
// ALTER (`copy`) may not rename one (1235: only an in-place rename carries the children along).
std::optional<mysql::SqlError> CheckReferencedAlter(const schema::TableDef& before,
                                                    const schema::TableDef& after,
                                                    const std::vector<int>& source, bool copy,
                                                    const api::Dictionary& dictionary);

}  // namespace shoal::sql::internal
