// Window specifications and named windows: `OVER (…)`, `OVER w`, `OVER (w …)` and
// `WINDOW w AS (…), …`, as MySQL 8.0 defines them. A window built on a named one inherits its
// partitioning and its order (it may add an order if that has none) and adds its own frame;
// the one it builds on may have no frame. Each specification is kept as where it was written
// (WindowSource) and parsed again for every window built on it, so that every OVER owns its
// expressions.
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

constexpr absl::string_view kUnnamed = "<unnamed window>";

// Whether the token after a specification's `(` names the window it builds on.
bool NamesBase(const Parser& p) {
  const Token& t = p.Peek();
  if (t.kind == TokenKind::kQuotedIdent) return true;
  return t.kind == TokenKind::kIdent && !IsReservedWord(t.text) && !p.PeekKeyword("ROWS");
}

}  // namespace

bool Parser::ParseWindowSpec(bool inherited_descending, std::string* base, WindowSpec* out) {
  if (!Expect(TokenKind::kLParen)) return false;
  if (NamesBase(*this) && !ParseIdentifier(base)) return false;
  if (AcceptKeyword("PARTITION")) {
    if (!ExpectKeyword("BY")) return false;
    do {
      ExprPtr key = ParseExpr();
      if (!key) return false;
      out->partition_by.push_back(std::move(key));
    } while (Accept(TokenKind::kComma));
  }
  if (AcceptKeyword("ORDER") && !(ExpectKeyword("BY") && ParseOrderBy(&out->order_by))) {
    return false;
  }
  if (PeekKeyword("ROWS") || PeekKeyword("RANGE")) {
    WindowFrame& frame = out->frame.emplace();
    frame.rows = AcceptKeyword("ROWS");
    if (!frame.rows) Advance();  // RANGE
    const bool descending =
        out->order_by.empty() ? inherited_descending : out->order_by[0].descending;
    if (AcceptKeyword("BETWEEN")) {
      if (!ParseFrameBound(frame.rows, descending, &frame.start) || !ExpectKeyword("AND") ||
          !ParseFrameBound(frame.rows, descending, &frame.end)) {
        return false;
      }
    } else if (!ParseFrameBound(frame.rows, descending, &frame.start)) {
      return false;
    }
  }
  return Expect(TokenKind::kRParen);
}

bool Parser::ParseWindowSpecAt(const WindowSource& source, bool inherited_descending,
                               std::string* base, WindowSpec* out) {
  const size_t pos = pos_;
  const int params = param_count_;
  pos_ = source.pos;
  param_count_ = source.params;
  const bool ok = ParseWindowSpec(inherited_descending, base, out);
  pos_ = pos;
  param_count_ = params;
  return ok;
}

bool Parser::ParseOver(Expr* fn) {
  if (Peek().kind != TokenKind::kLParen) {
    WindowUse& use = window_uses_.emplace_back();
    use.fn = fn;
    return ParseIdentifier(&use.name);
  }
  const WindowSource source{pos_, param_count_};
  auto spec = std::make_unique<WindowSpec>();
  std::string base;
  if (!ParseWindowSpec(/*inherited_descending=*/false, &base, spec.get())) return false;
  if (base.empty()) {
    fn->window = std::move(spec);
  } else {
    window_uses_.push_back(WindowUse{fn, std::move(base), source});
  }
  return true;
}

bool Parser::ParseWindowClause() {
  do {
    NamedWindow window;
    if (!ParseIdentifier(&window.name) || !ExpectKeyword("AS")) return false;
    window.source = {pos_, param_count_};
    WindowSpec spec;
    if (!ParseWindowSpec(/*inherited_descending=*/false, &window.base, &spec)) return false;
    window.partitioned = !spec.partition_by.empty();
    window.ordered = !spec.order_by.empty();
    window.framed = spec.frame.has_value();
    named_windows_.push_back(std::move(window));
  } while (Accept(TokenKind::kComma));
  return true;
}

bool Parser::NamedWindowSpec(size_t first, size_t index, WindowSpec* out) {
  const NamedWindow& window = named_windows_[index];
  WindowSpec inherited;
  if (!window.base.empty() && !NamedWindowSpec(first, window.base_index, &inherited)) {
    return false;
  }
  const bool descending = !inherited.order_by.empty() && inherited.order_by[0].descending;
  std::string unused;
  if (!ParseWindowSpecAt(window.source, descending, &unused, out)) return false;
  if (!window.base.empty()) {
    out->partition_by = std::move(inherited.partition_by);  // it has none of its own
    if (out->order_by.empty()) out->order_by = std::move(inherited.order_by);
  }
  return true;
}

bool Parser::ResolveWindows(WindowMarks marks) {
  const size_t first = marks.named;
  auto window_error = [this](uint16_t code, std::string message) {
    return FailWith(mysql::SqlError{code, "HY000", std::move(message)});
  };
  // Names compare without case, as MySQL's window names do.
  absl::flat_hash_map<std::string, size_t> by_name;
  auto find = [&](absl::string_view name) -> std::optional<size_t> {
    auto it = by_name.find(absl::AsciiStrToLower(name));
    if (it == by_name.end()) return std::nullopt;
    return it->second;
  };
  auto not_defined = [&](absl::string_view name) {
    return window_error(3579, absl::StrCat("Window name '", name, "' is not defined."));
  };
  // What building `child` (named, or kUnnamed) on window `base` may not do.
  auto check_base = [&](absl::string_view child, bool partitioned, bool ordered,
                        const NamedWindow& base) {
    if (partitioned) {
      return window_error(3581, "A window which depends on another cannot define partitioning.");
    }
    if (base.framed) {
      return window_error(3582, absl::StrCat("Window '", base.name,
                                             "' has a frame definition, so cannot be referenced "
                                             "by another window."));
    }
    if (ordered && base.ordered) {
      return window_error(3583, absl::StrCat("Window '", child, "' cannot inherit '", base.name,
                                             "' since both contain an ORDER BY clause."));
    }
    return true;
  };
  // The WINDOW clause itself, used or not, as MySQL checks it.
  for (size_t i = first; i < named_windows_.size(); ++i) {
    const NamedWindow& window = named_windows_[i];
    if (!by_name.emplace(absl::AsciiStrToLower(window.name), i).second) {
      return window_error(3591, absl::StrCat("Window '", window.name, "' is defined twice."));
    }
  }
  for (size_t i = first; i < named_windows_.size(); ++i) {
    NamedWindow& window = named_windows_[i];
    if (window.base.empty()) continue;
    const std::optional<size_t> base = find(window.base);
    if (!base) return not_defined(window.base);
    window.base_index = *base;
    if (!check_base(window.name, window.partitioned, window.ordered, named_windows_[*base])) {
      return false;
    }
  }
  // Each window's chain of bases, walked once (each window is built by parsing its chain
  // again, so a chain deeper than kMaxChain is refused as too big to parse).
  constexpr int kMaxChain = 64;
  enum class Walk : uint8_t { kNew, kOnPath, kDone };
  std::vector<Walk> walked(named_windows_.size() - first, Walk::kNew);
  std::vector<int> depth(named_windows_.size() - first, 0);
  for (size_t i = first; i < named_windows_.size(); ++i) {
    std::vector<size_t> path;
    size_t at = i;
    while (walked[at - first] == Walk::kNew) {
      walked[at - first] = Walk::kOnPath;
      path.push_back(at);
      if (named_windows_[at].base.empty()) break;
      at = named_windows_[at].base_index;
    }
    // Back on the path only by following a base: the chain goes round.
    if (walked[at - first] == Walk::kOnPath && !named_windows_[at].base.empty()) {
      return window_error(3580, "There is a circularity in the window dependency graph.");
    }
    // Depths from the end of the path: a window without a base is 0, one on a window walked
    // before is one more than that.
    int d = walked[at - first] == Walk::kDone ? depth[at - first] : -1;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      depth[*it - first] = ++d;
      walked[*it - first] = Walk::kDone;
      if (d > kMaxChain) return Exhausted();
    }
  }
  for (size_t u = marks.uses; u < window_uses_.size(); ++u) {
    const WindowUse& use = window_uses_[u];
    const std::optional<size_t> named = find(use.name);
    if (!named) return not_defined(use.name);
    auto spec = std::make_unique<WindowSpec>();
    if (!use.source) {
      if (!NamedWindowSpec(first, *named, spec.get())) return false;
    } else {
      // OVER (name …): its own specification, built on the named window.
      WindowSpec inherited;
      if (!NamedWindowSpec(first, *named, &inherited)) return false;
      const bool descending = !inherited.order_by.empty() && inherited.order_by[0].descending;
      std::string base;
      if (!ParseWindowSpecAt(*use.source, descending, &base, spec.get())) return false;
      if (!check_base(kUnnamed, !spec->partition_by.empty(), !spec->order_by.empty(),
                      named_windows_[*named])) {
        return false;
      }
      spec->partition_by = std::move(inherited.partition_by);
      if (spec->order_by.empty()) spec->order_by = std::move(inherited.order_by);
    }
    use.fn->window = std::move(spec);
  }
  named_windows_.resize(marks.named);
  window_uses_.resize(marks.uses);
  return true;
}

}  // namespace shoal::sql::internal
