// workload.kind "eta-aio" (Brecht et al., "Evaluating Network Processing Efficiency with
// Processor Partitioning and Asynchronous I/O", EuroSys 2006): the userver under a
// SPECweb99-like load on the best-practice baseline or on ETA+AIO, with Table 1's cycle bins.
#include <algorithm>

#include "api/system.hpp"
#include "eta/eta_server.hpp"
#include "scenario/scenario.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {

namespace {

struct EtaSnapshot {
  EtaCounters n;
  Time busy[2] = {0, 0};
};

}  // namespace

RunOutput run_eta_aio(const Config& cfg, bool with_trace) {
  RunOutput out;
  SimContext ctx(cfg.run.seed, cfg.run.trace_start, cfg.run.trace_end,
                 with_trace ? static_cast<std::uint64_t>(cfg.run.trace_max_records) : 0);
  EtaServer server(&ctx, cfg.eta);
  const unsigned cpus = server.cpus();
  // §6: the 1-CPU baseline runs half the load on two NICs and its throughput is doubled.
  const double scale = cpus == 1 ? 2.0 : 1.0;
  auto take = [&]() {
    EtaSnapshot s;
    s.n = server.counters();
    for (unsigned c = 0; c < cpus; ++c) s.busy[c] = server.cpu_busy(c);
    return s;
  };
  const Time interval = cfg.run.sample_interval;
  TimeSeries s_tput{"eta_throughput", "Mb/s", interval, {}};
  TimeSeries s_cpu0{"eta_cpu0_busy", "fraction", interval, {}};
  TimeSeries s_cpu1{"eta_cpu1_busy", "fraction", interval, {}};
  TimeSeries s_dbq{"eta_doorbell_depth", "operations", interval, {}};
  TimeSeries s_evq{"eta_event_depth", "events", interval, {}};
  TimeSeries s_live{"eta_connections", "requests", interval, {}};
  PeriodicProbe<EtaSnapshot> probe;
  probe.ctx = &ctx;
  probe.interval = interval;
  probe.end = cfg.run.duration;
  probe.take = take;
  probe.sample = [&](const EtaSnapshot& a, const EtaSnapshot& b) {
    const double secs = static_cast<double>(interval) / 1e12;
    s_tput.values.push_back(static_cast<double>(b.n.bytes_delivered - a.n.bytes_delivered) * 8.0 /
                            secs / 1e6 * scale);
    s_cpu0.values.push_back(std::min(1.0, fraction(b.busy[0] - a.busy[0], interval)));
    s_cpu1.values.push_back(cpus > 1 ? std::min(1.0, fraction(b.busy[1] - a.busy[1], interval))
                                     : 0.0);
    s_dbq.values.push_back(static_cast<double>(server.doorbell_depth()));
    s_evq.values.push_back(static_cast<double>(server.event_depth()));
    s_live.values.push_back(static_cast<double>(server.in_flight()));
  };
  ctx.at(interval, &probe, 0, kPriorityStats);
  ctx.at(cfg.run.warmup, &probe, 1, kPriorityStats);
  server.start();
  if (!run_to_end(cfg.run, &ctx, &out)) return out;

  const Time end = ctx.now();
  const Time window = end - cfg.run.warmup;
  const EtaSnapshot& a = probe.at_warmup;
  const EtaSnapshot b = take();
  const double secs = static_cast<double>(window) / 1e12;
  auto add = [&](const char* name, double value) { add_metric(&out, name, value); };
  const double completed = static_cast<double>(b.n.completed - a.n.completed);
  const double offered = static_cast<double>(b.n.offered - a.n.offered);
  const double bytes = static_cast<double>(b.n.bytes_delivered - a.n.bytes_delivered);
  add("eta_throughput", secs > 0 ? bytes * 8.0 / secs / 1e6 * scale : 0.0);
  add("eta_request_rate", secs > 0 ? completed / secs * scale : 0.0);
  add("eta_offered_rate", secs > 0 ? offered / secs * scale : 0.0);
  add("eta_refused_share",
      offered > 0 ? static_cast<double>(b.n.refused - a.n.refused) / offered : 0.0);
  double busy = 0;
  for (unsigned c = 0; c < cpus; ++c)
    busy += std::min(1.0, fraction(b.busy[c] - a.busy[c], window));
  add("eta_cpu_utilization", busy / cpus);
  add("eta_cpu0_busy", std::min(1.0, fraction(b.busy[0] - a.busy[0], window)));
  add("eta_cpu1_busy", cpus > 1 ? std::min(1.0, fraction(b.busy[1] - a.busy[1], window)) : 0.0);
  // Table 1's bins as shares of every CPU's cycles in the window.
  const double window_cycles =
      static_cast<double>(window) * static_cast<double>(cfg.eta.cpu_mhz) / 1e6;
  const double all = window_cycles * cpus;
  double bins[kEtaBins] = {};
  for (unsigned c = 0; c < cpus; ++c)
    for (std::size_t k = 0; k < kEtaBins; ++k)
      bins[k] += static_cast<double>(b.n.cycles[c][k] - a.n.cycles[c][k]);
  double booked = 0;
  for (double v : bins) booked += v;
  // Work is booked as it starts: a unit running over the window's end counts whole, so the
  // shares are of the booked cycles when they exceed the window's.
  const double whole = std::max(all, booked);
  const char* names[kEtaBins] = {"eta_bin_user", "eta_bin_tcpip", "eta_bin_ethernet",
                                 "eta_bin_kernel_other", "eta_bin_ppe_other"};
  for (std::size_t k = 0; k < kEtaBins; ++k) add(names[k], whole > 0 ? bins[k] / whole : 0.0);
  add("eta_bin_idle", whole > 0 ? std::max(0.0, 1.0 - booked / whole) : 0.0);
  const double unproductive =
      static_cast<double>(b.n.unproductive_cycles - a.n.unproductive_cycles);
  add("eta_unproductive_polling", whole > 0 ? unproductive / whole : 0.0);
  add("eta_unproductive_share_of_ppe_other",
      bins[4] > 0 ? std::min(1.0, unproductive / bins[4]) : 0.0);
  add("eta_ppe_productive",
      server.eta() && window_cycles > 0 ? std::max(0.0, 1.0 - unproductive / window_cycles) : 0.0);
  add("eta_signal_path",
      whole > 0 ? static_cast<double>(b.n.signal_cycles - a.n.signal_cycles) / whole : 0.0);
  add("eta_interrupt_share",
      whole > 0 ? static_cast<double>(b.n.interrupt_cycles - a.n.interrupt_cycles) / whole : 0.0);
  const double done = std::max(1.0, completed);
  add("eta_signals_per_request", static_cast<double>(b.n.signals - a.n.signals) / done);
  add("eta_interrupts_per_request", static_cast<double>(b.n.interrupts - a.n.interrupts) / done);
  double busy_cycles = 0;
  for (std::size_t k = 0; k < kEtaBins; ++k) busy_cycles += bins[k];
  add("eta_cycles_per_request", busy_cycles / done);
  add("eta_latency_ms",
      completed > 0 ? static_cast<double>(b.n.latency_sum - a.n.latency_sum) / completed / 1e9
                    : 0.0);
  // Each NIC's wire carries at most mss / (mss + 78) of a gigabit as response payload.
  const double mss = static_cast<double>(cfg.eta.mss);
  const double limit = static_cast<double>(cfg.eta.nics) * 1000.0 * mss / (mss + 78.0);
  add("eta_link_limit", limit);
  add("events", static_cast<double>(ctx.model_events()));
  add("sim_time", static_cast<double>(end) / 1e6);
  add("window", static_cast<double>(window) / 1e6);
  if (window > 0) {
    // The wires' payload rate: acknowledged bytes stay well under it (headers, and clients
    // that never fill four gigabit links), so no allowance for the window's edge.
    out.bounds.push_back({"eta_throughput", limit,
                          std::to_string(cfg.eta.nics) + " gigabit links, " +
                              std::to_string(cfg.eta.mss) + "-byte segments"});
  }
  // Conservation from time 0: every request offered completed, was refused, or is held.
  out.ledgers.push_back({"requests from the clients", b.n.offered, b.n.completed, b.n.refused,
                         static_cast<std::uint64_t>(cfg.eta.max_connections)});
  out.series = {s_tput, s_cpu0, s_cpu1, s_live};
  if (server.eta()) out.series.insert(out.series.end(), {s_dbq, s_evq});
  out.trace_dropped = ctx.trace.dropped();
  out.trace_start = cfg.run.trace_start;
  out.trace_end = cfg.run.trace_end;
  out.trace = ctx.trace.take();
  return out;
}

}  // namespace nicsim
