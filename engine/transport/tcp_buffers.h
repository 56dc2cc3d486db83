// The byte buffers behind TcpChannel. Both consume from the front by moving an offset and
// compact lazily — only when room at the end runs out (input) or most of the buffer is spent
// (output) — so releasing a frame never moves the bytes after it.
// Owned by one TcpChannel.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace shoal::transport {

class InputBuffer {
 public:
  const char* data() const { return buf_.get() + begin_; }
  size_t size() const { return end_ - begin_; }

  // Free space at the end, at least `min` bytes (compacting or growing as needed).
  absl::Span<char> Room(size_t min) {
    if (capacity_ - end_ < min && begin_ > 0) {
      std::memmove(buf_.get(), buf_.get() + begin_, size());
      end_ -= begin_;
      begin_ = 0;
    }
    if (capacity_ - end_ < min) {
      size_t capacity = std::max({capacity_ * 2, end_ + min, kInitialCapacity});
      auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
      if (end_ > 0) std::memcpy(bigger.get(), buf_.get(), end_);
      buf_ = std::move(bigger);
      capacity_ = capacity;
    }
    return absl::Span<char>(buf_.get() + end_, capacity_ - end_);
  }
  // Makes `n` bytes written into Room() part of the buffer.
  void Commit(size_t n) { end_ += n; }
  void Consume(size_t n) {
    begin_ += n;
    if (begin_ == end_) begin_ = end_ = 0;
  }

 private:
  static constexpr size_t kInitialCapacity = 128 << 10;

  std::unique_ptr<char[]> buf_;
  size_t capacity_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
};

class OutputBuffer {
 public:
  const char* data() const { return buf_.data() + begin_; }
  size_t size() const { return buf_.size() - begin_; }

  void Append(absl::string_view bytes) {
    if (begin_ > kCompactAfter && begin_ > buf_.size() / 2) {
      buf_.erase(0, begin_);
      begin_ = 0;
    }
    buf_.append(bytes.data(), bytes.size());
  }
  void Consume(size_t n) {
    begin_ += n;
    if (begin_ == buf_.size()) {
      buf_.clear();
      begin_ = 0;
    }
  }

 private:
  static constexpr size_t kCompactAfter = 64 << 10;

  std::string buf_;
  size_t begin_ = 0;
};

}  // namespace shoal::transport
