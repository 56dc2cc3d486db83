// Little-endian loads and stores shared by the schema library's codecs (packed rows, table
// definitions, programs). Internal to engine/schema: the formats are little-endian on every
// host, so these go through memcpy and swap only on a big-endian one.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace shoal::schema::internal {

// FixedSize by ColumnType number, for the per-field loops.
inline constexpr int8_t kFixedSizes[23] = {0, 1, 2, 4, 4, 8, 4, 8, 0, 0, 0, 0,
                                           0, 0, 0, 4, 8, 8, 8, 2, 8, 0, 8};

inline int FixedSizeOf(uint8_t type) { return type < sizeof(kFixedSizes) ? kFixedSizes[type] : 0; }

template <typename T>
inline T LoadLe(const char* p) {
  static_assert(std::is_unsigned_v<T>);
  T v;
  std::memcpy(&v, p, sizeof(T));
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    T r = 0;
    for (size_t i = 0; i < sizeof(T); ++i) r = static_cast<T>((r << 8) | ((v >> (8 * i)) & 0xFF));
    v = r;
  }
  return v;
}

// Appends the low `n` bytes of `v`, least significant first.
inline void AppendLe(uint64_t v, int n, std::string* out) {
  char bytes[8];
  for (int i = 0; i < n; ++i) bytes[i] = static_cast<char>(v >> (8 * i));
  out->append(bytes, n);
}

}  // namespace shoal::schema::internal
