// Test helpers for the data node's LDM tests.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "engine/schema/schema.h"
#include "gtest/gtest.h"

namespace shoal::node::testing {

// `id INT`, the default key of KeyValueTable.
inline schema::ColumnDef IntKey() {
  schema::ColumnDef id;
  id.name = "id";
  id.type = schema::ColumnType::kInt;
  return id;
}

// test.t(key PRIMARY KEY, v INT), table id 1, version 1, over `partitions` partitions; the key
// `id INT` unless given.
inline std::shared_ptr<schema::TableDef> KeyValueTable(uint32_t partitions,
                                                       schema::ColumnDef key = IntKey()) {
  auto table = std::make_shared<schema::TableDef>();
  table->database = "test";
  table->name = "t";
  schema::ColumnDef v;
  v.name = "v";
  v.type = schema::ColumnType::kInt;
  table->columns = {std::move(key), v};
  schema::IndexDef primary;
  primary.name = "PRIMARY";
  primary.columns = {0};
  primary.primary = primary.unique = true;
  table->indexes = {primary};
  table->partitions = partitions;
  EXPECT_TRUE(schema::ValidateAndComplete(table.get()).ok());
  table->id = 1;
  table->version = 1;
  return table;
}

}  // namespace shoal::node::testing
