// Fixed-width integers in the engine's own files (checkpoints, node.state): host byte order,
// since a node reads only the files it wrote itself.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>

#include "absl/strings/string_view.h"

namespace shoal::redo::internal {

template <typename T>
void AppendFixed(std::string* out, T v) {
  static_assert(std::is_trivially_copyable_v<T>);
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

// Takes a T from the front of `*in`; false (and nothing taken) when fewer bytes remain.
template <typename T>
bool ReadFixed(absl::string_view* in, T* v) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (in->size() < sizeof(T)) return false;
  std::memcpy(v, in->data(), sizeof(T));
  in->remove_prefix(sizeof(T));
  return true;
}

// Takes a T from the front of `*in`, whose length the caller has checked.
template <typename T>
T TakeFixed(absl::string_view* in) {
  T v;
  std::memcpy(&v, in->data(), sizeof(v));
  in->remove_prefix(sizeof(v));
  return v;
}

}  // namespace shoal::redo::internal
