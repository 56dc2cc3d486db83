// Early-return helpers for absl::Status and absl::StatusOr, so error paths stay one line.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define SHOAL_STATUS_CONCAT_INNER_(a, b) a##b
#define SHOAL_STATUS_CONCAT_(a, b) SHOAL_STATUS_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define SHOAL_RETURN_IF_ERROR(expr)                                 \
  do {                                                              \
    if (absl::Status shoal_status_ = (expr); !shoal_status_.ok()) { \
      return shoal_status_;                                         \
    }                                                               \
  } while (0)

// `SHOAL_ASSIGN_OR_RETURN(auto x, MakeX());` declares x from an absl::StatusOr or returns
// its error from the enclosing function.
#define SHOAL_ASSIGN_OR_RETURN(lhs, expr) \
  SHOAL_ASSIGN_OR_RETURN_IMPL_(SHOAL_STATUS_CONCAT_(shoal_statusor_, __LINE__), lhs, expr)
#define SHOAL_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return std::move(tmp).status();     \
  lhs = std::move(tmp).value()
