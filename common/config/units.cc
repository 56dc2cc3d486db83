// Text forms of the configuration's units: sizes ("512M"), CPU lists ("0-3,6") and durations
// ("500ms"). Each parser reads everything its formatter writes, so ToYaml output loads back
// to the same values. Messages here carry no location; the loader adds it.
#include <bitset>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/config/config.h"
#include "common/config/internal.h"

namespace shoal::config {
namespace {

// Unit letters in increasing order: kSizeUnits[i] is 1024^(i+1).
constexpr absl::string_view kSizeUnits = "KMGT";
// Larger than any machine we pin to, small enough that a range like "0-1023" stays cheap.
constexpr int kMaxCpus = 1024;

absl::Status BadSize(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("invalid size ", internal::Quote(text), ": ", why));
}

absl::Status BadCpuList(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("invalid CPU list ", internal::Quote(text), ": ", why));
}

// One CPU number: 1 to 4 digits, below kMaxCpus.
absl::StatusOr<int> ParseCpu(absl::string_view list, absl::string_view text) {
  int cpu = 0;
  if (text.empty() || text.size() > 4 || !absl::c_all_of(text, absl::ascii_isdigit) ||
      !absl::SimpleAtoi(text, &cpu)) {
    return BadCpuList(list, absl::StrCat(internal::Quote(text), " is not a CPU number"));
  }
  if (cpu >= kMaxCpus) {
    return BadCpuList(list, absl::StrCat("CPU ", cpu, " is out of range (0-", kMaxCpus - 1, ")"));
  }
  return cpu;
}

}  // namespace

absl::StatusOr<uint64_t> ParseSize(std::string_view input) {
  absl::string_view text = internal::ToAbsl(input);
  size_t digits = 0;
  while (digits < text.size() && absl::ascii_isdigit(text[digits])) ++digits;
  if (!text.empty() && text[0] == '-') return BadSize(text, "must not be negative");
  if (digits == 0) return BadSize(text, "expected a number with an optional K, M, G or T suffix");
  absl::string_view suffix = text.substr(digits);
  int shift = 0;
  if (!suffix.empty()) {
    size_t unit = kSizeUnits.find(absl::ascii_toupper(suffix[0]));
    if (unit != absl::string_view::npos) {
      shift = 10 * static_cast<int>(unit + 1);
      suffix.remove_prefix(1);
    }
    if (absl::EqualsIgnoreCase(suffix, "B")) suffix.remove_prefix(1);  // "512MB", "4096B"
    if (!suffix.empty()) return BadSize(text, "unknown unit; expected K, M, G or T");
  }
  uint64_t value = 0;
  // All digits, so SimpleAtoi fails only on overflow.
  if (!absl::SimpleAtoi(text.substr(0, digits), &value) ||
      value > (std::numeric_limits<uint64_t>::max() >> shift)) {
    return BadSize(text, "does not fit in 64 bits");
  }
  return value << shift;
}

std::string FormatSize(uint64_t bytes) {
  if (bytes == 0) return "0";
  for (int unit = static_cast<int>(kSizeUnits.size()) - 1; unit >= 0; --unit) {
    int shift = 10 * (unit + 1);
    if (bytes % (uint64_t{1} << shift) == 0) {
      return absl::StrCat(bytes >> shift, kSizeUnits.substr(unit, 1));
    }
  }
  return absl::StrCat(bytes);
}

absl::StatusOr<std::vector<int>> ParseCpuList(std::string_view input) {
  absl::string_view text = internal::ToAbsl(input);
  std::bitset<kMaxCpus> cpus;
  // Empty is FormatCpuList({}): no pinning.
  if (!absl::StripAsciiWhitespace(text).empty()) {
    for (absl::string_view item : absl::StrSplit(text, ',')) {
      item = absl::StripAsciiWhitespace(item);
      std::pair<absl::string_view, absl::string_view> range =
          absl::StrSplit(item, absl::MaxSplits('-', 1));
      absl::StatusOr<int> first = ParseCpu(text, range.first);
      if (!first.ok()) return first.status();
      int last = *first;
      if (item.find('-') != absl::string_view::npos) {
        absl::StatusOr<int> end = ParseCpu(text, range.second);
        if (!end.ok()) return end.status();
        last = *end;
      }
      if (last < *first) {
        return BadCpuList(text, absl::StrCat("range ", internal::Quote(item), " is backwards"));
      }
      for (int cpu = *first; cpu <= last; ++cpu) cpus.set(static_cast<size_t>(cpu));
    }
  }
  std::vector<int> out;
  for (int cpu = 0; cpu < kMaxCpus; ++cpu) {
    if (cpus.test(static_cast<size_t>(cpu))) out.push_back(cpu);
  }
  return out;
}

std::string FormatCpuList(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t end = i + 1;  // [i, end) is a run of consecutive CPUs
    while (end < cpus.size() && cpus[end] == cpus[end - 1] + 1) ++end;
    absl::StrAppend(&out, out.empty() ? "" : ",", cpus[i]);
    if (end - i > 1) absl::StrAppend(&out, "-", cpus[end - 1]);
    i = end;
  }
  return out;
}

namespace internal {

std::string FormatConfigDuration(absl::Duration d) {
  if (d == absl::InfiniteDuration() || d == -absl::InfiniteDuration()) {
    return absl::FormatDuration(d);
  }
  if (d % absl::Seconds(1) == absl::ZeroDuration()) {
    return absl::StrCat(absl::ToInt64Seconds(d), "s");
  }
  if (d % absl::Milliseconds(1) == absl::ZeroDuration()) {
    return absl::StrCat(absl::ToInt64Milliseconds(d), "ms");
  }
  return absl::FormatDuration(d);
}

absl::StatusOr<absl::Duration> ParseConfigDuration(absl::string_view text) {
  absl::Duration d;
  if (!absl::ParseDuration(text, &d)) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid duration ", Quote(text), ": expected e.g. 500ms, 1s or 1.5s"));
  }
  return d;
}

}  // namespace internal
}  // namespace shoal::config
