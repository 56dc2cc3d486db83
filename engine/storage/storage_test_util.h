// Test helpers: a small sysbench-like table and packed rows, keys and programs for it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"
#include "engine/storage/partition.h"

namespace shoal::storage::testing {

// t1(id INT PRIMARY KEY, k INT NOT NULL, c VARCHAR(2000) NOT NULL, u INT NULL,
//    KEY k_1 (k), UNIQUE KEY u (u))
inline schema::TableDef MakeTable() {
  schema::TableDef t;
  t.id = 1;
  t.version = 1;
  t.database = "db";
  t.name = "t1";
  auto column = [](const char* name, schema::ColumnType type, bool nullable) {
    schema::ColumnDef c;
    c.name = name;
    c.type = type;
    c.nullable = nullable;
    c.length = 2000;
    return c;
  };
  t.columns = {column("id", schema::ColumnType::kInt, false),
               column("k", schema::ColumnType::kInt, false),
               column("c", schema::ColumnType::kVarChar, false),
               column("u", schema::ColumnType::kInt, true)};
  t.columns[0].auto_increment = true;
  t.indexes = {{"PRIMARY", {0}, true, true}, {"k_1", {1}, false, false}, {"u", {3}, true, false}};
  t.partitions = 1;
  return t;
}

struct Value {
  int id;
  int k;
  std::string c;
  std::optional<int> u;
  bool operator==(const Value&) const = default;
};

inline std::string PackRow(const schema::TableDef& t, const Value& v) {
  schema::RowWriter w;
  w.BeginRow(4);
  w.Int(t.columns[0], v.id);
  w.Int(t.columns[1], v.k);
  w.Bytes(v.c);
  if (v.u) {
    w.Int(t.columns[3], *v.u);
  } else {
    w.Null();
  }
  return std::string(w.view());
}

inline std::string IntKey(const schema::TableDef& t, int column, int value) {
  schema::RowWriter w;
  w.BeginKey();
  w.Int(t.columns[column], value);
  return std::string(w.view());
}

inline const std::vector<uint16_t>& AllColumns() {
  static const std::vector<uint16_t> all = {0, 1, 2, 3};
  return all;
}

// Parses rows over all four columns appended by reads or scans.
inline std::vector<Value> ParseRows(const schema::TableDef& t, absl::string_view bytes) {
  std::vector<Value> out;
  schema::Field f[4];
  while (!bytes.empty()) {
    size_t consumed = 0;
    if (!schema::SplitRow(t, AllColumns(), bytes, f, &consumed)) break;
    Value v;
    v.id = static_cast<int>(schema::FieldInt(t.columns[0], f[0].bytes));
    v.k = static_cast<int>(schema::FieldInt(t.columns[1], f[1].bytes));
    v.c = std::string(f[2].bytes);
    if (!f[3].null) v.u = static_cast<int>(schema::FieldInt(t.columns[3], f[3].bytes));
    out.push_back(v);
    bytes.remove_prefix(consumed);
  }
  return out;
}

// Reads row `id` as `txn` sees it; nullopt when not found (or another error).
inline std::optional<Value> Get(Partition& p, const schema::TableDef& t, int id,
                                TxnId txn = kAutocommit, LockMode lock = LockMode::kNone) {
  schema::RowWriter w;
  OpResult r = p.Read(txn, IntKey(t, 0, id), AllColumns(), lock, &w);
  if (r.code != OpCode::kOk) return std::nullopt;
  std::vector<Value> rows = ParseRows(t, w.view());
  if (rows.size() != 1) return std::nullopt;
  return rows[0];
}

inline std::string SetK(const schema::TableDef& t, int k) {
  return schema::UpdateBuilder().SetInt(t.columns[1], 1, k).Finish();
}
inline std::string SetU(const schema::TableDef& t, std::optional<int> u) {
  if (!u) return schema::UpdateBuilder().SetNull(3).Finish();
  return schema::UpdateBuilder().SetInt(t.columns[3], 3, *u).Finish();
}
inline std::string SetC(const std::string& c) {
  return schema::UpdateBuilder().SetBytes(2, c).Finish();
}

}  // namespace shoal::storage::testing
