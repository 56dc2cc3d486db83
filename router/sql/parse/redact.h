// Passwords out of statement texts that others see (SHOW PROCESSLIST, logs): the string after
// IDENTIFIED … BY or AS, SET PASSWORD's value and PASSWORD('…') become <secret>, as MySQL
// rewrites them.
#pragma once

#include <string>

#include "absl/strings/string_view.h"

namespace shoal::sql {

// Whether `sql` may name a password (a quick look, without lexing).
bool MayHoldSecrets(absl::string_view sql);
// `sql` with its secrets replaced; `sql` unchanged when it has none.
std::string RedactSecrets(absl::string_view sql);

}  // namespace shoal::sql
