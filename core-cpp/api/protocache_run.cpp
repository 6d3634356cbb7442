// workload.kind "protocol-cache" ("Cache Behavior of Network Protocols", Nahum et al.,
// SIGMETRICS 1997): packets through one protocol fast path back to back, as the paper's
// in-memory driver produces and consumes them "as quickly as possible" (§3). Each packet's
// latency is its instructions at the CPU's CPI plus the cycles its references stall in the
// cache hierarchy; the metrics are per-packet means over the window, counted in whole ACK
// periods so TCP's every-other-packet ACK does not tilt them.
#include <algorithm>

#include "api/system.hpp"
#include "protocache/protocol_stack.hpp"
#include "scenario/scenario.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {

namespace {

class PacketLoop final : public EventHandler {
 public:
  PacketLoop(SimContext* ctx, const ProtoCacheConfig& c, Time warmup, bool with_trace)
      : ctx_(ctx), stack_(c), warmup_(warmup), trace_(with_trace) {
    const std::int64_t mhz = std::max<std::int64_t>(1, effective_cpu_mhz(c));
    cycle_ps_ = 1000000 / mhz;  // 100 MHz: 10 000 ps
    period_ = static_cast<std::uint64_t>(path_is_tcp(c.path) && c.ack_every > 0 ? c.ack_every : 1);
  }
  void fire(std::uint32_t) override {
    const Time start = ctx_->now();
    std::function<void(const ProtoReference&)> observe;
    if (trace_ && ctx_->trace.keeping()) {
      observe = [&](const ProtoReference& r) { record(start, r); };
    }
    const PacketCost cost = stack_.run_packet(index_, observe);
    const Time latency = static_cast<Time>(cost.cycles()) * cycle_ps_;
    if (start >= warmup_ && (counting_ || index_ % period_ == 0)) {
      counting_ = true;
      pending_.add(cost);
      ++pending_packets_;
      if (pending_packets_ % period_ == 0) {
        window_.add(pending_);
        packets_ += pending_packets_;
        pending_ = PacketCost{};
        pending_packets_ = 0;
      }
    }
    ++index_;
    ctx_->after(std::max<Time>(1, latency), this, 0);
  }
  const PacketCost& window() const { return window_; }
  std::uint64_t packets() const { return packets_; }
  Time cycle_ps() const { return cycle_ps_; }

 private:
  void record(Time start, const ProtoReference& r) {
    (void)start;
    (void)r;
  }
  SimContext* ctx_;
  ProtocolStack stack_;
  Time warmup_;
  bool trace_;
  Time cycle_ps_ = 10000;
  std::uint64_t period_ = 1, index_ = 0, packets_ = 0, pending_packets_ = 0;
  bool counting_ = false;
  PacketCost window_, pending_;
};

double ratio(std::uint64_t a, std::uint64_t b) {
  return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

}  // namespace

RunOutput run_protocol_cache(const Config& cfg, bool with_trace) {
  RunOutput out;
  SimContext ctx(cfg.run.seed, cfg.run.trace_start, cfg.run.trace_end,
                 with_trace ? static_cast<std::uint64_t>(cfg.run.trace_max_records) : 0);
  PacketLoop loop(&ctx, cfg.protocache, cfg.run.warmup, with_trace);
  ctx.record(Component::HostCpu,
             rec::RunStart()
                 .direction(path_is_send(cfg.protocache.path) ? 0u : 1u)
                 .datagram_bytes(static_cast<std::uint32_t>(cfg.protocache.payload_bytes)));
  ctx.at(0, &loop, 0);
  if (!run_to_end(cfg.run, &ctx, &out)) return out;

  const PacketCost& w = loop.window();
  const double n = static_cast<double>(loop.packets());
  const double us = static_cast<double>(loop.cycle_ps()) / 1e6;  // one cycle in µs
  auto per = [&](std::uint64_t v) { return n > 0 ? static_cast<double>(v) / n : 0.0; };
  auto add = [&](const char* name, double value) { add_metric(&out, name, value); };
  add("proto_latency_us", per(w.cycles()) * us);
  add("proto_cpu_us", per(w.cpu_cycles) * us);
  add("proto_stall_l2_us", per(w.stall_l2_cycles) * us);
  add("proto_stall_memory_us", per(w.stall_memory_cycles) * us);
  add("proto_memory_share", ratio(w.stall_l2_cycles + w.stall_memory_cycles, w.cycles()));
  add("proto_cpi", ratio(w.cycles(), w.instructions));
  add("proto_l1i_miss_rate", ratio(w.l1i_misses, w.l1i_refs));
  add("proto_l1d_miss_rate", ratio(w.l1d_misses, w.l1d_refs));
  add("proto_l2_miss_rate", ratio(w.l2_misses, w.l2_refs));
  add("proto_instructions", per(w.instructions));
  add("proto_data_refs", per(w.l1d_refs));
  add("proto_i_to_d", ratio(w.l1i_refs, w.l1d_refs));
  add("proto_packets", n);
  add("events", static_cast<double>(ctx.queue.fired()));
  add("sim_time", static_cast<double>(ctx.now()) / 1e6);
  add("window", static_cast<double>(cfg.run.duration - cfg.run.warmup) / 1e6);
  if (loop.packets() == 0)
    out.fault = "no whole packet period in the window: lengthen run.duration_us";
  out.trace_dropped = ctx.trace.dropped();
  out.trace_start = cfg.run.trace_start;
  out.trace_end = cfg.run.trace_end;
  out.trace = ctx.trace.take();
  return out;
}

}  // namespace nicsim
