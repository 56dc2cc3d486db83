#include "router/sql/exec/window_functions.h"

#include <algorithm>
#include <limits>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/row_pipeline.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

bool IsRanking(const std::string& name) {
  return name == "ROW_NUMBER" || name == "RANK" || name == "DENSE_RANK" || name == "NTILE";
}

bool IsValueFunction(const std::string& name) {
  return name == "LAG" || name == "LEAD" || name == "FIRST_VALUE" || name == "LAST_VALUE" ||
         name == "NTH_VALUE";
}

// PERCENT_RANK and CUME_DIST: a row's place in its partition as a fraction.
bool IsDistribution(const std::string& name) {
  return name == "PERCENT_RANK" || name == "CUME_DIST";
}

// The value FIRST_VALUE, LAST_VALUE or NTH_VALUE takes from the frame rows [first, last) of
// `part` (NULL for an empty frame, or one shorter than NTH_VALUE's N).
Value FrameValue(const std::string& name, const std::vector<WindowRow>& rows,
                 const std::vector<size_t>& part, size_t first, size_t last, int64_t nth) {
  if (first >= last) return Value{};
  if (name == "FIRST_VALUE") return rows[part[first]].args[0];
  if (name == "LAST_VALUE") return rows[part[last - 1]].args[0];
  const size_t at = first + static_cast<size_t>(nth) - 1;
  return at < last ? rows[part[at]].args[0] : Value{};
}

bool IsWindowAggregate(const std::string& name) {
  return name == "COUNT" || name == "SUM" || name == "AVG" || name == "MIN" || name == "MAX";
}

// The partitions of `rows`, each its rows' positions in window order.
std::vector<std::vector<size_t>> Partitions(const Expr& call, const std::vector<WindowRow>& rows,
                                            const WindowCollations& collations) {
  std::vector<std::vector<size_t>> parts;
  absl::flat_hash_map<std::string, size_t> by_key;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string key;
    for (size_t k = 0; k < rows[i].partition.size(); ++k) {
      const Value& v = rows[i].partition[k];
      std::string text = CollationKeyText(v, collations.partition[k]);
      absl::StrAppend(&key, v.index(), ":", text.size(), ":", text, ";");
    }
    auto [it, inserted] = by_key.try_emplace(std::move(key), parts.size());
    if (inserted) parts.emplace_back();
    parts[it->second].push_back(i);
  }
  const std::vector<OrderItem>& order = call.window->order_by;
  for (std::vector<size_t>& part : parts) {
    std::stable_sort(part.begin(), part.end(), [&](size_t a, size_t b) {
      for (size_t k = 0; k < order.size(); ++k) {
        int c = CompareValues(rows[a].order[k], rows[b].order[k], collations.order[k]);
        if (c != 0) return order[k].descending ? c > 0 : c < 0;
      }
      return false;
    });
  }
  return parts;
}

bool Peers(const WindowRow& a, const WindowRow& b, const WindowCollations& collations) {
  for (size_t k = 0; k < a.order.size(); ++k) {
    if (CompareValues(a.order[k], b.order[k], collations.order[k]) != 0) return false;
  }
  return true;
}

// The rows [*first, *last) of a partition of `n` rows in window order that `frame` gives the
// row at `p`; `peers_begin`/`peers_end` bound the row's peers (RANGE's CURRENT ROW).
void FrameOf(const WindowFrame& frame, size_t p, size_t n, size_t peers_begin, size_t peers_end,
             size_t* first, size_t* last) {
  using Kind = FrameBound::Kind;
  auto at = [&](const FrameBound& b, bool is_start) -> int64_t {
    const int64_t row = static_cast<int64_t>(p);
    const int64_t offset = static_cast<int64_t>(std::min<uint64_t>(b.offset, n));
    switch (b.kind) {
      case Kind::kUnboundedPreceding:
        return 0;
      case Kind::kPreceding:
        return row - offset + (is_start ? 0 : 1);
      case Kind::kCurrentRow:
        if (!frame.rows) return static_cast<int64_t>(is_start ? peers_begin : peers_end);
        return row + (is_start ? 0 : 1);
      case Kind::kFollowing:
        return row + offset + (is_start ? 0 : 1);
      case Kind::kUnboundedFollowing:
        return static_cast<int64_t>(n);
    }
    return 0;
  };
  const int64_t lo = std::clamp<int64_t>(at(frame.start, true), 0, static_cast<int64_t>(n));
  const int64_t hi = std::clamp<int64_t>(at(frame.end, false), 0, static_cast<int64_t>(n));
  *first = static_cast<size_t>(lo);
  *last = static_cast<size_t>(std::max(lo, hi));
}

// Where a RANGE bound that has a value (FrameBound::value) falls in `part`, which is in the
// window's order of its one ORDER BY value: for a frame's start the first row not before
// `reach` in that order, for its end the first row past it. A NULL reach — the current row's
// value is NULL — reaches the row's peers, the other NULLs, as in MySQL.
size_t RangeReach(const std::vector<WindowRow>& rows, const std::vector<size_t>& part,
                  const Value& reach, bool is_start, bool descending, uint16_t collation,
                  size_t peers_begin, size_t peers_end) {
  if (mysql::IsNull(reach)) return is_start ? peers_begin : peers_end;
  // Whether the row at `i` comes before the bound: true for a prefix of the partition (NULLs,
  // first in an ascending order and last in a descending one, fall on the right side).
  auto before = [&](size_t i) {
    int c = CompareValues(rows[part[i]].order[0], reach, collation);
    if (descending) c = -c;
    return is_start ? c < 0 : c <= 0;
  };
  size_t lo = 0, hi = part.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (before(mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The values of aggregate or value function `call` (typed `type`) over an explicit `frame`,
// for the rows of partition `part` (in window order), into `out` by row. Each row's frame is
// summed afresh — frames are a few rows wide — unless it grows from where the last one began
// (from the partition's start), where the sum carries on.
void OverFrame(const Expr& call, const WindowFrame& frame, const ColumnDefinition& type,
               const std::vector<WindowRow>& rows, const WindowCollations& collations,
               const std::vector<size_t>& part, int64_t nth, SessionState* state,
               std::vector<Value>* out) {
  const size_t n = part.size();
  const bool ordered = !call.window->order_by.empty();
  std::optional<Accumulator> acc;
  size_t summed_first = 0, summed_last = 0;
  size_t peers_begin = 0, peers_end = 0;
  for (size_t p = 0; p < n; ++p) {
    if (p >= peers_end) {
      peers_begin = p;
      peers_end = p + 1;
      while (peers_end < n &&
             (!ordered || Peers(rows[part[p]], rows[part[peers_end]], collations))) {
        ++peers_end;
      }
    }
    size_t first = 0, last = 0;
    FrameOf(frame, p, n, peers_begin, peers_end, &first, &last);
    if (!frame.rows && (frame.start.value || frame.end.value)) {
      const WindowRow& row = rows[part[p]];
      const bool descending = call.window->order_by[0].descending;
      const uint16_t collation = collations.order[0];
      if (frame.start.value) {
        first = RangeReach(rows, part, row.range_start, true, descending, collation, peers_begin,
                           peers_end);
      }
      if (frame.end.value) {
        last = RangeReach(rows, part, row.range_end, false, descending, collation, peers_begin,
                          peers_end);
      }
      last = std::max(first, last);
    }
    Value v;
    if (IsValueFunction(call.name)) {
      v = FrameValue(call.name, rows, part, first, last, nth);
    } else {
      if (!acc || first != summed_first || last < summed_last) {
        acc.emplace();
        summed_first = summed_last = first;
      }
      for (; summed_last < last; ++summed_last) {
        const WindowRow& row = rows[part[summed_last]];
        acc->Add(call, row.args.empty() ? std::vector<Value>{int64_t{1}} : row.args, {},
                 collations.args);
      }
      v = acc->Result(call, type, 1, state);
    }
    (*out)[part[p]] = std::move(v);
  }
}

// An integer argument of the current row (LAG's offset, NTILE's buckets): nullopt if NULL or
// negative.
std::optional<int64_t> Count(const WindowRow& row, size_t arg, int64_t absent) {
  if (row.args.size() <= arg) return absent;
  const Value& v = row.args[arg];
  bool truncated = false;
  if (mysql::IsNull(v)) return std::nullopt;
  double d = ToDouble(v, &truncated);
  if (!(d >= 0)) return std::nullopt;                           // negative, or NaN
  if (d >= 9.2e18) return std::numeric_limits<int64_t>::max();  // beyond any partition
  return static_cast<int64_t>(d);
}

}  // namespace

void CollectWindowCalls(const Expr& e, std::vector<const Expr*>* out) {
  if (IsWindowCall(e)) {
    out->push_back(&e);
    return;
  }
  for (const ExprPtr& a : e.args) CollectWindowCalls(*a, out);
}

std::variant<ColumnDefinition, mysql::SqlError> WindowCallType(const Expr& call,
                                                               const ColumnDefinition& arg,
                                                               const SessionState& state) {
  if (const std::optional<WindowFrame>& frame = call.window->frame) {
    using Kind = FrameBound::Kind;
    if (frame->start.kind == Kind::kUnboundedFollowing) {
      return mysql::SqlError{3584, "HY000",
                             "Window '<unnamed window>': frame start cannot be UNBOUNDED "
                             "FOLLOWING."};
    }
    if (frame->end.kind == Kind::kUnboundedPreceding) {
      return mysql::SqlError{3585, "HY000",
                             "Window '<unnamed window>': frame end cannot be UNBOUNDED "
                             "PRECEDING."};
    }
  }
  if (IsRanking(call.name)) return IntColumn(21, false, Nullability::kNotNull);
  if (IsDistribution(call.name)) return DoubleColumn(Nullability::kNotNull);
  if (IsValueFunction(call.name)) {
    if (call.args.empty()) return mysql::errors::ParseError(")", 1);
    if (call.name == "NTH_VALUE" && call.args.size() != 2) {
      return mysql::SqlError{1582, "42000",
                             "Incorrect parameter count in the call to native function "
                             "'NTH_VALUE'"};
    }
    ColumnDefinition c = arg;
    c.flags &= ~mysql::column_flag::kNotNull;
    return c;
  }
  if (IsWindowAggregate(call.name)) {
    if (call.distinct) return mysql::errors::NotSupportedYet("DISTINCT in a window function");
    return AggregateType(call, arg, state);
  }
  return mysql::errors::NotSupportedYet(absl::StrCat("window function ", call.name));
}

std::variant<std::vector<Value>, mysql::SqlError> ComputeWindowCall(
    const Expr& call, const ColumnDefinition& type, const std::vector<WindowRow>& rows,
    const WindowCollations& collations, SessionState* state) {
  std::vector<Value> out(rows.size());
  const bool ordered = !call.window->order_by.empty();
  const std::string& name = call.name;
  for (const std::vector<size_t>& part : Partitions(call, rows, collations)) {
    const size_t n = part.size();
    if (IsRanking(name)) {
      int64_t rank = 0, dense = 0;
      std::optional<int64_t> buckets = name == "NTILE" ? Count(rows[part[0]], 0, 1) : 1;
      if (!buckets || *buckets == 0) {
        return mysql::SqlError{1210, "HY000", "Incorrect arguments to ntile"};
      }
      for (size_t p = 0; p < n; ++p) {
        bool new_peer = p == 0 || !Peers(rows[part[p - 1]], rows[part[p]], collations);
        if (new_peer) {
          rank = static_cast<int64_t>(p) + 1;
          ++dense;
        }
        int64_t v = static_cast<int64_t>(p) + 1;
        if (name == "RANK") v = rank;
        if (name == "DENSE_RANK") v = dense;
        if (name == "NTILE") {
          // The first n % buckets buckets take one row more.
          int64_t size = static_cast<int64_t>(n) / *buckets;
          int64_t extra = static_cast<int64_t>(n) % *buckets;
          int64_t pos = static_cast<int64_t>(p);
          v = pos < extra * (size + 1)
                  ? pos / (size + 1) + 1
                  : extra + (pos - extra * (size + 1)) / std::max<int64_t>(size, 1) + 1;
        }
        out[part[p]] = v;
      }
      continue;
    }
    if (IsDistribution(name)) {
      // PERCENT_RANK: (rank - 1) / (rows - 1); CUME_DIST: rows up to the last peer / rows.
      size_t start = 0;
      while (start < n) {
        size_t end = start + 1;
        while (end < n && ordered && Peers(rows[part[start]], rows[part[end]], collations)) ++end;
        if (!ordered) end = n;
        const double v = name == "CUME_DIST" ? static_cast<double>(end) / static_cast<double>(n)
                         : n > 1 ? static_cast<double>(start) / static_cast<double>(n - 1)
                                 : 0.0;
        for (size_t p = start; p < end; ++p) out[part[p]] = v;
        start = end;
      }
      continue;
    }
    int64_t nth = 1;
    if (name == "NTH_VALUE") {
      std::optional<int64_t> given = Count(rows[part[0]], 1, 1);
      if (!given || *given == 0) {
        return mysql::SqlError{1210, "HY000", "Incorrect arguments to nth_value"};
      }
      nth = *given;
    }
    if (name == "LAG" || name == "LEAD") {
      for (size_t p = 0; p < n; ++p) {
        const WindowRow& row = rows[part[p]];
        std::optional<int64_t> offset = Count(row, 1, 1);
        if (!offset)
          return mysql::SqlError{1210, "HY000", absl::StrCat("Incorrect arguments to ", name)};
        int64_t at = static_cast<int64_t>(p) + (name == "LAG" ? -*offset : *offset);
        if (at >= 0 && at < static_cast<int64_t>(n)) {
          out[part[p]] = rows[part[at]].args[0];
        } else {
          out[part[p]] = row.args.size() > 2 ? row.args[2] : Value{};
        }
      }
      continue;
    }
    if (const std::optional<WindowFrame>& frame = call.window->frame) {
      OverFrame(call, *frame, type, rows, collations, part, nth, state, &out);
      continue;
    }
    // FIRST_VALUE, LAST_VALUE and aggregates over the default frame: the peers group by group
    // when ordered, the whole partition at once when not.
    Accumulator acc;
    size_t start = 0;
    while (start < n) {
      size_t end = start + 1;
      while (end < n && (!ordered || Peers(rows[part[start]], rows[part[end]], collations))) {
        ++end;
      }
      if (!ordered) end = n;
      Value v;
      if (IsValueFunction(name)) {
        v = FrameValue(name, rows, part, 0, end, nth);
      } else {
        for (size_t p = start; p < end; ++p) {
          const WindowRow& row = rows[part[p]];
          acc.Add(call, row.args.empty() ? std::vector<Value>{int64_t{1}} : row.args, {},
                  collations.args);
        }
        v = acc.Result(call, type, 1, state);
      }
      for (size_t p = start; p < end; ++p) out[part[p]] = v;
      start = end;
    }
  }
  return out;
}

}  // namespace shoal::sql::internal
