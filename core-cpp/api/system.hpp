// One run of the model: builds the components from a validated Config, runs the event loop,
// and reports metrics, sampled series, histograms and the trace.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bus/pci_bus.hpp"
#include "nic/ring.hpp"
#include "scenario/config.hpp"
#include "sim/stats.hpp"
#include "trace/trace.hpp"

namespace nicsim {

struct Metric {
  std::string name;
  double value;
  std::string unit;
};

struct Histogram {
  std::string name, unit;
  std::int64_t bin_width;
  std::vector<double> weights;  // share of the measured window at each bin
};

// A physical limit one metric of this run cannot exceed (its wire, its bus), worked out by the
// run with the metric's own measurement window; api/invariants.hpp checks it.
struct Bound {
  std::string metric;
  double limit;
  std::string what;  // the limit in words: "1 link at 1000 Mb/s, 1538-byte wire slots, ..."
};

// Frames through one stage of a run, counted from time 0: what entered it, left it or was
// dropped in it. The rest is held at the end: never negative, never more than `capacity`.
struct Ledger {
  std::string what;
  std::uint64_t entered = 0, left = 0, dropped = 0, capacity = 0;
};

struct RunOutput {
  std::string fault;  // non-empty when the model reported a bug and stopped
  std::vector<Metric> metrics;
  std::vector<Bound> bounds;
  std::vector<Ledger> ledgers;
  std::vector<TimeSeries> series;
  std::vector<Histogram> histograms;
  std::vector<TraceRecord> trace;
  std::uint64_t trace_dropped = 0;
  Time trace_start = 0, trace_end = 0;
};

RunOutput run_model(const Config& cfg, bool with_trace);
// workload.kind "web", workload.web_mode "cache-only" (web_run.cpp).
RunOutput run_web_cache_only(const Config& cfg, bool with_trace);
// workload.kind "web", workload.web_mode "full-system" (web_system.cpp).
RunOutput run_web_full_system(const Config& cfg, bool with_trace);

// Appends a metric declared in result_metrics() (else sets the fault).
void add_metric(RunOutput* out, const char* name, double value);
// part / whole, 0 when whole is 0 (utilisations over a window).
double fraction(Time part, Time whole);
// Busy (or, data_only, data-moving) bus cycles over the elapsed cycles between two snapshots:
// both counted at the bus clock's edges, as a window in ps need not be whole cycles.
double bus_cycle_share(const CycleCounts& at_warmup, const CycleCounts& at_end, bool data_only);

// The rings' state as the trace window opens: the views start from it.
class RingSnapshot final : public Observation {
 public:
  std::vector<DescriptorRing*> rings;
  // Each port's send, receive and return rings, snapshotted as the window opens (traced runs).
  template <class Ports>
  void watch(const Ports& ports, SimContext* ctx, Time trace_start, bool with_trace) {
    for (auto& p : ports) rings.insert(rings.end(), {&p->send, &p->receive, &p->ret});
    if (with_trace) ctx->observe_at(trace_start, this, 0, kPriorityFirst - 1);
  }

 private:
  void observe(std::uint32_t) override {
    for (DescriptorRing* r : rings) r->record_state();
  }
};

// Every run's sampler: takes a snapshot S of its counters once when warm-up ends (tag 1, the
// baseline of the run's metrics) and every `interval` until `end` (tag 0), handing the last and
// the new snapshot to `sample` to extend the series.
template <class S>
class PeriodicProbe final : public EventHandler {
 public:
  std::function<S()> take;
  std::function<void(const S& last, const S& now)> sample;
  SimContext* ctx = nullptr;
  Time interval = 0, end = 0;
  S last{}, at_warmup{};
  void fire(std::uint32_t tag) override {
    const S now = take();
    if (tag == 1) {
      at_warmup = now;
      return;
    }
    sample(last, now);
    last = now;
    if (ctx->now() + interval <= end) ctx->after(interval, this, 0, kPriorityStats);
  }
};

// What a run builds first and its instance keeps for the runs after it: a web run's generated
// trace (WebTraceCache, keyed by trace, seed and request count). Runs with the same non-empty key
// share it, so a pool that gives them to one instance generates it once (at the web presets'
// sizes it is most of a short run's work). Empty: nothing kept to share.
std::string shared_setup(const Config& cfg);

// The requests a web run replays: the generated trace of workload.trace (shared, see
// WebTraceCache), or the uploaded access log cut to its first workload.trace_requests.
class WebRequests {
 public:
  explicit WebRequests(const Config& cfg);
  WebRequests(const WebRequests&) = delete;
  WebRequests& operator=(const WebRequests&) = delete;
  // Null only for a log run without a log (api::run refuses those first).
  const std::vector<WebRequest>* list() const { return list_; }
  // list() as its owner shares it when it is a generated trace (kept unchanged by the trace
  // cache), else null.
  std::shared_ptr<const std::vector<WebRequest>> shared() const {
    if (!generated_ || list_ != &generated_->requests) return nullptr;
    return {generated_, &generated_->requests};
  }
  // Table 4.1's statistics of list() (made once with a generated trace, else counted here).
  TraceSummary summary() const;

 private:
  std::shared_ptr<const WebTrace> generated_;
  std::vector<WebRequest> limited_;
  const std::vector<WebRequest>* list_ = nullptr;
};
// The bus cycle categories between two snapshots (thesis Figs 4.6/4.7): bus_util_* and shares.
void add_bus_cycle_metrics(const CycleCounts& at_warmup, const CycleCounts& at_end, Time cycle,
                           const std::function<void(const char*, double)>& add);

// Runs the model to run.duration and flushes the trace; false, with out->fault set, when the
// model reported a bug and stopped.
bool run_to_end(const RunConfig& run, SimContext* ctx, RunOutput* out);

// The end of a run: the first NIC's ring occupancy histograms over the window, and the trace.
void finish_rings_and_trace(const std::vector<DescriptorRing*>& rings, Time end, Time window,
                            const RunConfig& run, SimContext* ctx, RunOutput* out);
// workload.kind "tcp-offload": one web file through an E1000 or an offload adapter
// (offload_run.cpp).
RunOutput run_tcp_offload(const Config& cfg, bool with_trace);
// workload.kind "ip-router": Click forwarding between two NICs (router_run.cpp).
RunOutput run_ip_router(const Config& cfg, bool with_trace);
// workload.kind "tcp-stream": the SINIC paper's host and NICs (sinic_run.cpp).
RunOutput run_tcp_stream(const Config& cfg, bool with_trace);
// workload.kind "eta-aio": the baseline and ETA+AIO userver machines of seed 001 (eta_run.cpp).
RunOutput run_eta_aio(const Config& cfg, bool with_trace);
// workload.kind "protocol-cache": protocol fast paths through the host caches (protocache_run.cpp).
RunOutput run_protocol_cache(const Config& cfg, bool with_trace);

// The benchmark baseline: a queue whose handlers only schedule their successors.
std::uint64_t run_null_loop(std::uint64_t events);

}  // namespace nicsim
