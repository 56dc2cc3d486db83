// Client's dictionary requests against a stand-in master: answered by callback from Poll(),
// never inside the call; asked again after a "not the master" answer; failed by Poll() once
// their time is up; and the client's dictionary snapshot follows the Cluster's.
#include "engine/api/client.h"

#include <optional>

#include "engine/api/api_test_util.h"
#include "engine/wire/errors.h"
#include "gtest/gtest.h"

namespace shoal::api {
namespace {

using testing::FakeMaster;

Cluster::Options TcpOnly() {
  Cluster::Options options;
  options.use_shared_memory = false;
  return options;
}

// Serves and polls until `done` or 10 s.
template <class Done>
void PollUntil(FakeMaster* master, Client* client, Done done) {
  absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (!done() && absl::Now() < deadline) {
    if (master != nullptr) master->Serve();
    client->Poll(absl::Milliseconds(5));
  }
}

wire::Dictionary OneDatabase(uint32_t version, const std::string& name) {
  wire::Dictionary dictionary;
  dictionary.set_version(version);
  dictionary.set_incarnation(7);
  dictionary.add_databases(name);
  return dictionary;
}

TEST(ClientDictionaryTest, AnsweredByCallbackFromPoll) {
  FakeMaster master;
  ASSERT_TRUE(master.ok());
  master.answer = [](const wire::DictReq& request) {
    wire::DictConf conf;
    if (request.has_get_dictionary()) *conf.mutable_dictionary() = OneDatabase(3, "d");
    return std::optional<wire::DictConf>(conf);
  };
  Cluster cluster(TcpOnly());
  cluster.SetView(master.View());
  Client client(&cluster);

  std::optional<absl::StatusOr<wire::DictConf>> answer;
  client.RefreshDictionary([&](absl::StatusOr<wire::DictConf> conf) { answer = std::move(conf); });
  client.Send();
  EXPECT_FALSE(answer.has_value());  // queued and sent, never waited for in the call
  EXPECT_EQ(client.in_flight(), 1);  // so that an event loop keeps polling

  PollUntil(&master, &client, [&] { return answer.has_value(); });
  ASSERT_TRUE(answer.has_value());
  ASSERT_TRUE(answer->ok()) << answer->status();
  EXPECT_EQ(client.in_flight(), 0);
  ASSERT_EQ(master.requests.size(), 1u);
  ASSERT_NE(client.dictionary(), nullptr);  // installed before the callback ran
  EXPECT_EQ(client.dictionary()->version, 3u);
}

TEST(ClientDictionaryTest, AskedAgainWhenNotTheMasterYet) {
  FakeMaster master;
  ASSERT_TRUE(master.ok());
  int asked = 0;
  master.answer = [&asked](const wire::DictReq&) {
    wire::DictConf conf;
    if (++asked == 1) conf.set_error_code(wire::kErTemporary);
    conf.set_auto_increment_first(41);
    return std::optional<wire::DictConf>(conf);
  };
  Cluster cluster(TcpOnly());
  cluster.SetView(master.View());
  Client client(&cluster);

  wire::DictReq request;
  request.mutable_reserve_auto_increment()->set_table_id(1);
  std::optional<absl::StatusOr<wire::DictConf>> answer;
  client.Dictionary(request,
                    [&](absl::StatusOr<wire::DictConf> conf) { answer = std::move(conf); });
  client.Send();
  PollUntil(&master, &client, [&] { return answer.has_value(); });
  ASSERT_TRUE(answer.has_value() && answer->ok());
  EXPECT_EQ((*answer)->auto_increment_first(), 41u);
  EXPECT_EQ(asked, 2);
}

TEST(ClientDictionaryTest, TimesOutThroughPollWithoutAMaster) {
  Cluster cluster(TcpOnly());  // no view: no data node at all
  Client client(&cluster);
  std::optional<absl::StatusOr<wire::DictConf>> answer;
  client.RefreshDictionary([&](absl::StatusOr<wire::DictConf> conf) { answer = std::move(conf); });
  wire::DictReq request;
  request.mutable_get_dictionary();
  std::optional<absl::StatusOr<wire::DictConf>> quick;
  client.Dictionary(
      request, [&](absl::StatusOr<wire::DictConf> conf) { quick = std::move(conf); },
      absl::Milliseconds(100));
  client.Poll(absl::ZeroDuration());
  EXPECT_FALSE(quick.has_value());

  absl::Time start = absl::Now();
  PollUntil(nullptr, &client, [&] { return quick.has_value(); });
  ASSERT_TRUE(quick.has_value());
  EXPECT_TRUE(absl::IsUnavailable(quick->status())) << quick->status();
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  EXPECT_FALSE(answer.has_value());  // its 30 s are not up
  EXPECT_EQ(client.in_flight(), 1);
}

TEST(ClientDictionaryTest, SnapshotFollowsTheCluster) {
  Cluster cluster(TcpOnly());
  Client client(&cluster);
  EXPECT_EQ(client.dictionary(), nullptr);
  cluster.SetDictionary(OneDatabase(1, "a"));
  std::shared_ptr<const Dictionary> first = client.dictionary();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(client.dictionary(), first);  // unchanged: the same snapshot
  cluster.SetDictionary(OneDatabase(2, "b"));
  ASSERT_NE(client.dictionary(), first);
  EXPECT_EQ(client.dictionary()->version, 2u);
  EXPECT_EQ(first->databases.front(), "a");      // a snapshot a reader holds never changes
  cluster.SetDictionary(OneDatabase(1, "old"));  // older: not installed
  EXPECT_EQ(client.dictionary()->version, 2u);
}

}  // namespace
}  // namespace shoal::api
