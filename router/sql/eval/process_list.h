// ProcessList: the sessions of one router process, for SHOW PROCESSLIST,
// information_schema.PROCESSLIST and KILL. Each router is an SQL node of its own, as each
// mysqld of an NDB cluster is: it lists and kills its own sessions only.
//
// Every session owns an Entry, in the list from its construction to its destruction, and
// updates it from its own thread when a command begins and ends (and a long statement's
// progress); any thread reads the list (Snapshot) and kills through it (Kill). The list's
// mutex guards which entries exist, each entry's mutex its row: a reader takes the list's,
// then each entry's in turn; a session takes only its entry's, except to join or leave.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace shoal::sql {

class ProcessList {
 public:
  // One row, as SHOW PROCESSLIST shows it.
  struct Row {
    uint32_t id = 0;
    std::string user, host;
    std::optional<std::string> db;
    std::string command;  // MySQL's names: "Sleep", "Query", "Execute", "Connect"…
    absl::Time since;     // when `command` (or `state`) began: Time is seconds since
    std::string state;
    std::optional<std::string> info;  // the statement running
  };

  // A session's place in the list.
  class Entry {
   public:
    // Joins `list` (null: a session outside any list, e.g. in tests; every call is then a
    // no-op). `close` ends the session's connection; it is called from the killing thread, so
    // it must hand the work to the session's own thread.
    Entry(ProcessList* list, uint32_t id, std::string host, absl::AnyInvocable<void()> close);
    ~Entry();
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;

    void SetUser(absl::string_view user);
    // A command begins; `info` is the statement's text, when it has one.
    void Begin(absl::string_view command, std::optional<absl::string_view> info, absl::Time now);
    // The command ended: the session sleeps until the next one, in database `db` (empty:
    // none; a command may have changed it).
    void End(absl::Time now, absl::string_view db);
    // What a long statement is doing (LOAD DATA: how many rows it committed).
    void SetState(absl::string_view state);

    // KILL QUERY of the statement running now: checked between a long statement's batches;
    // cleared when the next command begins.
    bool interrupted() const { return interrupted_.load(std::memory_order_relaxed); }

   private:
    friend class ProcessList;

    ProcessList* list_;
    // std::mutex rather than absl::Mutex: ThreadSanitizer sees pthread locks (Debian's abseil
    // is not built for it). mu_ guards row_ and busy_.
    mutable std::mutex mu_;
    Row row_;
    bool busy_ = true;  // "Connect" until login ends
    std::atomic<bool> interrupted_{false};
    absl::AnyInvocable<void()> close_;
  };

  // Every session's row, by id.
  std::vector<Row> Snapshot() const;
  // KILL [CONNECTION] `id` (`connection`) or KILL QUERY `id`: false when no session has it.
  bool Kill(uint32_t id, bool connection);

 private:
  mutable std::mutex mu_;  // guards entries_
  absl::btree_map<uint32_t, Entry*> entries_;
};

}  // namespace shoal::sql
