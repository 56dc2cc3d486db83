// AUTO_INCREMENT ceilings (wire::RaiseAutoIncrement): the master raises a table's ceiling
// ahead of the ranges it hands out, another data node that takes over goes on from there, and
// a reset (TRUNCATE) brings the ceiling down with the counter.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "engine/node/dictionary.h"
#include "engine/node/dictionary_test_util.h"
#include "engine/schema/schema.h"

namespace shoal::node {
namespace {

class DictionaryAutoIncrementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    wire::DictReq db;
    db.mutable_create_database()->set_name("db");
    ASSERT_EQ(Apply(db).error_code(), 0u);
    wire::DictReq create;
    schema::AppendTableDef(Def("t"), create.mutable_create_table()->mutable_table());
    ASSERT_EQ(Apply(create).error_code(), 0u);
    id_ = master_.tables().begin()->first;
    ASSERT_TRUE(Install(&peer_).ok());
  }

  wire::DictConf Apply(const wire::DictReq& req) {
    wire::DictConf conf;
    DictionaryDelta delta;
    master_.Apply(req, &conf, &delta);
    return conf;
  }
  // The master's dictionary, installed on `node` as a DDL change sends it.
  absl::Status Install(Dictionary* node) {
    wire::Dictionary proto;
    master_.ToProto(&proto);
    DictionaryDelta delta;
    return node->Install(proto, {}, &delta);
  }
  // A range of `count` from `dictionary`: its first value, and the ceiling raised, if any.
  std::pair<uint64_t, std::optional<uint64_t>> Reserve(Dictionary* dictionary, uint64_t count) {
    wire::ReserveAutoIncrement req;
    req.set_table_id(id_);
    req.set_count(count);
    wire::DictConf conf;
    std::optional<wire::AutoIncrementCeiling> raised = dictionary->ReserveAutoIncrement(req, &conf);
    EXPECT_EQ(conf.error_code(), 0u) << conf.error_message();
    std::optional<uint64_t> ceiling;
    if (raised.has_value()) {
      EXPECT_EQ(raised->table_id(), id_);
      ceiling = raised->ceiling();
    }
    return {conf.auto_increment_first(), ceiling};
  }
  static wire::RaiseAutoIncrement Raise(uint32_t id, uint64_t ceiling) {
    wire::RaiseAutoIncrement raise;
    wire::AutoIncrementCeiling* c = raise.add_ceilings();
    c->set_table_id(id);
    c->set_ceiling(ceiling);
    return raise;
  }

  Dictionary master_{4};
  Dictionary peer_{4};
  uint32_t id_ = 0;
};

TEST_F(DictionaryAutoIncrementTest, TheCeilingIsRaisedAheadOfTheRangesHandedOut) {
  auto [first, raised] = Reserve(&master_, 256);
  EXPECT_EQ(first, 1u);
  ASSERT_TRUE(raised.has_value());
  EXPECT_GE(*raised, 257u + 256);
  // Ranges under the ceiling raise nothing; the one that passes it raises it again.
  uint64_t next = 257;
  std::optional<uint64_t> again;
  while (next + 256 <= *raised) {
    auto [f, r] = Reserve(&master_, 256);
    EXPECT_EQ(f, next);
    EXPECT_FALSE(r.has_value());
    next += 256;
  }
  std::tie(first, again) = Reserve(&master_, 256);
  EXPECT_EQ(first, next);
  ASSERT_TRUE(again.has_value());
  EXPECT_GT(*again, first + 256);
}

TEST_F(DictionaryAutoIncrementTest, ANodeTakingOverGoesOnFromTheCeiling) {
  auto [first, raised] = Reserve(&master_, 256);
  ASSERT_TRUE(raised.has_value());
  peer_.RaiseCeilings(Raise(id_, *raised));
  peer_.RaiseCeilings(Raise(id_, 5));  // a late or repeated raise never lowers a ceiling
  // The master hands out more below the ceiling, then dies: the peer, master now, goes on
  // above everything the old one handed out.
  auto [second, none] = Reserve(&master_, 256);
  EXPECT_FALSE(none.has_value());
  auto [taken_over, raised_again] = Reserve(&peer_, 256);
  EXPECT_EQ(taken_over, *raised);
  EXPECT_GT(taken_over, second + 255);
  EXPECT_TRUE(raised_again.has_value());
}

TEST_F(DictionaryAutoIncrementTest, ADictionaryCarriesTheCeilingsToNodesAndToDisk) {
  auto [first, raised] = Reserve(&master_, 256);
  ASSERT_TRUE(raised.has_value());
  // A node that fetches the dictionary (starting, or after a system restart from the copy on
  // its disk) knows the ceiling.
  Dictionary fetched(4);
  ASSERT_TRUE(Install(&fetched).ok());
  EXPECT_EQ(Reserve(&fetched, 1).first, *raised);
  // The same dictionary version again (a copy source forwarding what it holds) raises a
  // ceiling the node holds lower, and lowers none.
  Dictionary late(4);
  ASSERT_TRUE(Install(&late).ok());
  late.RaiseCeilings(Raise(id_, 1));
  peer_.RaiseCeilings(Raise(id_, *raised + 5000));
  ASSERT_TRUE(Install(&peer_).ok());
  EXPECT_EQ(Reserve(&peer_, 1).first, *raised + 5000);
}

TEST_F(DictionaryAutoIncrementTest, TruncateStartsTheCounterAndTheCeilingAgain) {
  auto [first, raised] = Reserve(&master_, 256);
  ASSERT_TRUE(raised.has_value());
  peer_.RaiseCeilings(Raise(id_, *raised));
  wire::DictReq truncate;
  truncate.mutable_truncate_table()->set_database("db");
  truncate.mutable_truncate_table()->set_name("t");
  ASSERT_EQ(Apply(truncate).error_code(), 0u);
  ASSERT_TRUE(Install(&peer_).ok());
  auto [again, raised_again] = Reserve(&master_, 256);
  EXPECT_EQ(again, 1u);
  EXPECT_TRUE(raised_again.has_value());
  // The peer took the new version's ceiling, not the higher one of the old.
  EXPECT_EQ(Reserve(&peer_, 1).first, 1u);
}

}  // namespace
}  // namespace shoal::node
