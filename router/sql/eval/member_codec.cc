#include "router/sql/eval/member_codec.h"

#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using schema::ColumnDef;

// The 1-based position of the member `text` names, 0 when none does.
uint64_t FindMember(const ColumnDef& column, absl::string_view text) {
  const std::string key = CollationKeyText(std::string(text));
  for (size_t i = 0; i < column.elements.size(); ++i) {
    if (CollationKeyText(column.elements[i]) == key) return i + 1;
  }
  return 0;
}

uint64_t AllMembers(const ColumnDef& column) {
  return column.elements.size() >= 64 ? ~uint64_t{0} : (uint64_t{1} << column.elements.size()) - 1;
}

// Text that names no member, as the number MySQL then reads it as (digits only, no sign).
bool DigitsValue(absl::string_view text, uint64_t* out) {
  if (text.empty() || text.find_first_not_of("0123456789") != absl::string_view::npos) {
    return false;
  }
  return absl::SimpleAtoi(text, out);
}

bool EnumFromText(const ColumnDef& column, absl::string_view text, uint64_t* out) {
  text = text.substr(0, text.find_last_not_of(' ') + 1);
  if (text.find_first_not_of(' ') == absl::string_view::npos) text = "";
  if ((*out = FindMember(column, text)) != 0) return true;
  // MySQL takes '0' (position 0, the '' of invalid values) without complaint.
  return text.size() < 6 && DigitsValue(text, out) && *out <= column.elements.size();
}

bool SetFromText(const ColumnDef& column, absl::string_view text, uint64_t* out) {
  *out = 0;
  if (text.empty()) return true;
  bool unknown = false;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    uint64_t position = FindMember(column, part);
    if (position == 0) {
      unknown = true;
    } else {
      *out |= uint64_t{1} << (position - 1);
    }
  }
  if (!unknown) return true;
  if (*out != 0 || text.size() >= 22) return false;
  return DigitsValue(text, out) && *out <= AllMembers(column);
}

}  // namespace

mysql::Value KnownMembers(const ColumnDef& column, const mysql::Value& value) {
  if (const auto* u = std::get_if<uint64_t>(&value)) {
    return schema::MemberText(column, *u & AllMembers(column));
  }
  if (const auto* i = std::get_if<int64_t>(&value)) {
    return schema::MemberText(column, static_cast<uint64_t>(*i) & AllMembers(column));
  }
  uint64_t bits = 0;
  for (absl::string_view part : absl::StrSplit(ValueText(value), ',')) {
    if (uint64_t position = FindMember(column, part); position != 0) {
      bits |= uint64_t{1} << (position - 1);
    }
  }
  return schema::MemberText(column, bits);
}

std::optional<mysql::SqlError> MemberPosition(const ColumnDef& column, const mysql::Value& value,
                                              int row, int64_t* out) {
  const bool is_enum = column.type == schema::ColumnType::kEnum;
  uint64_t stored = 0;
  bool ok;
  if (const auto* i = std::get_if<int64_t>(&value)) {
    stored = static_cast<uint64_t>(*i);
    ok = *i >= 0 &&
         (is_enum ? *i != 0 && stored <= column.elements.size() : stored <= AllMembers(column));
  } else if (const auto* u = std::get_if<uint64_t>(&value)) {
    stored = *u;
    ok = is_enum ? stored != 0 && stored <= column.elements.size() : stored <= AllMembers(column);
  } else {
    const auto* s = std::get_if<std::string>(&value);
    const std::string text = s != nullptr ? std::string() : ValueText(value);
    absl::string_view view = s != nullptr ? absl::string_view(*s) : absl::string_view(text);
    ok = is_enum ? EnumFromText(column, view, &stored) : SetFromText(column, view, &stored);
  }
  if (!ok) return mysql::errors::DataTruncated(column.name, row);
  *out = static_cast<int64_t>(stored);
  return std::nullopt;
}

}  // namespace shoal::sql::internal
