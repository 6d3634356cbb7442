// workload.kind "tcp-stream" (Binkert et al., "Integrated Network Interfaces for High-Bandwidth
// TCP/IP"): netperf stream / maerts over one of the four NICs of the SINIC paper, with the host's
// CPU time by part and the L2's misses per KB.
#include <algorithm>

#include "api/system.hpp"
#include "scenario/scenario.hpp"
#include "sinic/stream_host.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {

namespace {

// The receive VNICs' states as the trace window opens (a view replays them from there).
class VnicSnapshot final : public Observation {
 public:
  SinicDevice* sinic = nullptr;

 private:
  void observe(std::uint32_t) override { sinic->trace_snapshot(); }
};

}  // namespace

RunOutput run_tcp_stream(const Config& cfg, bool with_trace) {
  RunOutput out;
  SimContext ctx(cfg.run.seed, cfg.run.trace_start, cfg.run.trace_end,
                 with_trace ? static_cast<std::uint64_t>(cfg.run.trace_max_records) : 0);
  StreamHost host(&ctx, cfg);
  const Time interval = cfg.run.sample_interval;
  TimeSeries throughput{"tcp_throughput", "Gb/s", interval, {}};
  TimeSeries fifo{"rx_fifo", "KB", interval, {}};
  TimeSeries vnics{"vnics_bound", "VNICs", interval, {}};
  TimeSeries copy{"cpu_copy", "fraction", interval, {}};
  double fifo_sum = 0, fifo_peak = 0;
  std::int64_t fifo_samples = 0, vnic_peak = 0;
  PeriodicProbe<StreamCounters> sampler;
  sampler.ctx = &ctx;
  sampler.interval = interval;
  sampler.end = cfg.run.duration;
  sampler.take = [&]() { return host.counters(); };
  sampler.sample = [&](const StreamCounters& last, const StreamCounters& now) {
    const double secs = static_cast<double>(interval) / 1e12;
    throughput.values.push_back(static_cast<double>(now.payload_bytes - last.payload_bytes) * 8.0 /
                                secs / 1e9);
    const double kb = static_cast<double>(host.rx_fifo_bytes()) / 1024.0;
    fifo.values.push_back(kb);
    vnics.values.push_back(static_cast<double>(host.bound_vnics()));
    copy.values.push_back(static_cast<double>(now.cpu[2] - last.cpu[2]) /
                          static_cast<double>(interval));
    if (ctx.now() > cfg.run.warmup) {
      fifo_sum += kb;
      fifo_peak = std::max(fifo_peak, kb);
      vnic_peak = std::max(vnic_peak, host.bound_vnics());
      ++fifo_samples;
    }
  };
  ctx.record(Component::HostCpu,
             rec::RunStart()
                 .direction(host.receive() ? 1u : 0u)
                 .datagram_bytes(static_cast<std::uint32_t>(cfg.sinic.tcp.mss)));
  ctx.at(cfg.run.warmup, &sampler, 1, kPriorityStats);
  ctx.at(cfg.run.sample_interval, &sampler, 0, kPriorityStats);
  VnicSnapshot snapshot;
  snapshot.sinic = host.sinic();
  if (with_trace && snapshot.sinic)
    ctx.observe_at(cfg.run.trace_start, &snapshot, 0, kPriorityFirst - 1);
  host.start();
  ctx.run_until(cfg.run.duration);
  if (ctx.failed()) {
    out.fault = ctx.fault();
    return out;
  }
  const StreamCounters end = host.counters();
  const StreamCounters& w = sampler.at_warmup;
  const Time window = cfg.run.duration - cfg.run.warmup;
  const double secs = static_cast<double>(window) / 1e12;
  auto add = [&](const char* name, double value) { add_metric(&out, name, value); };
  // What was read in the window, less what it drew from data unread when it opened: the lesser
  // of the bytes read and the payload the data wire carried in it (the link is lossless,
  // §5.1, so they differ by the change in unread data). At steady state
  // they agree; counted where netperf reads alone, a window opening on unread socket data
  // read above the link.
  const double bytes = static_cast<double>(end.payload_bytes - w.payload_bytes);
  add("tcp_throughput", std::min(bytes, end.wire_payload - w.wire_payload) * 8.0 / secs / 1e9);
  const double packets = static_cast<double>(end.packets - w.packets);
  // The goodput of a saturated link: payload over the frame's wire bytes.
  const double mss = static_cast<double>(cfg.sinic.tcp.mss);
  const double wire =
      mss + static_cast<double>(66 + 4 + cfg.link.preamble_bytes + cfg.link.ifg_bytes);
  const double goodput = static_cast<double>(cfg.link.rate_mbps) / 1000.0 * mss / wire;
  add("tcp_goodput_limit", goodput);
  out.bounds.push_back({"tcp_throughput", goodput, "the link's goodput (payload over wire bytes)"});
  {
    // Conservation from time 0: what the sender put on its way was delivered or is in flight
    // (on the wire, in the FIFO, unread in a socket), within TCP's windows.
    const auto [sent, delivered] = host.stream_bytes();
    out.ledgers.push_back(
        {"payload bytes from the sender to the reader", static_cast<std::uint64_t>(sent),
         static_cast<std::uint64_t>(delivered), 0,
         static_cast<std::uint64_t>(cfg.sinic.tcp.connections * cfg.sinic.tcp.socket_buffer)});
  }
  const char* parts[] = {"cpu_driver", "cpu_stack", "cpu_copy", "cpu_user"};
  double busy = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const double f = static_cast<double>(end.cpu[i] - w.cpu[i]) / static_cast<double>(window);
    busy += f;
    add(parts[i], f);
  }
  add("cpu_idle", std::max(0.0, 1.0 - busy));
  const double kb = bytes / 1024.0;
  add("l2_misses_per_kb",
      kb > 0 ? static_cast<double>(end.missed_lines - w.missed_lines) / kb : 0.0);
  add("zero_copy_share",
      bytes > 0 ? static_cast<double>(end.zero_copy_bytes - w.zero_copy_bytes) / bytes : 0.0);
  add("tcp_packets_per_interrupt",
      end.interrupts > w.interrupts ? packets / static_cast<double>(end.interrupts - w.interrupts)
                                    : 0.0);
  add("rx_fifo_mean_kb", fifo_samples > 0 ? fifo_sum / static_cast<double>(fifo_samples) : 0);
  add("rx_fifo_peak_kb", fifo_peak);
  add("vnics_bound_peak", static_cast<double>(vnic_peak));
  add("register_reads_per_packet",
      packets > 0 ? static_cast<double>(end.register_reads - w.register_reads) / packets : 0.0);
  add("link_pause_share", static_cast<double>(end.pause - w.pause) / static_cast<double>(window));
  add("events", static_cast<double>(ctx.model_events()));
  add("sim_time", static_cast<double>(ctx.now()) / 1e6);
  add("window", static_cast<double>(window) / 1e6);
  out.series = {throughput, fifo, vnics, copy};
  ctx.trace.flush(cfg.run.duration);
  out.trace_dropped = ctx.trace.dropped();
  out.trace_start = cfg.run.trace_start;
  out.trace_end = cfg.run.trace_end;
  out.trace = ctx.trace.take();
  return out;
}

}  // namespace nicsim
