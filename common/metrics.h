// Metrics: counters and gauges that hot paths update with one relaxed atomic, rendered as
// Prometheus text (exposition format 0.0.4) when scraped.
//
// A process creates one MetricsRegistry in main() and passes it to whoever needs it.
// Registration takes a lock (startup and rare events); updates and rendering are thread-safe.
// Metrics live as long as the registry; the pointers it returns stay valid until then.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_map.h"
#include "absl/strings/string_view.h"

namespace shoal {

// label name → value, e.g. {{"type", "datanode"}, {"state", "started"}}.
using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class Counter {
 public:
  void Increment(int64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

class Gauge {
 public:
  void Set(int64_t v) { value_.store(v, std::memory_order_relaxed); }
  void Add(int64_t n) { value_.fetch_add(n, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

class MetricsRegistry {
 public:
  // Returns the metric with this name and labels, creating it on first use. A name is one
  // family: the same name must always be used with the same kind and help text.
  Counter* GetCounter(absl::string_view name, absl::string_view help, MetricLabels labels = {});
  Gauge* GetGauge(absl::string_view name, absl::string_view help, MetricLabels labels = {});

  std::string RenderPrometheus() const;

 private:
  enum class Kind { kCounter, kGauge };
  struct Series {
    MetricLabels labels;
    std::unique_ptr<Counter> counter;
    std::unique_ptr<Gauge> gauge;
  };
  struct Family {
    Kind kind;
    std::string help;
    std::vector<Series> series;
  };
  Series* FindOrAdd(absl::string_view name, absl::string_view help, Kind kind,
                    MetricLabels labels);  // REQUIRES: mu_ held

  // std::mutex: see EventLoop (ThreadSanitizer cannot see Debian's absl::Mutex).
  mutable std::mutex mu_;
  absl::btree_map<std::string, Family> families_ ABSL_GUARDED_BY(mu_);
};

}  // namespace shoal
