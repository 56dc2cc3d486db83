// Doorbells over eventfd.
#include "engine/transport/doorbell.h"

#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace shoal::transport {

bool RingDoorbell(int fd) {
  const uint64_t one = 1;
  for (;;) {
    if (write(fd, &one, sizeof(one)) == sizeof(one)) return true;
    if (errno == EINTR) continue;
    return errno == EAGAIN;  // the counter is saturated: the reader will wake anyway
  }
}

void DrainDoorbell(int fd) {
  uint64_t value;
  while (read(fd, &value, sizeof(value)) < 0 && errno == EINTR) {
  }
}

}  // namespace shoal::transport
