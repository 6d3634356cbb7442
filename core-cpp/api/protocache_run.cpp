// workload.kind "protocol-cache" ("Cache Behavior of Network Protocols", Nahum et al.,
// SIGMETRICS 1997): packets through one protocol fast path back to back, as the paper's
// in-memory driver produces and consumes them "as quickly as possible" (§3). Each packet's
// latency is its instructions at the CPU's CPI plus the cycles its references stall in the
// cache hierarchy; the metrics are per-packet means over the window, counted in whole ACK
// periods so TCP's every-other-packet ACK does not tilt them.
#include <algorithm>
#include <vector>

#include "api/system.hpp"
#include "protocache/protocol_stack.hpp"
#include "scenario/scenario.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {

namespace {

class PacketLoop final : public EventHandler {
 public:
  PacketLoop(SimContext* ctx, const ProtoCacheConfig& c, const RunConfig& run, bool with_trace)
      : ctx_(ctx),
        stack_(c),
        warmup_(run.warmup),
        trace_start_(run.trace_start),
        trace_end_(run.trace_end),
        trace_(with_trace && ctx->trace.keeping()) {
    const std::int64_t mhz = std::max<std::int64_t>(1, effective_cpu_mhz(c));
    cycle_ps_ = 1000000 / mhz;  // 100 MHz: 10 000 ps
    period_ = static_cast<std::uint64_t>(path_is_tcp(c.path) && c.ack_every > 0 ? c.ack_every : 1);
    if (trace_) {
      // Who owns each line, so the trace window can open on the caches' state.
      const CacheHierarchy& h = stack_.caches();
      for (int i = 0; i < 3; ++i) {
        const SetAssocCache& k = i == 0 ? h.l1i() : i == 1 ? h.l1d() : h.l2();
        ways_[i] = k.ways();
        owner_[i].assign(static_cast<std::size_t>(k.sets()) * k.ways(), kNone);
      }
      stack_.set_drop_listener([this](int cache, std::uint32_t set, std::uint32_t way) {
        owner_[cache][static_cast<std::size_t>(set) * ways_[cache] + way] = kNone;
        if (tracing_) lines_.push_back({line_time_, cache, set, way, 0, 2});
      });
    }
  }
  void fire(std::uint32_t) override {
    const Time start = ctx_->now();
    tracing_ = trace_ && start >= trace_start_ && start <= trace_end_;
    std::function<void(const ProtoReference&)> observe;
    if (trace_) observe = [&](const ProtoReference& r) { follow(start, r); };
    if (tracing_ && !snapshot_) {
      snapshot_ = true;
      // Stamped at the window's opening, not at this packet's start (later, as a rule): a view
      // whose cursor starts at the opening shows the lines the earlier packets left.
      const Time opening = trace_start_;
      for (int i = 0; i < 3; ++i)
        for (std::size_t k = 0; k < owner_[i].size(); ++k)
          if (owner_[i][k] != kNone)
            ctx_->trace.record(opening, Component::HostCpu,
                               rec::ProtoCacheLine()
                                   .cache(static_cast<std::uint32_t>(i))
                                   .set(static_cast<std::uint32_t>(k / ways_[i]))
                                   .way(static_cast<std::uint32_t>(k % ways_[i]))
                                   .layer(owner_[i][k] & 15u)
                                   .line(owner_[i][k] >> 4));
    }
    refs_.clear();
    lines_.clear();
    line_time_ = start;
    const PacketCost cost = stack_.run_packet(index_, observe);
    if (tracing_) emit(start, cost);
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
  static constexpr std::uint8_t kNone = 0xff;
  struct Ref {
    Time t;
    std::uint32_t layer, reference, l1_set, l2_set, stall;
  };
  struct Line {
    Time t;
    int cache;
    std::uint32_t set, way, layer, what;  // what: 0 instruction, 1 data, 2 invalidated
  };
  // Keeps the owners current and, in the window, the packet's records (written after it ran,
  // behind the ProtoPacket record that sums them).
  void follow(Time start, const ProtoReference& r) {
    const Time t = start + static_cast<Time>(r.cycle) * cycle_ps_;
    line_time_ = t;
    const bool instr = r.kind == RefKind::Instruction;
    const std::uint32_t what = instr ? 0u : 1u;
    const auto owner = static_cast<std::uint8_t>(static_cast<std::uint32_t>(r.owner) | what << 4);
    const CacheAccess& a = r.access;
    if (!a.ideal && a.served != ServedBy::L1) {
      const int l1 = instr ? 0 : 1;
      if (a.l1_way < ways_[l1]) {
        owner_[l1][static_cast<std::size_t>(a.l1_set) * ways_[l1] + a.l1_way] = owner;
        if (tracing_)
          lines_.push_back({t, l1, a.l1_set, a.l1_way, static_cast<std::uint32_t>(r.owner), what});
      }
      if (a.served == ServedBy::Memory && a.l2_way >= 0) {
        const auto w = static_cast<std::uint32_t>(a.l2_way);
        owner_[2][static_cast<std::size_t>(a.l2_set) * ways_[2] + w] = owner;
        if (tracing_)
          lines_.push_back({t, 2, a.l2_set, w, static_cast<std::uint32_t>(r.owner), what});
      }
    }
    if (!tracing_) return;
    const std::uint32_t served = a.ideal ? 3u : static_cast<std::uint32_t>(a.served) - 1u;
    const std::uint32_t kind = static_cast<std::uint32_t>(r.kind);
    refs_.push_back({t, static_cast<std::uint32_t>(r.owner), kind * 4 + served, a.l1_set,
                     a.served == ServedBy::L1 ? 0u : a.l2_set, a.stall_cycles});
  }
  void emit(Time start, const PacketCost& cost) {
    const RecordId packet =
        ctx_->trace.record(start, Component::HostCpu,
                           rec::ProtoPacket()
                               .packet(static_cast<std::uint32_t>(index_))
                               .cpu_cycles(static_cast<std::uint32_t>(cost.cpu_cycles))
                               .l2_stall(static_cast<std::uint32_t>(cost.stall_l2_cycles))
                               .memory_stall(static_cast<std::uint32_t>(cost.stall_memory_cycles))
                               .instructions(static_cast<std::uint32_t>(cost.instructions)));
    // Lines and references merged in time order (a line's fill follows its reference).
    std::size_t li = 0;
    for (const Ref& r : refs_) {
      while (li < lines_.size() && lines_[li].t < r.t) emit_line(lines_[li++], packet);
      ctx_->trace.record(r.t, Component::HostCpu,
                         rec::ProtoCacheRef()
                             .layer(r.layer)
                             .reference(r.reference)
                             .l1_set(r.l1_set)
                             .l2_set(r.l2_set)
                             .stall(r.stall),
                         packet);
      while (li < lines_.size() && lines_[li].t == r.t) emit_line(lines_[li++], packet);
    }
    while (li < lines_.size()) emit_line(lines_[li++], packet);
  }
  void emit_line(const Line& l, RecordId cause) {
    ctx_->trace.record(l.t, Component::HostCpu,
                       rec::ProtoCacheLine()
                           .cache(static_cast<std::uint32_t>(l.cache))
                           .set(l.set)
                           .way(l.way)
                           .layer(l.layer)
                           .line(l.what),
                       cause);
  }

  SimContext* ctx_;
  ProtocolStack stack_;
  Time warmup_, trace_start_, trace_end_;
  bool trace_, tracing_ = false, snapshot_ = false;
  Time cycle_ps_ = 10000, line_time_ = 0;
  std::uint64_t period_ = 1, index_ = 0, packets_ = 0, pending_packets_ = 0;
  bool counting_ = false;
  PacketCost window_, pending_;
  std::vector<std::uint8_t> owner_[3];
  std::uint32_t ways_[3] = {1, 1, 1};
  std::vector<Ref> refs_;
  std::vector<Line> lines_;
};

double ratio(std::uint64_t a, std::uint64_t b) {
  return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

}  // namespace

RunOutput run_protocol_cache(const Config& cfg, bool with_trace) {
  RunOutput out;
  SimContext ctx(cfg.run.seed, cfg.run.trace_start, cfg.run.trace_end,
                 with_trace ? static_cast<std::uint64_t>(cfg.run.trace_max_records) : 0);
  PacketLoop loop(&ctx, cfg.protocache, cfg.run, with_trace);
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
  add("events", static_cast<double>(ctx.model_events()));
  add("sim_time", static_cast<double>(ctx.now()) / 1e6);
  add("window", static_cast<double>(cfg.run.duration - cfg.run.warmup) / 1e6);
  out.trace_dropped = ctx.trace.dropped();
  out.trace_start = cfg.run.trace_start;
  out.trace_end = cfg.run.trace_end;
  out.trace = ctx.trace.take();
  return out;
}

}  // namespace nicsim
