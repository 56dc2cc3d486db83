// The epoch (global checkpoint) that commits on this data node belong to, and which of them are
// still on their way to every replica (docs/architecture.md, I8; the rounds that move it are
// plane/epoch_role.h).
//
// Whoever decides a commit — an LDM, as the primary of a partition, or the TC, for a
// transaction over several — tags it with the current epoch (Decider::Begin), sends the tag with
// the commit to every replica, which log the commit under it, and calls Decider::End once every
// replica has it. When a round moves the node to epoch e + 1 (Advance), the node may say its
// part of epoch e is over only once no decider has a commit tagged e or earlier in flight
// (Drained): from then on every replica's redo holds every commit of e this node decided, and
// syncing the redo makes e durable.
//
// Threads: Advance and Drained on the data-plane thread; each Decider on its one owner thread
// (an LDM's, or the data-plane thread for the TC). Begin and Advance meet as in Dekker's
// protocol (sequentially consistent atomics): a Begin that read epoch e either is seen by the
// Drained(e) that follows Advance(e + 1), or sees e + 1 itself and tags its commit with that.
// Rounds are sequential (e + 2 begins only once every node drained e), so two counters, by the
// epoch's parity, are enough.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace shoal::node {

class EpochClock {
 public:
  class Decider {
   public:
    explicit Decider(EpochClock* clock) : clock_(clock) {}
    // The epoch of a commit decided now; counted in flight until End(epoch).
    uint64_t Begin() {
      for (;;) {
        uint64_t epoch = clock_->current_.load();
        in_flight_[epoch & 1].value.fetch_add(1);
        if (clock_->current_.load() == epoch) return epoch;
        in_flight_[epoch & 1].value.fetch_sub(1);
      }
    }
    // The commit tagged `epoch` is on every replica (or will never be: it was rolled back).
    void End(uint64_t epoch) { in_flight_[epoch & 1].value.fetch_sub(1); }
    uint64_t in_flight(uint64_t epoch) const { return in_flight_[epoch & 1].value.load(); }
    uint64_t current() const { return clock_->current(); }
    void Observe(uint64_t epoch) { clock_->Advance(epoch); }

   private:
    struct alignas(64) Counter {
      std::atomic<uint64_t> value{0};
    };
    EpochClock* clock_;
    Counter in_flight_[2];
  };

  // `first` is the epoch commits get until the first Advance: 1 on a fresh node, the restored
  // epoch + 1 after a restart from disk.
  explicit EpochClock(uint64_t first = 1) : current_(first) {}

  uint64_t current() const { return current_.load(); }
  // Deciders are made before any thread uses them and live as long as the clock.
  Decider* AddDecider() {
    deciders_.push_back(std::make_unique<Decider>(this));
    return deciders_.back().get();
  }
  // Moves to `epoch` (no-op unless it is newer). Any thread: a backup that applies a commit of
  // a newer epoch than its own moves too — a node that has just restarted learns the epoch
  // from its first replicated commits, before any round reaches it. Safe because a primary
  // tags e + 1 only once every node drained e - 1 (rounds are sequential).
  void Advance(uint64_t epoch) {
    uint64_t now = current_.load();
    while (epoch > now && !current_.compare_exchange_weak(now, epoch)) {
    }
  }
  // No commit tagged `epoch` or earlier is in flight on any decider. REQUIRES: epoch < current().
  bool Drained(uint64_t epoch) const {
    for (const auto& decider : deciders_) {
      if (decider->in_flight(epoch) != 0) return false;
    }
    return true;
  }

 private:
  std::atomic<uint64_t> current_;
  std::vector<std::unique_ptr<Decider>> deciders_;
};

}  // namespace shoal::node
