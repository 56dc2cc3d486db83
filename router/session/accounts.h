// Accounts: the MySQL users a router accepts, from the configuration's `users:` section, with
// the password hashes the two authentication plugins check against.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/config/config.h"
#include "router/session/context.h"

namespace shoal::router {

// Decodes the hex hashes of the configuration (validated by the config loader).
absl::StatusOr<Accounts> AccountsFromConfig(const std::vector<config::UserConfig>& users);

// The `users:` entry for `password`, as YAML text (for --hash-password).
std::string FormatUserEntry(absl::string_view name, absl::string_view password);

}  // namespace shoal::router
