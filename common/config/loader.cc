// Loading a cluster configuration: YAML text → ClusterConfig. Each field is read and
// range-checked here in document order, and its line recorded; validate.cc then checks how the
// fields fit together. yaml-cpp reports errors by throwing; ReadYaml is the one place that
// catches, so nothing thrown escapes this file.
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "common/config/config.h"
#include "common/config/internal.h"
#include "common/status_macros.h"

namespace shoal::config {
namespace {

using internal::ConfigError;
using internal::Quote;
using internal::SourceLines;

// Far larger than any real configuration; bounds the time and memory hostile input can cost.
constexpr size_t kMaxDocumentBytes = size_t{1} << 20;
constexpr int kMaxPort = 65535;
constexpr int kMaxThreads = 256;
constexpr int kMaxConnections = 100000;
constexpr int kMaxMissedHeartbeats = 1000;
// Intervals finer than a millisecond are below what the heartbeat and epoch timers can honour;
// coarser than an hour would stall failure detection and checkpoints for too long.
constexpr absl::Duration kMinInterval = absl::Milliseconds(1);
constexpr absl::Duration kMaxInterval = absl::Hours(1);
// Spinning longer than this only burns CPU: a sleeping reader wakes in microseconds.
constexpr absl::Duration kMaxSpin = absl::Milliseconds(10);

// What one key of a section holds and where to store it.
struct IntField {
  int* out;
  int min;
  int max;
};
struct SizeField {
  uint64_t* out;
  uint64_t min = 1;
};
struct DurationField {
  absl::Duration* out;
  absl::Duration min = kMinInterval;
  absl::Duration max = kMaxInterval;
  absl::Duration unit = kMinInterval;  // values are whole multiples of this
};
struct TextField {
  std::string* out;
};
struct CpusField {
  std::vector<int>* out;
};
struct BoolField {
  bool* out;
};
struct Field {
  absl::string_view key;
  std::variant<IntField, SizeField, DurationField, TextField, CpusField, BoolField> target;
};

std::vector<Field> ClusterFields(ClusterDefaults* c) {
  return {{"replicas", IntField{&c->replicas, 1, 4}},
          {"data_memory", SizeField{&c->data_memory}},
          {"heartbeat_interval", DurationField{&c->heartbeat_interval}},
          {"router_heartbeat_interval", DurationField{&c->router_heartbeat_interval}},
          {"missed_heartbeats", IntField{&c->missed_heartbeats, 1, kMaxMissedHeartbeats}},
          {"arbitration_timeout", DurationField{&c->arbitration_timeout}},
          {"realtime_scheduler", BoolField{&c->realtime_scheduler}},
          {"epoch_interval", DurationField{&c->epoch_interval}},
          {"start_partial_timeout", DurationField{&c->start_partial_timeout}},
          {"lock_wait_timeout", DurationField{&c->lock_wait_timeout}},
          {"lock_pages_in_memory", BoolField{&c->lock_pages_in_memory}},
          // Below these a checkpoint would start again at once, or never end.
          {"checkpoint_after_redo", SizeField{&c->checkpoint_after_redo, kMiB}},
          {"checkpoint_write_rate", SizeField{&c->checkpoint_write_rate, kMiB}},
          {"tls", TextField{&c->tls}}};
}

std::vector<Field> MgmdFields(MgmdConfig* m) {
  return {{"id", IntField{&m->id, 1, kMaxNodeId}},
          {"host", TextField{&m->host}},
          {"port", IntField{&m->port, 0, kMaxPort}},
          {"data_dir", TextField{&m->data_dir}},
          {"metrics_port", IntField{&m->metrics_port, 0, kMaxPort}}};
}

std::vector<Field> DataNodeFields(DataNodeConfig* d) {
  return {{"id", IntField{&d->id, 1, kMaxNodeId}},
          {"host", TextField{&d->host}},
          {"data_dir", TextField{&d->data_dir}},
          {"backup_dir", TextField{&d->backup_dir}},
          {"cpus", CpusField{&d->cpus}},
          {"metrics_port", IntField{&d->metrics_port, 0, kMaxPort}},
          {"socket", TextField{&d->socket}},
          {"port", IntField{&d->port, 0, kMaxPort}},
          {"threads", IntField{&d->threads, 0, kMaxThreads}},
          {"spin", DurationField{&d->spin, absl::ZeroDuration(), kMaxSpin, absl::Microseconds(1)}}};
}

std::vector<Field> RouterFields(RouterConfig* r) {
  return {{"id", IntField{&r->id, 1, kMaxNodeId}},
          {"host", TextField{&r->host}},
          {"socket", TextField{&r->socket}},
          {"port", IntField{&r->port, 0, kMaxPort}},
          {"threads", IntField{&r->threads, 0, kMaxThreads}},
          {"cpus", CpusField{&r->cpus}},
          {"metrics_port", IntField{&r->metrics_port, 0, kMaxPort}},
          {"max_connections", IntField{&r->max_connections, 1, kMaxConnections}},
          {"spin", DurationField{&r->spin, absl::ZeroDuration(), kMaxSpin, absl::Microseconds(1)}},
          {"local_infile", BoolField{&r->local_infile}},
          {"load_data_batch_rows", IntField{&r->load_data_batch_rows, 1, 100000}},
          {"load_data_batches_in_flight", IntField{&r->load_data_batches_in_flight, 1, 64}},
          {"ssl", BoolField{&r->ssl}},
          {"ssl_dir", TextField{&r->ssl_dir}},
          {"ssl_ca", TextField{&r->ssl_ca}},
          {"ssl_cert", TextField{&r->ssl_cert}},
          {"ssl_key", TextField{&r->ssl_key}},
          {"require_secure_transport", BoolField{&r->require_secure_transport}}};
}

std::vector<Field> UserFields(UserConfig* u) {
  return {{"name", TextField{&u->name}},
          {"native_hash", TextField{&u->native_hash}},
          {"sha256_hash", TextField{&u->sha256_hash}}};
}

// yaml-cpp lines are 0-based, and -1 on nodes it made up (an empty document).
int LineOf(const YAML::Mark& mark) { return mark.line < 0 ? 1 : mark.line + 1; }
int LineOf(const YAML::Node& node) { return LineOf(node.Mark()); }

std::string Describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      return Quote(node.Scalar());
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    default:
      return "nothing";
  }
}

std::string JoinPath(absl::string_view path, absl::string_view key) {
  return path.empty() ? std::string(key) : absl::StrCat(path, ".", key);
}

// A decimal integer, optionally negative; no '+', spaces or YAML's 0x/0o forms. Values past
// int64 saturate, which every range check then rejects.
bool ParseDecimal(absl::string_view text, int64_t* out) {
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (text.empty()) return false;
  uint64_t value = 0;
  constexpr uint64_t kLimit = std::numeric_limits<int64_t>::max();
  for (char ch : text) {
    if (ch < '0' || ch > '9') return false;
    value = value > (kLimit - (ch - '0')) / 10 ? kLimit : value * 10 + (ch - '0');
  }
  *out = negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
  return true;
}

// Reads one document into a ClusterConfig, recording each field's line in `lines`. Borrows
// `source` and `lines` for its lifetime. May throw YAML::Exception (the caller catches).
class Reader {
 public:
  Reader(absl::string_view source, SourceLines* lines) : source_(source), lines_(lines) {}

  absl::Status ReadDocument(const YAML::Node& root, ClusterConfig* config) {
    if (!root.IsMap() && !root.IsNull()) {
      return Error(root, "document",
                   absl::StrCat("expected a map of sections, got ", Describe(root)));
    }
    static constexpr absl::string_view kSections[] = {"cluster", "mgmd", "datanodes", "routers",
                                                      "users"};
    return ForEachKey(root, "", kSections, "section",
                      [&](absl::string_view key, const YAML::Node& value, const std::string& path) {
                        return ReadSection(key, value, path, config);
                      });
  }

 private:
  using KeyReader =
      absl::FunctionRef<absl::Status(absl::string_view, const YAML::Node&, const std::string&)>;

  absl::Status Error(const YAML::Node& node, absl::string_view path, absl::string_view message) {
    return ConfigError(source_, LineOf(node), path, message);
  }

  // Calls `read` for each key of the map `node` in document order, with the key's field path.
  // A null node counts as an empty map. Rejects keys that are not strings, not in `allowed` or
  // repeated (yaml-cpp keeps both copies of a repeated key; silently taking one would hide a
  // typo).
  absl::Status ForEachKey(const YAML::Node& node, const std::string& path,
                          absl::Span<const absl::string_view> allowed, absl::string_view what,
                          KeyReader read) {
    if (node.IsNull()) return absl::OkStatus();
    if (!node.IsMap()) {
      return Error(node, path, absl::StrCat("expected a map, got ", Describe(node)));
    }
    std::vector<std::pair<absl::string_view, int>> seen;  // allowed key → line
    for (auto it = node.begin(); it != node.end(); ++it) {
      // Copies: yaml-cpp's iterator hands out a proxy that dies with the full expression.
      YAML::Node key_node = it->first;
      YAML::Node value = it->second;
      if (!key_node.IsScalar()) {
        return Error(key_node, path.empty() ? "document" : path,
                     absl::StrCat("expected a ", what, " name, got ", Describe(key_node)));
      }
      const std::string& key = key_node.Scalar();
      auto known = std::find(allowed.begin(), allowed.end(), key);
      if (known == allowed.end()) {
        return Error(key_node, JoinPath(path, internal::Truncate(key)),
                     absl::StrCat("unknown ", what, " ", Quote(key),
                                  "; expected one of: ", absl::StrJoin(allowed, ", ")));
      }
      std::string key_path = JoinPath(path, key);
      for (const auto& [seen_key, seen_line] : seen) {
        if (seen_key == key) {
          return Error(key_node, key_path,
                       absl::StrCat("duplicate ", what, " (first at line ", seen_line, ")"));
        }
      }
      seen.emplace_back(*known, LineOf(key_node));
      lines_->Set(key_path, LineOf(key_node));
      SHOAL_RETURN_IF_ERROR(read(key, value, key_path));
    }
    return absl::OkStatus();
  }

  absl::Status ReadSection(absl::string_view key, const YAML::Node& value, const std::string& path,
                           ClusterConfig* config) {
    if (key == "cluster") return ReadFields(value, path, ClusterFields(&config->cluster));
    if (key == "mgmd") return ReadFields(value, path, MgmdFields(&config->mgmd));
    if (key == "datanodes") return ReadList(value, path, DataNodeFields, &config->datanodes);
    if (key == "routers") return ReadList(value, path, RouterFields, &config->routers);
    return ReadList(value, path, UserFields, &config->users);
  }

  absl::Status ReadFields(const YAML::Node& node, const std::string& path,
                          const std::vector<Field>& fields) {
    std::vector<absl::string_view> keys;
    for (const Field& field : fields) keys.push_back(field.key);
    return ForEachKey(
        node, path, keys, "key",
        [&](absl::string_view key, const YAML::Node& value, const std::string& field_path) {
          for (const Field& field : fields) {
            if (field.key == key) return ReadValue(value, field_path, field);
          }
          return absl::OkStatus();  // Unreachable: ForEachKey passes only allowed keys.
        });
  }

  template <typename T>
  absl::Status ReadList(const YAML::Node& node, const std::string& path,
                        std::vector<Field> (*fields)(T*), std::vector<T>* out) {
    if (node.IsNull()) return absl::OkStatus();
    if (!node.IsSequence()) {
      return Error(node, path, absl::StrCat("expected a list, got ", Describe(node)));
    }
    for (const YAML::Node& item : node) {
      std::string item_path = absl::StrCat(path, "[", out->size(), "]");
      lines_->Set(item_path, LineOf(item));
      SHOAL_RETURN_IF_ERROR(ReadFields(item, item_path, fields(&out->emplace_back())));
    }
    return absl::OkStatus();
  }

  absl::Status ReadValue(const YAML::Node& value, const std::string& path, const Field& field) {
    // A missing value has no position of its own (yaml-cpp gives the next token's): use the
    // key's.
    if (value.IsNull()) return ConfigError(source_, lines_->Get(path), path, "missing value");
    if (!value.IsScalar()) {
      return Error(value, path, absl::StrCat("expected a single value, got ", Describe(value)));
    }
    const std::string& text = value.Scalar();
    if (std::string bad = internal::CheckFieldText(text); !bad.empty()) {
      return Error(value, path, bad);
    }
    absl::Status status =
        std::visit([&](const auto& target) { return Store(text, target); }, field.target);
    if (!status.ok()) return Error(value, path, status.message());
    return absl::OkStatus();
  }

  // Each Store parses `text` into its target, or says what is wrong (without location).
  static absl::Status Store(const std::string& text, const IntField& field) {
    int64_t value;
    if (!ParseDecimal(text, &value)) {
      return absl::InvalidArgumentError(absl::StrCat("expected an integer, got ", Quote(text)));
    }
    if (value < field.min || value > field.max) {
      return absl::InvalidArgumentError(
          absl::StrCat("must be between ", field.min, " and ", field.max, ", got ", Quote(text)));
    }
    *field.out = static_cast<int>(value);
    return absl::OkStatus();
  }

  static absl::Status Store(const std::string& text, const SizeField& field) {
    SHOAL_ASSIGN_OR_RETURN(uint64_t bytes, ParseSize(text));
    if (bytes == 0) return absl::InvalidArgumentError("must be greater than 0");
    if (bytes < field.min) {
      return absl::InvalidArgumentError(
          absl::StrCat("must be at least ", FormatSize(field.min), ", got ", Quote(text)));
    }
    *field.out = bytes;
    return absl::OkStatus();
  }

  static absl::Status Store(const std::string& text, const DurationField& field) {
    SHOAL_ASSIGN_OR_RETURN(absl::Duration d, internal::ParseConfigDuration(text));
    if (d <= absl::ZeroDuration() && field.min > absl::ZeroDuration()) {
      return absl::InvalidArgumentError(absl::StrCat("must be positive, got ", Quote(text)));
    }
    if (d < field.min || d > field.max || d % field.unit != absl::ZeroDuration()) {
      return absl::InvalidArgumentError(
          absl::StrCat("must be a whole number of ",
                       field.unit == absl::Milliseconds(1) ? "milliseconds" : "microseconds",
                       " from ", internal::FormatConfigDuration(field.min), " to ",
                       internal::FormatConfigDuration(field.max), ", got ", Quote(text)));
    }
    *field.out = d;
    return absl::OkStatus();
  }

  static absl::Status Store(const std::string& text, const TextField& field) {
    *field.out = text;
    return absl::OkStatus();
  }

  static absl::Status Store(const std::string& text, const CpusField& field) {
    SHOAL_ASSIGN_OR_RETURN(*field.out, ParseCpuList(text));
    return absl::OkStatus();
  }

  // YAML's spellings of a boolean, lower case.
  static absl::Status Store(const std::string& text, const BoolField& field) {
    if (text == "true" || text == "yes" || text == "on") {
      *field.out = true;
    } else if (text == "false" || text == "no" || text == "off") {
      *field.out = false;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("expected true or false, got ", Quote(text)));
    }
    return absl::OkStatus();
  }

  absl::string_view source_;
  SourceLines* lines_;
};

// Counts the documents of a stream, remembering where the first two start.
class DocumentCounter : public YAML::EventHandler {
 public:
  int documents() const { return documents_; }
  const YAML::Mark& first_start() const { return first_start_; }
  const YAML::Mark& second_start() const { return second_start_; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    (++documents_ == 1 ? first_start_ : second_start_) = mark;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  int documents_ = 0;
  YAML::Mark first_start_;
  YAML::Mark second_start_;
};

absl::Status ReadYaml(absl::string_view yaml, absl::string_view source, ClusterConfig* config,
                      SourceLines* lines) {
  try {
    // A second document is most likely a mistake, so look for one, but not with YAML::LoadAll:
    // in yaml-cpp 0.7 it loops forever, allocating, on a stream that starts with ','
    // (jbeder/yaml-cpp#1040). Two calls are enough to tell, and bound that loop.
    std::istringstream stream{std::string(yaml)};
    YAML::Parser parser(stream);
    DocumentCounter counter;
    while (counter.documents() < 2 && parser.HandleNextDocument(counter)) {
    }
    if (counter.documents() > 1 && counter.second_start().pos == counter.first_start().pos) {
      // The parser started a document and read nothing: the bug above.
      return ConfigError(source, LineOf(counter.first_start()), "yaml", "unexpected token");
    }
    if (counter.documents() > 1) {
      return ConfigError(source, LineOf(counter.second_start()), "document",
                         "expected one YAML document, found more");
    }
    // The first pass checked the syntax; this one builds the tree.
    YAML::Node root = YAML::Load(std::string(yaml));
    return Reader(source, lines).ReadDocument(root, config);
  } catch (const YAML::DeepRecursion& e) {
    return ConfigError(source, LineOf(e.mark), "document",
                       absl::StrCat("nested too deeply (", e.depth(), " levels)"));
  } catch (const YAML::Exception& e) {
    return ConfigError(source, LineOf(e.mark), "yaml", e.msg);
  } catch (const std::exception& e) {
    return ConfigError(source, 1, "document", absl::StrCat("cannot load: ", e.what()));
  }
}

}  // namespace

absl::StatusOr<ClusterConfig> LoadConfigString(std::string_view yaml_in,
                                               std::string_view source_in) {
  absl::string_view yaml = internal::ToAbsl(yaml_in);
  absl::string_view source = internal::ToAbsl(source_in);
  if (yaml.size() > kMaxDocumentBytes) {
    return ConfigError(source, 1, "document",
                       absl::StrCat("larger than 1 MiB (", yaml.size(), " bytes)"));
  }
  // yaml-cpp passes malformed UTF-8 through to scalars, and its emitter then rewrites it, so
  // such text could never round-trip; YAML does not allow it anyway.
  int bad_line = 1;
  if (std::string bad = internal::CheckDocumentText(yaml, &bad_line); !bad.empty()) {
    return ConfigError(source, bad_line, "document", bad);
  }
  ClusterConfig config;
  config.source = std::string(source);
  SourceLines lines;
  SHOAL_RETURN_IF_ERROR(ReadYaml(yaml, source, &config, &lines));
  SHOAL_RETURN_IF_ERROR(internal::Validate(config, lines));
  for (size_t i = 0; i < config.datanodes.size(); ++i) {
    config.datanodes[i].node_group = static_cast<int>(i) / config.cluster.replicas;
  }
  return config;
}

absl::StatusOr<ClusterConfig> LoadConfigFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  // Read one byte past the limit so LoadConfigString sees an oversized file as such.
  std::string text(kMaxDocumentBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": cannot read: ", std::strerror(errno)));
  }
  text.resize(static_cast<size_t>(in.gcount()));
  return LoadConfigString(std::string_view(text), std::string_view(path));
}

}  // namespace shoal::config
