// Doorbells: eventfds a writer rings to wake a sleeping reader, shared by the shared-memory
// channel and the in-process queue. Both calls retry on EINTR and treat EAGAIN as done (a
// counter already at its maximum is still rung; an empty one is already drained).
#pragma once

namespace shoal::transport {

// Adds one to the eventfd counter. False only when the fd is unusable.
bool RingDoorbell(int fd);
// Resets the (non-blocking) eventfd counter to zero.
void DrainDoorbell(int fd);

}  // namespace shoal::transport
