#include "common/liveness/silence_detector.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace shoal::liveness {
namespace {

std::string Seconds(absl::Duration d) {
  return absl::FormatDuration(absl::Trunc(d, absl::Milliseconds(10)));
}

}  // namespace

SilenceDetector::SilenceDetector(absl::Duration interval, absl::Time now) : clock_(interval, now) {}

void SilenceDetector::Watch(int peer, absl::Duration limit, absl::Time now,
                            ProcessIdentity identity) {
  Peer fresh;
  fresh.limit = limit;
  fresh.identity = std::move(identity);
  fresh.heard = now;
  peers_[peer] = std::move(fresh);
}

void SilenceDetector::Forget(int peer) { peers_.erase(peer); }

void SilenceDetector::Heard(int peer, absl::Time now) {
  auto it = peers_.find(peer);
  if (it == peers_.end()) return;
  Peer& p = it->second;
  p.heard = now;
  p.counted = p.stalled = p.starved = absl::ZeroDuration();
  p.extended = false;
  p.noted = false;
}

absl::Duration SilenceDetector::counted(int peer) const {
  auto it = peers_.find(peer);
  return it == peers_.end() ? absl::ZeroDuration() : it->second.counted;
}

absl::Duration SilenceDetector::limit(int peer) const {
  auto it = peers_.find(peer);
  return it == peers_.end() ? absl::ZeroDuration() : it->second.window();
}

SilenceDetector::Report SilenceDetector::Check(absl::Time now, ProcessProbe* probe) {
  Report report;
  report.tick = clock_.Advance(now);
  std::vector<int> crossed;  // reached their limit in this very check
  for (auto& [id, peer] : peers_) {
    // The kernel is asked only about peers missing a heartbeat or so (a quarter of the limit):
    // enough to catch a starvation early, without reading /proc for every peer every time.
    Activity activity = Activity::kUnknown;
    if (probe != nullptr && peer.identity.pid != 0 && now - peer.heard >= peer.limit / 4) {
      activity = probe->Look(peer.identity, now);
    }
    bool starved = activity == Activity::kStarved;
    absl::Duration before = peer.counted;
    (starved ? peer.starved : peer.counted) += report.tick.counted;
    peer.stalled += report.tick.gap - report.tick.counted;
    if (peer.counted >= peer.window()) {
      if (before < peer.limit && !peer.extended) crossed.push_back(id);
      continue;
    }
    absl::Duration by_clock = now - peer.heard;
    if (by_clock < peer.limit || peer.noted) continue;
    // Silent past its limit by the clock, not by what counts: say why, once.
    peer.noted = true;
    Note note;
    note.peer = id;
    note.excuse = peer.starved > peer.stalled ? Excuse::kStarved : Excuse::kObserverStalled;
    note.by_clock = by_clock;
    note.counted = peer.counted;
    report.notes.push_back(std::move(note));
  }
  if (crossed.size() >= 2) {
    for (int id : crossed) {
      Peer& peer = peers_[id];
      peer.extended = true;
      peer.noted = true;
      Note note;
      note.peer = id;
      note.excuse = Excuse::kTogether;
      note.by_clock = now - peer.heard;
      note.counted = peer.counted;
      note.together = crossed;
      report.notes.push_back(std::move(note));
    }
  }
  for (const auto& [id, peer] : peers_) {
    if (peer.counted >= peer.window()) report.failed.push_back(id);
  }
  return report;
}

std::string SilenceDetector::Describe(const Note& note) {
  std::string head =
      absl::StrCat("silent for ", Seconds(note.by_clock), " (", Seconds(note.counted), " counted)");
  switch (note.excuse) {
    case Excuse::kObserverStalled:
      return absl::StrCat(head, ", but the observer itself was stalled for the rest: not failed");
    case Excuse::kStarved:
      return absl::StrCat(head,
                          ", but it is runnable and kept from running by this host's scheduler "
                          "(starved): not failed while that lasts");
    case Excuse::kTogether: {
      std::vector<int> others;
      for (int id : note.together) {
        if (id != note.peer) others.push_back(id);
      }
      return absl::StrCat(head, ", as node", others.size() > 1 ? "s " : " ",
                          absl::StrJoin(others, ", "),
                          " fell silent at the same moment: more likely a stalled observer or "
                          "host than ",
                          note.together.size(), " failures; one more window before failing");
    }
  }
  return head;
}

}  // namespace shoal::liveness
