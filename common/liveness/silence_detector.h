// SilenceDetector: which of the peers a detector watches have been silent too long.
//
// Silence is counted only in time that can be held against the peer:
//  * time in which the detector itself ran (RunningClock: its own stalls are left out);
//  * time in which the peer could run: a peer on this host that the kernel shows runnable but
//    starved of CPU (ProcessProbe) is not counted silent meanwhile.
// And peers that cross their limit together, two or more in one check, get one more window:
// many peers failing at the same instant is the signature of a stalled observer or host, not
// of many failures (a real failure of several is still declared, one window later).
//
// The detector only counts and reports; what a failure means (arbitration, a view change, a
// kill) is its owner's decision. See docs/architecture.md, "Failure detection".
//
// Owned by one failure detector (the mgmd's heartbeat check, a data node's peer check); used on
// its thread only.
#pragma once

#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/time/time.h"
#include "common/liveness/process_probe.h"
#include "common/liveness/running_clock.h"

namespace shoal::liveness {

class SilenceDetector {
 public:
  // Check() is meant to run every `interval`.
  SilenceDetector(absl::Duration interval, absl::Time now);

  // Starts watching `peer` afresh (silent since `now`): it fails once silent for `limit`.
  // `identity` lets the probe look at it when it runs on this host ({}: time alone).
  void Watch(int peer, absl::Duration limit, absl::Time now, ProcessIdentity identity = {});
  void Forget(int peer);
  bool watching(int peer) const { return peers_.contains(peer); }
  // The peer spoke: its silence starts again from zero.
  void Heard(int peer, absl::Time now);

  // Why a peer silent past its limit by the clock is not failed (yet).
  enum class Excuse {
    kObserverStalled,  // most of its silence fell while the detector itself was stalled
    kStarved,          // the kernel shows it runnable but kept from running
    kTogether,         // it fell silent together with others: one more window
  };
  struct Note {
    int peer = 0;
    Excuse excuse = Excuse::kObserverStalled;
    absl::Duration by_clock;    // its silence by the wall clock
    absl::Duration counted;     // what of it was counted
    std::vector<int> together;  // kTogether: every peer that fell silent in the same check
  };
  struct Report {
    RunningClock::Tick tick;
    // Silent past the limit (again at every check until heard, forgotten or watched afresh).
    std::vector<int> failed;
    // At most one per peer and silence: the first time it was excused.
    std::vector<Note> notes;
  };

  // The detector runs now. `probe` (may be null) is asked about peers with an identity that
  // have been silent for a quarter of their limit or more.
  Report Check(absl::Time now, ProcessProbe* probe);

  // Counted silence so far (zero for a peer not watched).
  absl::Duration counted(int peer) const;
  // The time the peer's silence is held to: its limit, or twice it after a kTogether excuse.
  absl::Duration limit(int peer) const;

  // A one-line text for a note, e.g. "silent for 4.4s, but this detector was stalled for most
  // of it (0.9s counted): not failed".
  static std::string Describe(const Note& note);

 private:
  struct Peer {
    absl::Duration limit;
    ProcessIdentity identity;
    absl::Time heard;        // wall clock, for notes
    absl::Duration counted;  // silence held against it
    absl::Duration stalled;  // silence left out: the detector itself was stalled
    absl::Duration starved;  // silence left out: the kernel showed it starved
    bool extended = false;   // kTogether gave it one more window in this silence
    bool noted = false;      // a note was reported in this silence

    absl::Duration window() const { return extended ? 2 * limit : limit; }
  };

  RunningClock clock_;
  absl::btree_map<int, Peer> peers_;
};

}  // namespace shoal::liveness
