// Reader and Writer for the MySQL wire primitives (see wire.h for the layouts).
#include "protocol/wire.h"

#include <cstring>

namespace shoal::mysql {

absl::string_view DecodeStatusName(DecodeStatus status) {
  switch (status) {
    case DecodeStatus::kOk:
      return "ok";
    case DecodeStatus::kNeedMore:
      return "need-more";
    case DecodeStatus::kMalformed:
      return "malformed";
    case DecodeStatus::kTooLarge:
      return "too-large";
    case DecodeStatus::kOutOfOrder:
      return "out-of-order";
    case DecodeStatus::kUnsupported:
      return "unsupported";
  }
  return "unknown";
}

bool Reader::ReadLE(size_t n, uint64_t* out) {
  if (remaining() < n) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(in_[pos_ + i]) << (8 * i);
  pos_ += n;
  *out = v;
  return true;
}

bool Reader::ReadInt1(uint8_t* out) {
  if (remaining() < 1) return false;
  *out = in_[pos_++];
  return true;
}

bool Reader::ReadInt2(uint16_t* out) {
  uint64_t v;
  if (!ReadLE(2, &v)) return false;
  *out = static_cast<uint16_t>(v);
  return true;
}

bool Reader::ReadInt3(uint32_t* out) {
  uint64_t v;
  if (!ReadLE(3, &v)) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

bool Reader::ReadInt4(uint32_t* out) {
  uint64_t v;
  if (!ReadLE(4, &v)) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

bool Reader::ReadInt6(uint64_t* out) { return ReadLE(6, out); }
bool Reader::ReadInt8(uint64_t* out) { return ReadLE(8, out); }

bool Reader::ReadLenencInt(uint64_t* out) {
  if (remaining() < 1) return false;
  const uint8_t first = in_[pos_];
  size_t width;
  if (first < 0xFB) {
    *out = first;
    ++pos_;
    return true;
  } else if (first == 0xFC) {
    width = 2;
  } else if (first == 0xFD) {
    width = 3;
  } else if (first == 0xFE) {
    width = 8;
  } else {
    return false;  // 0xFB (NULL) or 0xFF
  }
  if (remaining() < 1 + width) return false;
  ++pos_;
  return ReadLE(width, out);
}

bool Reader::ReadLenencString(absl::string_view* out) {
  const size_t saved = pos_;
  uint64_t len;
  if (!ReadLenencInt(&len)) return false;
  if (len > remaining()) {
    pos_ = saved;
    return false;
  }
  *out = AsStringView(in_.subspan(pos_, static_cast<size_t>(len)));
  pos_ += static_cast<size_t>(len);
  return true;
}

bool Reader::ReadNulString(absl::string_view* out) {
  const uint8_t* start = in_.data() + pos_;
  const void* nul = remaining() == 0 ? nullptr : std::memchr(start, 0, remaining());
  if (nul == nullptr) return false;
  const size_t len = static_cast<size_t>(static_cast<const uint8_t*>(nul) - start);
  *out = AsStringView(in_.subspan(pos_, len));
  pos_ += len + 1;
  return true;
}

bool Reader::ReadFixedString(size_t n, absl::string_view* out) {
  if (remaining() < n) return false;
  *out = AsStringView(in_.subspan(pos_, n));
  pos_ += n;
  return true;
}

absl::string_view Reader::ReadRest() {
  absl::string_view s = AsStringView(in_.subspan(pos_));
  pos_ = in_.size();
  return s;
}

bool Reader::Skip(size_t n) {
  if (remaining() < n) return false;
  pos_ += n;
  return true;
}

bool Reader::PeekInt1(uint8_t* out) const {
  if (remaining() < 1) return false;
  *out = in_[pos_];
  return true;
}

void Writer::WriteLE(uint64_t v, size_t n) {
  char buf[8];
  for (size_t i = 0; i < n; ++i) buf[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  out_->append(buf, n);
}

size_t Writer::LenencIntSize(uint64_t v) {
  if (v < 0xFB) return 1;
  if (v <= 0xFFFF) return 3;
  if (v <= 0xFFFFFF) return 4;
  return 9;
}

void Writer::WriteLenencInt(uint64_t v) {
  if (v < 0xFB) {
    WriteInt1(static_cast<uint8_t>(v));
  } else if (v <= 0xFFFF) {
    WriteInt1(0xFC);
    WriteInt2(static_cast<uint16_t>(v));
  } else if (v <= 0xFFFFFF) {
    WriteInt1(0xFD);
    WriteInt3(static_cast<uint32_t>(v));
  } else {
    WriteInt1(0xFE);
    WriteInt8(v);
  }
}

void Writer::WriteLenencString(absl::string_view s) {
  WriteLenencInt(s.size());
  WriteBytes(s);
}

void Writer::WriteNulString(absl::string_view s) {
  WriteBytes(s);
  WriteInt1(0);
}

}  // namespace shoal::mysql
