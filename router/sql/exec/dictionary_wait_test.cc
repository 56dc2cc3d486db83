// Statements that need the dictionary master never wait for it on the worker's thread: they
// return Deferred at once, the request goes out like an operation, and the answer (run from
// the client's Poll) finishes them — DDL through the master, a table not known yet through a
// refresh and a second run of the statement.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "engine/api/api_test_util.h"
#include "engine/api/client.h"
#include "router/sql/exec/executor.h"

namespace shoal::sql {
namespace {

class ClientAccess : public DataAccess {
 public:
  explicit ClientAccess(api::Cluster* cluster) : client_(cluster) {}
  api::Client& client() override { return client_; }
  void Flush() override { client_.Send(); }

 private:
  api::Client client_;
};

class Results : public ResultSink {
 public:
  void StatementDone(StatementResult result) override { results.push_back(std::move(result)); }
  std::vector<StatementResult> results;
};

api::Cluster::Options TcpOnly() {
  api::Cluster::Options options;
  options.use_shared_memory = false;
  return options;
}

class DictionaryWaitTest : public ::testing::Test {
 protected:
  DictionaryWaitTest() : cluster_(TcpOnly()) {
    cluster_.SetView(master_.View());
    access_ = std::make_unique<ClientAccess>(&cluster_);
    state_.server = &server_;
    state_.data = access_.get();
    state_.sink = &sink_;
    ApplyHandshakeCollation(mysql::charset::kUtf8mb4GeneralCi, &state_);
  }

  // Serves and polls until the sink has a result (10 s at most).
  void Answer() {
    absl::Time deadline = absl::Now() + absl::Seconds(10);
    while (sink_.results.empty() && absl::Now() < deadline) {
      master_.Serve();
      access_->client().Poll(absl::Milliseconds(5));
    }
    ASSERT_EQ(sink_.results.size(), 1u);
  }

  api::testing::FakeMaster master_;
  api::Cluster cluster_;
  std::unique_ptr<ClientAccess> access_;
  ServerInfo server_;
  SessionState state_;
  Results sink_;
};

TEST_F(DictionaryWaitTest, DdlReturnsAtOnceAndAnswersFromPoll) {
  StatementResult result = ExecuteText("CREATE DATABASE d", &state_);
  EXPECT_TRUE(std::holds_alternative<Deferred>(result));
  EXPECT_TRUE(master_.requests.empty());  // nothing was waited for
  Answer();
  // The worker had no dictionary: it is fetched first (the accounts to check are in it).
  ASSERT_EQ(master_.requests.size(), 2u);
  EXPECT_TRUE(master_.requests[0].has_get_dictionary());
  EXPECT_TRUE(master_.requests[1].has_create_database());
  const auto* ok = std::get_if<OkResult>(&sink_.results[0]);
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ(ok->affected_rows, 1u);
  EXPECT_EQ(state_.in_flight, nullptr);
}

TEST_F(DictionaryWaitTest, DdlErrorFromTheMaster) {
  master_.answer = [](const wire::DictReq&) {
    wire::DictConf conf;
    conf.set_error_code(1007);
    conf.set_error_message("Can't create database 'd'; database exists");
    return std::optional<wire::DictConf>(conf);
  };
  EXPECT_TRUE(std::holds_alternative<Deferred>(ExecuteText("CREATE DATABASE d", &state_)));
  Answer();
  const auto* error = std::get_if<mysql::SqlError>(&sink_.results[0]);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->code, 1007);
  ASSERT_EQ(state_.warnings.size(), 1u);  // recorded for SHOW WARNINGS, as any error
}

TEST_F(DictionaryWaitTest, UnknownTableIsLookedUpOnceMoreThenRefused) {
  master_.answer = [](const wire::DictReq& request) {
    wire::DictConf conf;
    if (request.has_get_dictionary()) {
      conf.mutable_dictionary()->set_version(1);
      conf.mutable_dictionary()->add_databases("d");
    }
    return std::optional<wire::DictConf>(conf);
  };
  EXPECT_TRUE(std::holds_alternative<Deferred>(ExecuteText("SELECT * FROM d.t", &state_)));
  Answer();
  ASSERT_EQ(master_.requests.size(), 1u);  // a refresh, then the statement ran again
  EXPECT_TRUE(master_.requests[0].has_get_dictionary());
  const auto* error = std::get_if<mysql::SqlError>(&sink_.results[0]);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->code, 1146);
  EXPECT_EQ(error->message, "Table 'd.t' doesn't exist");
  EXPECT_EQ(state_.wanted, nullptr);
}

TEST_F(DictionaryWaitTest, UseOfADatabaseAnotherRouterJustCreated) {
  master_.answer = [](const wire::DictReq& request) {
    wire::DictConf conf;
    if (request.has_get_dictionary()) {
      conf.mutable_dictionary()->set_version(2);
      conf.mutable_dictionary()->add_databases("fresh");
    }
    return std::optional<wire::DictConf>(conf);
  };
  EXPECT_TRUE(std::holds_alternative<Deferred>(ExecuteText("USE fresh", &state_)));
  Answer();
  EXPECT_TRUE(std::holds_alternative<OkResult>(sink_.results[0]));
  EXPECT_EQ(state_.database, "fresh");
}

// The dictionary master's answers to get_dictionary: version 1 knows account u and role r
// apart, version 2 has r granted to u (as another router's GRANT r TO u just made it).
std::optional<wire::DictConf> AccountsAtVersion(uint32_t version) {
  wire::DictConf conf;
  wire::Dictionary* dictionary = conf.mutable_dictionary();
  dictionary->set_version(version);
  dictionary->add_databases("d");
  wire::AccessControl* access = dictionary->mutable_access();
  access->set_generation(version);
  for (const char* user : {"root", "u", "r"}) {
    wire::Account* account = access->add_accounts();
    account->set_user(user);
    account->set_host("%");
    if (absl::string_view(user) == "root") account->set_global_privileges(~uint64_t{0});
    if (absl::string_view(user) == "u" && version >= 2) {
      wire::AccountRef* role = account->add_roles();
      role->set_user("r");
      role->set_host("%");
    }
  }
  return conf;
}

TEST_F(DictionaryWaitTest, RoleGrantedThroughAnotherRouterIsLookedUpBeforeRefusing) {
  uint32_t version = 1;
  master_.answer = [&version](const wire::DictReq& request) {
    if (request.has_get_dictionary()) return AccountsAtVersion(version);
    return std::optional<wire::DictConf>(wire::DictConf());
  };
  state_.user = "u";
  state_.account_host = "%";
  EXPECT_TRUE(std::holds_alternative<Deferred>(ExecuteText("SET ROLE NONE", &state_)));
  Answer();
  ASSERT_TRUE(std::holds_alternative<OkResult>(sink_.results[0]));
  sink_.results.clear();
  version = 2;  // granted elsewhere; no data node has mentioned it to this router yet
  EXPECT_TRUE(std::holds_alternative<Deferred>(ExecuteText("SET ROLE r", &state_)));
  Answer();
  EXPECT_EQ(master_.requests.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<OkResult>(sink_.results[0]));
  ASSERT_EQ(state_.active_roles.size(), 1u);
  EXPECT_EQ(state_.active_roles[0].first, "r");
}

TEST_F(DictionaryWaitTest, DenialIsGivenAgainstTheCurrentDictionary) {
  master_.answer = [](const wire::DictReq& request) {
    if (request.has_get_dictionary()) return AccountsAtVersion(1);
    return std::optional<wire::DictConf>(wire::DictConf());
  };
  state_.user = "u";
  state_.account_host = "%";
  EXPECT_TRUE(std::holds_alternative<Deferred>(ExecuteText("CREATE DATABASE e", &state_)));
  Answer();
  // Fetched for this statement already: the refusal is given without another look.
  EXPECT_EQ(master_.requests.size(), 1u);
  const auto* error = std::get_if<mysql::SqlError>(&sink_.results[0]);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->code, 1044);
  sink_.results.clear();
  EXPECT_TRUE(std::holds_alternative<Deferred>(ExecuteText("SET ROLE r", &state_)));
  Answer();
  // Looked once more (the grant could be newer than what this router was told), then refused.
  EXPECT_EQ(master_.requests.size(), 2u);
  error = std::get_if<mysql::SqlError>(&sink_.results[0]);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->code, 3530);
}

}  // namespace
}  // namespace shoal::sql
