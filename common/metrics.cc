#include "common/metrics.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "common/logging.h"

namespace shoal {
namespace {

// Label values may hold anything; Prometheus wants \, " and newline escaped.
std::string EscapeLabelValue(absl::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

void AppendSeriesName(absl::string_view name, const MetricLabels& labels, std::string* out) {
  absl::StrAppend(out, name);
  if (labels.empty()) return;
  out->push_back('{');
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) out->push_back(',');
    absl::StrAppend(out, labels[i].first, "=\"", EscapeLabelValue(labels[i].second), "\"");
  }
  out->push_back('}');
}

}  // namespace

Counter* MetricsRegistry::GetCounter(absl::string_view name, absl::string_view help,
                                     MetricLabels labels) {
  std::lock_guard<std::mutex> lock(mu_);
  return FindOrAdd(name, help, Kind::kCounter, std::move(labels))->counter.get();
}

Gauge* MetricsRegistry::GetGauge(absl::string_view name, absl::string_view help,
                                 MetricLabels labels) {
  std::lock_guard<std::mutex> lock(mu_);
  return FindOrAdd(name, help, Kind::kGauge, std::move(labels))->gauge.get();
}

MetricsRegistry::Series* MetricsRegistry::FindOrAdd(absl::string_view name, absl::string_view help,
                                                    Kind kind, MetricLabels labels) {
  auto [it, inserted] = families_.try_emplace(std::string(name));
  Family& family = it->second;
  if (inserted) {
    family.kind = kind;
    family.help = std::string(help);
  }
  SHOAL_CHECK(family.kind == kind) << "metric " << name << " registered with two kinds";
  for (Series& series : family.series) {
    if (series.labels == labels) return &series;
  }
  Series& series = family.series.emplace_back();
  series.labels = std::move(labels);
  if (kind == Kind::kCounter) {
    series.counter = std::make_unique<Counter>();
  } else {
    series.gauge = std::make_unique<Gauge>();
  }
  return &series;
}

std::string MetricsRegistry::RenderPrometheus() const {
  std::string out;
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [name, family] : families_) {
    absl::StrAppend(&out, "# HELP ", name, " ", family.help, "\n# TYPE ", name, " ",
                    family.kind == Kind::kCounter ? "counter" : "gauge", "\n");
    for (const Series& series : family.series) {
      AppendSeriesName(name, series.labels, &out);
      int64_t value = series.counter ? series.counter->value() : series.gauge->value();
      absl::StrAppend(&out, " ", value, "\n");
    }
  }
  return out;
}

}  // namespace shoal
