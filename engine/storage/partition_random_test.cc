// Partition against a model: thousands of random operations from a few transactions and
// autocommit, with commits and aborts, checked op by op (result codes included) and by scans
// over every index.
#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "engine/storage/partition.h"
#include "engine/storage/storage_test_util.h"
#include "gtest/gtest.h"

namespace shoal::storage {
namespace {

using testing::IntKey;
using testing::PackRow;
using testing::Value;

// The expected state: committed rows, each transaction's uncommitted rows, row locks.
struct Model {
  struct Pending {
    bool deleted = false;
    Value data;  // for a deleted row: its data when deleted (it keeps its index entries)
  };
  std::map<int, Value> committed;
  std::map<TxnId, std::map<int, Pending>> pending;
  std::map<int, TxnId> locks;

  TxnId Owner(int id) const {
    auto it = locks.find(id);
    return it == locks.end() ? 0 : it->second;
  }
  const Pending* Own(TxnId t, int id) const {
    auto txn = pending.find(t);
    if (txn == pending.end()) return nullptr;
    auto it = txn->second.find(id);
    return it == txn->second.end() ? nullptr : &it->second;
  }
  std::optional<Value> Visible(TxnId t, int id) const {
    if (Owner(id) == t && t != 0) {
      if (const Pending* p = Own(t, id)) {
        if (p->deleted) return std::nullopt;
        return p->data;
      }
    }
    auto it = committed.find(id);
    if (it == committed.end()) return std::nullopt;
    return it->second;
  }
  // What the partition answers to `t` putting unique value `u` on row `self`.
  OpCode CheckUnique(TxnId t, int self, std::optional<int> u) const {
    if (!u) return OpCode::kOk;
    std::map<int, bool> ids;
    for (const auto& [id, v] : committed) ids[id] = true;
    for (const auto& [txn, rows] : pending) {
      for (const auto& [id, p] : rows) ids[id] = true;
    }
    for (const auto& [id, unused] : ids) {
      if (id == self) continue;
      TxnId owner = Owner(id);
      auto c = committed.find(id);
      bool committed_has = c != committed.end() && c->second.u == u;
      const Pending* p = owner != 0 ? Own(owner, id) : nullptr;
      bool current_has = p != nullptr && p->data.u == u;
      if (owner != 0 && owner != t) {
        if (committed_has || current_has) return OpCode::kLocked;
      } else if (owner == t && owner != 0) {
        if (p != nullptr ? (!p->deleted && current_has) : committed_has)
          return OpCode::kDuplicateKey;
      } else if (committed_has) {
        return OpCode::kDuplicateKey;
      }
    }
    return OpCode::kOk;
  }
  void Set(TxnId t, int id, const Value& v) {
    locks[id] = t;
    pending[t][id] = Pending{false, v};
  }
  void Remove(TxnId t, int id) {
    if (!committed.contains(id)) {  // never committed: gone for good, lock included
      pending[t].erase(id);
      locks.erase(id);
      return;
    }
    locks[id] = t;
    std::map<int, Pending>& rows = pending[t];
    auto it = rows.find(id);
    if (it == rows.end()) {
      rows[id] = Pending{true, committed.at(id)};
    } else {
      it->second.deleted = true;
    }
  }
  void End(TxnId t, bool commit) {
    for (const auto& [id, p] : pending[t]) {
      if (!commit) continue;
      if (p.deleted) {
        committed.erase(id);
      } else {
        committed[id] = p.data;
      }
    }
    pending.erase(t);
    for (auto it = locks.begin(); it != locks.end();) {
      it = it->second == t ? locks.erase(it) : std::next(it);
    }
  }
};

class RandomTest : public ::testing::TestWithParam<uint32_t> {
 protected:
  std::vector<int> ScanIds(int index, TxnId txn, bool descending) {
    ScanSpec spec;
    spec.index = index;
    spec.txn = txn;
    spec.descending = descending;
    spec.columns = testing::AllColumns();
    spec.max_rows = 17;
    std::vector<int> ids;
    std::string token;
    while (true) {
      spec.resume_after = token;
      schema::RowWriter w;
      ScanBatch b = p_.Scan(spec, &w);
      for (const Value& v : testing::ParseRows(t_, w.view())) ids.push_back(v.id);
      if (b.done) break;
      token = b.resume_after;
    }
    return ids;
  }
  std::vector<int> ModelIds(int index, TxnId txn, bool descending) {
    std::vector<std::tuple<int, int, int, int>> keys;  // (null, value, id, id)
    for (int id = 0; id < kIds; ++id) {
      std::optional<Value> v = model_.Visible(txn, id);
      if (!v) continue;
      if (index == 0) keys.emplace_back(0, id, id, id);
      if (index == 1) keys.emplace_back(0, v->k, id, id);
      if (index == 2) keys.emplace_back(v->u ? 1 : 0, v->u.value_or(0), id, id);
    }
    std::sort(keys.begin(), keys.end());
    std::vector<int> ids;
    for (const auto& key : keys) ids.push_back(std::get<3>(key));
    if (descending) std::reverse(ids.begin(), ids.end());
    return ids;
  }

  static constexpr int kIds = 120;
  schema::TableDef t_ = testing::MakeTable();
  MemoryBudget budget_{256 << 20};
  Partition p_{&t_, &budget_};
  Model model_;
};

TEST_P(RandomTest, MatchesModel) {
  std::mt19937 rng(GetParam());
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  for (int step = 0; step < 30000; ++step) {
    const TxnId t = pick(4);  // 0 = autocommit
    const int id = pick(kIds);
    Value v{id, pick(10), std::string(pick(4) == 0 ? pick(400) : pick(20), 'a' + pick(26)),
            std::nullopt};
    if (pick(3) != 0) v.u = pick(60);
    const TxnId owner = model_.Owner(id);
    const bool locked = owner != 0 && owner != t;
    std::optional<Value> visible = model_.Visible(t, id);
    OpCode want;
    OpResult got;
    int op = pick(12);
    SCOPED_TRACE(::testing::Message()
                 << "step " << step << " op " << op << " txn " << t << " id " << id);
    if (op <= 2) {  // insert
      want = locked    ? OpCode::kLocked
             : visible ? OpCode::kDuplicateKey
                       : model_.CheckUnique(t, id, v.u);
      got = p_.Insert(t, PackRow(t_, v));
      if (want == OpCode::kOk) model_.Set(t, id, v);
    } else if (op <= 4) {  // write
      want = locked ? OpCode::kLocked : model_.CheckUnique(t, id, v.u);
      if (!locked && visible && visible->u == v.u) want = OpCode::kOk;
      got = p_.Write(t, PackRow(t_, v));
      if (want == OpCode::kOk) model_.Set(t, id, v);
    } else if (op <= 7) {  // update one column
      int which = pick(3);
      std::string program = which == 0   ? testing::SetK(t_, v.k)
                            : which == 1 ? testing::SetU(t_, v.u)
                                         : testing::SetC(v.c);
      want = locked ? OpCode::kLocked : !visible ? OpCode::kNotFound : OpCode::kOk;
      Value next = visible.value_or(Value{});
      if (which == 0) next.k = v.k;
      if (which == 1) next.u = v.u;
      if (which == 2) next.c = v.c;
      if (want == OpCode::kOk && which == 1 && visible->u != v.u) {
        want = model_.CheckUnique(t, id, v.u);
      }
      got = p_.Update(t, IntKey(t_, 0, id), program);
      if (want == OpCode::kOk) model_.Set(t, id, next);
    } else if (op <= 8) {  // delete
      want = locked ? OpCode::kLocked : !visible ? OpCode::kNotFound : OpCode::kOk;
      got = p_.Delete(t, IntKey(t_, 0, id));
      if (want == OpCode::kOk) model_.Remove(t, id);
    } else if (op <= 10) {  // read
      std::optional<Value> read = testing::Get(p_, t_, id, t);
      ASSERT_EQ(read, visible);
      if (v.u) {
        schema::RowWriter w;
        OpResult r =
            p_.ReadUnique(t, 2, IntKey(t_, 3, *v.u), testing::AllColumns(), LockMode::kNone, &w);
        std::optional<int> model_id;
        for (int i = 0; i < kIds; ++i) {
          std::optional<Value> mv = model_.Visible(t, i);
          if (mv && mv->u == v.u) model_id = i;
        }
        ASSERT_EQ(r.code, model_id ? OpCode::kOk : OpCode::kNotFound);
        if (model_id) {
          ASSERT_EQ(testing::ParseRows(t_, w.view()).at(0).id, *model_id);
        }
      }
      continue;
    } else {  // end a transaction
      if (t == 0) continue;
      bool commit = pick(2) == 0;
      if (commit) {
        p_.Commit(t);
      } else {
        p_.Abort(t);
      }
      model_.End(t, commit);
      ASSERT_FALSE(p_.HasTransaction(t));
      continue;
    }
    ASSERT_EQ(got.code, want);
    if (t == 0) model_.End(0, true);
    if (step % 500 == 0) {
      for (int index = 0; index < 3; ++index) {
        ASSERT_EQ(ScanIds(index, t, step % 1000 == 0), ModelIds(index, t, step % 1000 == 0))
            << "index " << index;
      }
    }
  }
  for (TxnId t = 1; t < 4; ++t) {
    p_.Commit(t);
    model_.End(t, true);
  }
  EXPECT_EQ(p_.row_count(), model_.committed.size());
  for (int index = 0; index < 3; ++index) {
    EXPECT_EQ(ScanIds(index, 0, false), ModelIds(index, 0, false));
    EXPECT_EQ(ScanIds(index, 0, true), ModelIds(index, 0, true));
  }
  for (const auto& [id, v] : model_.committed) EXPECT_EQ(testing::Get(p_, t_, id), v);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomTest, ::testing::Values(1u, 2u, 3u, 12345u));

}  // namespace
}  // namespace shoal::storage
