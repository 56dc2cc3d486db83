// A router worker's AUTO_INCREMENT values for one table, and the walk a statement makes over
// them row by row, as MySQL's counter moves with innodb_autoinc_lock_mode = 2.
//
// The dictionary master's counter is the truth: it hands out ranges (ReserveAutoIncrement) and
// never hands out a value twice. A worker keeps what it reserved, as NDB's mysqld keeps
// ndb_autoincrement_prefetch_sz values, and its own counter `next`: values below it are never
// generated. A stored explicit value v moves `next` past v; when v is at or above every value
// the worker reserved (`end`), the master's counter may be below v too, so the statement asks
// it for a range from v + 1 before it writes (NDB's setAutoIncrementValue): from then on no
// router is handed v. An explicit value inside a range another worker or router holds is not
// seen by that one, as in NDB: it may still generate v (and fail with 1062).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace shoal::sql {

// Owned by one router worker (DataAccess::auto_increment); used only on its thread.
struct AutoIncrementRange {
  struct Span {
    uint64_t first = 0;
    uint64_t end = 0;  // past the last
  };
  uint32_t table_version = 0;  // a new version (TRUNCATE, ALTER … AUTO_INCREMENT) drops it all
  uint64_t next = 0;           // the worker's counter: nothing below it is generated any more
  uint64_t end = 0;            // the master's counter was at least this when last asked
  std::vector<Span> held;      // reserved and not yet passed, ascending, disjoint

  // Adds [first, first + count) the master handed out.
  void Add(uint64_t first, uint64_t count);
  // `count` consecutive values at or above `next`, taken (nullopt: none held; nothing taken).
  std::optional<uint64_t> Take(uint64_t count);
  // A value stored explicitly: `next` moves past it (UINT64_MAX, the last value, leaves it).
  void Pass(uint64_t value) {
    if (value >= next && value != UINT64_MAX) next = value + 1;
  }
  // Drops what lies below `next`.
  void Trim();
};

// One statement's values, row by row, on a copy of the worker's range: stored back with
// range() only when the statement goes ahead (a statement that stops for the master is run
// again from its start and walks the same rows again).
class AutoIncrementWalk {
 public:
  explicit AutoIncrementWalk(const AutoIncrementRange& range) : range_(range) {}

  // The next generated value; nullopt when the worker holds none at or above its counter
  // (reserve from at_least() first).
  // `count` consecutive ones for a row that takes several (the hidden key too).
  std::optional<uint64_t> Generate(uint64_t count = 1) { return range_.Take(count); }
  // The column was given `value` (as stored; only positive values count, as in MySQL).
  void Explicit(uint64_t value) { range_.Pass(value); }
  // After the rows: whether an explicit value went past every value the master handed this
  // worker, so that the master's counter must be moved (ReserveAutoIncrement from at_least()).
  bool NeedsMaster() const { return range_.next > range_.end; }
  // Where a reservation asked for now must start.
  uint64_t at_least() const { return range_.next; }
  // The range to store back once the statement goes ahead.
  AutoIncrementRange range() const {
    AutoIncrementRange out = range_;
    out.Trim();
    return out;
  }

 private:
  AutoIncrementRange range_;
};

}  // namespace shoal::sql
