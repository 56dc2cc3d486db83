// TurnLoop: the one loop of a statement that moves itself on from several places — input
// arriving, completions of its native operations, answers of the dictionary master — some of
// which run inside the others (a completion inside Flush()). A call made while the loop runs
// only asks for one more turn, so the statement's end is taken once, in the outermost call.
#pragma once

namespace shoal::sql::internal {

class TurnLoop {
 public:
  // Runs `turn` until no call asked for another meanwhile. True in the outermost call, once
  // it is over; false in a nested call (which only asked for another turn).
  template <typename Turn>
  bool Run(Turn&& turn) {
    if (running_) {
      again_ = true;
      return false;
    }
    running_ = true;
    do {
      again_ = false;
      turn();
    } while (again_);
    running_ = false;
    return true;
  }

 private:
  bool running_ = false;
  bool again_ = false;
};

}  // namespace shoal::sql::internal
