// Table definitions the dictionary's tests create: db.<name> (id INT NOT NULL PRIMARY KEY
// [, v VARCHAR(10)]).
#pragma once

#include <string>

#include "engine/schema/schema.h"

namespace shoal::node {

inline schema::TableDef Def(const std::string& name, bool with_v = true) {
  schema::TableDef t;
  t.database = "db";
  t.name = name;
  schema::ColumnDef id;
  id.name = "id";
  id.nullable = false;
  t.columns.push_back(id);
  if (with_v) {
    schema::ColumnDef v;
    v.name = "v";
    v.type = schema::ColumnType::kVarChar;
    v.length = 10;
    t.columns.push_back(v);
  }
  schema::IndexDef pk;
  pk.name = "PRIMARY";
  pk.columns = {0};
  pk.unique = pk.primary = true;
  t.indexes.push_back(pk);
  return t;
}

}  // namespace shoal::node
