#include "api/system.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>

#include "api/invariants.hpp"
#include "bus/pci_bus.hpp"
#include "host/host.hpp"
#include "link/ethernet_link.hpp"
#include "nic/fixed_nic.hpp"
#include "nic/tigon/benchmark.hpp"
#include "nic/tigon/tigon_nic.hpp"
#include "scenario/scenario.hpp"

namespace nicsim {

namespace {

// The counters a UDP or Tigon run samples, and takes once when warm-up ends.
struct UdpSnapshot {
  Time bus_busy;
  Time bus_data;
  Time cpu_busy;
  std::uint64_t bus_transactions, bus_refusals, mailbox_writes, dma_refusals, pio_reads;
  CycleCounts bus_cycles;
  Tally tally;
  TigonStats tigon;
  Time tigon_busy[2];
  Time tigon_spin[2];
  Time sram_busy;
  double wire_tx, wire_rx;  // payload the wires carried, to the peers and from them
};

RunOutput run_udp_model(const Config& cfg, bool with_trace);

}  // namespace

void add_bus_cycle_metrics(const CycleCounts& a, const CycleCounts& b, Time cycle,
                           const std::function<void(const char*, double)>& add) {
  // Every bus cycle in the window by category (thesis Figs 4.6/4.7): shares of elapsed cycles,
  // and overhead and content as shares of bus traffic (busy cycles).
  std::uint64_t total = 0, busy = 0, overhead = 0;
  CycleCounts d{};
  for (std::size_t i = 0; i < d.size(); ++i) {
    d[i] = b[i] - a[i];
    total += d[i];
    if (i != static_cast<std::size_t>(BusCategory::IdleCycles)) busy += d[i];
    if (i >= static_cast<std::size_t>(BusCategory::ArbitrationCycles) &&
        i <= static_cast<std::size_t>(BusCategory::TurnaroundCycles)) {
      overhead += d[i];
    }
  }
  auto share = [](std::uint64_t part, std::uint64_t whole) {
    return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
  };
  using C = BusCategory;
  auto at = [&](C c) { return d[static_cast<std::size_t>(c)]; };
  add("bus_cycles", static_cast<double>(total));
  add("bus_cycle_time", static_cast<double>(cycle));
  add("bus_util_content", share(at(C::Content), total));
  add("bus_util_network_headers", share(at(C::NetworkHeaders), total));
  add("bus_util_app_headers", share(at(C::AppHeaders), total));
  add("bus_util_descriptors", share(at(C::Descriptors), total));
  add("bus_util_other_devices", share(at(C::OtherDevices), total));
  add("bus_util_arbitration", share(at(C::ArbitrationCycles), total));
  add("bus_util_address", share(at(C::AddressCycles), total));
  add("bus_util_wait", share(at(C::WaitCycles), total));
  add("bus_util_retry", share(at(C::RetryCycles), total));
  add("bus_util_turnaround", share(at(C::TurnaroundCycles), total));
  add("bus_util_idle", share(at(C::IdleCycles), total));
  add("bus_efficiency", share(busy - overhead, busy));
  add("bus_overhead_share", share(overhead, busy));
  add("bus_content_share", share(at(C::Content), busy));
}

double bus_cycle_share(const CycleCounts& a, const CycleCounts& b, bool data_only) {
  std::uint64_t total = 0, part = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::uint64_t d = b[i] - a[i];
    total += d;
    const auto c = static_cast<BusCategory>(i);
    if (data_only ? c <= BusCategory::OtherDevices : c != BusCategory::IdleCycles) part += d;
  }
  return total > 0 ? static_cast<double>(part) / static_cast<double>(total) : 0.0;
}

double fraction(Time part, Time whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string shared_setup(const Config& cfg) {
  const WorkloadConfig& w = cfg.workload;
  if (w.kind != WorkloadKind::Web || w.trace_from_log) return {};
  return std::string("web-trace ") + web_trace_name(w.trace) + " requests " +
         std::to_string(w.trace_requests) + " seed " + std::to_string(w.trace_seed);
}

WebRequests::WebRequests(const Config& cfg) : list_(cfg.access_log) {
  if (!cfg.workload.trace_from_log) {
    WebTraceConfig tc;
    tc.trace = cfg.workload.trace;
    tc.seed = cfg.workload.trace_seed;
    tc.requests = cfg.workload.trace_requests;
    generated_ = shared_web_trace_cache().get(tc);
    list_ = &generated_->requests;
  } else if (list_ != nullptr && cfg.workload.trace_requests > 0 &&
             cfg.workload.trace_requests < list_->size()) {
    limited_.assign(list_->begin(),
                    list_->begin() + static_cast<std::ptrdiff_t>(cfg.workload.trace_requests));
    list_ = &limited_;
  }
}

TraceSummary WebRequests::summary() const {
  if (generated_ && list_ == &generated_->requests) return generated_->summary;
  return list_ != nullptr ? summarize(*list_) : TraceSummary{};
}

void add_metric(RunOutput* out, const char* name, double value) {
  for (const auto& m : result_metrics()) {
    if (std::strcmp(m.name, name) == 0) {
      out->metrics.push_back({name, value, m.unit});
      return;
    }
  }
  if (out->fault.empty())
    out->fault = std::string("metric not declared in result_metrics(): ") + name;
}

RunOutput run_model(const Config& cfg, bool with_trace) {
  RunOutput out;
  if (cfg.workload.kind == WorkloadKind::Web) {
    out = cfg.workload.web_mode == WebMode::FullSystem ? run_web_full_system(cfg, with_trace)
                                                       : run_web_cache_only(cfg, with_trace);
  } else if (cfg.workload.kind == WorkloadKind::TcpStream) {
    out = run_tcp_stream(cfg, with_trace);
  } else if (cfg.workload.kind == WorkloadKind::IpRouter) {
    out = run_ip_router(cfg, with_trace);
  } else if (cfg.workload.kind == WorkloadKind::TcpOffload) {
    out = run_tcp_offload(cfg, with_trace);
  } else if (cfg.workload.kind == WorkloadKind::EtaAio) {
    out = run_eta_aio(cfg, with_trace);
  } else if (cfg.workload.kind == WorkloadKind::ProtocolCache) {
    out = run_protocol_cache(cfg, with_trace);
  } else {
    out = run_udp_model(cfg, with_trace);
  }
  // Every run, main or sweep point: a result beyond physics is a model bug, not a number.
  if (out.fault.empty()) out.fault = check_invariants(out);
  return out;
}

namespace {

RunOutput run_udp_model(const Config& cfg, bool with_trace) {
  RunOutput out;
  SimContext ctx(cfg.run.seed, cfg.run.trace_start, cfg.run.trace_end,
                 with_trace ? static_cast<std::uint64_t>(cfg.run.trace_max_records) : 0);
  Tally tally;
  PciBus bus(&ctx, cfg.bus);
  HostBridge bridge(&ctx, &bus, cfg.host.pio_buffer_entries);
  HostCpu host(&ctx, cfg, &bridge, &tally);
  DiskController disk(&ctx, cfg.disk, &bus);

  // One NIC with its rings, driver, wire and peer per instance (thesis §4.4: two for the web
  // server), all on one bus and one host CPU.
  struct Port {
    Port(SimContext* ctx, const Config& cfg, unsigned i, IoBus* bus, HostCpu* cpu, Tally* tally)
        : send(ctx, RingId::Send, cfg.driver.send_ring_size, Copy::Host, cfg.run.warmup, i),
          receive(ctx, RingId::Receive, cfg.driver.receive_ring_size, Copy::Host, cfg.run.warmup,
                  i),
          ret(ctx, RingId::Return, cfg.driver.return_ring_size, Copy::Nic, cfg.run.warmup, i),
          tigon(cfg.nic_model == NicModel::Tigon
                    ? new TigonNic(ctx, cfg, i, Rings{&send, &receive, &ret}, bus, tally)
                    : nullptr),
          device(tigon ? static_cast<NicDevice*>(tigon)
                       : new FixedFunctionNic(ctx, cfg.nic, i, Rings{&send, &receive, &ret}, bus,
                                              tally)),
          nic(*device),
          driver(ctx, cfg, i, Rings{&send, &receive, &ret}, &nic, cpu, tally),
          peer(ctx, cfg, i, tally),
          to_peer(ctx, cfg.link, &nic, &peer),
          to_nic(ctx, cfg.link, &peer, &nic) {
      nic.attach_interrupt(&driver);
      nic.attach_tx_link(&to_peer);
      peer.attach(&to_nic);
    }
    DescriptorRing send, receive, ret;
    TigonNic* tigon;  // the same object as device when the model is the Tigon
    std::unique_ptr<NicDevice> device;
    NicDevice& nic;
    Driver driver;
    Peer peer;
    LinkDirection to_peer, to_nic;
  };
  std::vector<std::unique_ptr<Port>> ports;
  for (unsigned i = 0; i < static_cast<unsigned>(cfg.nics); ++i) {
    ports.push_back(std::make_unique<Port>(&ctx, cfg, i, &bus, &host, &tally));
    host.attach(&ports.back()->driver);
  }
  Port& first = *ports.front();
  DescriptorRing& send = first.send;
  auto dma_refusals = [&]() {
    std::uint64_t n = 0;
    for (const auto& p : ports) n += p->nic.dma().refusals();
    return n;
  };

  TimeSeries s_send{"send_ring_occupancy", "descriptors", cfg.run.sample_interval, {}};
  TimeSeries s_recv{"receive_buffers_on_nic", "descriptors", cfg.run.sample_interval, {}};
  TimeSeries s_txbuf{"nic_tx_buffer", "KB", cfg.run.sample_interval, {}};
  TimeSeries s_rxbuf{"nic_rx_buffer", "KB", cfg.run.sample_interval, {}};
  TimeSeries s_bus{"bus_utilization", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_tx{"udp_tx_throughput", "Mb/s", cfg.run.sample_interval, {}};
  TimeSeries s_rx{"udp_rx_throughput", "Mb/s", cfg.run.sample_interval, {}};
  TimeSeries s_cpu_a{"tigon_cpu_a_busy", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_cpu_b{"tigon_cpu_b_busy", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_sram{"tigon_sram_utilization", "fraction", cfg.run.sample_interval, {}};
  PeriodicProbe<UdpSnapshot> sampler;
  sampler.ctx = &ctx;
  sampler.interval = cfg.run.sample_interval;
  sampler.end = cfg.run.duration;
  const bool udp_peer = cfg.workload.kind == WorkloadKind::Udp;
  auto carried = [&](LinkDirection Port::*wire) {
    double sum = 0;
    for (const auto& p : ports) sum += ((*p).*wire).carried_payload(ctx.now());
    return sum;
  };
  sampler.take = [&]() {
    return UdpSnapshot{bus.busy_total(ctx.now()),
                       bus.data_total(ctx.now()),
                       host.busy_total(ctx.now()),
                       bus.transactions(),
                       bus.refusals(),
                       bridge.writes(),
                       dma_refusals(),
                       bridge.reads(),
                       bus.cycles_at(ctx.now()),
                       tally,
                       first.tigon ? first.tigon->stats() : TigonStats{},
                       {first.tigon ? first.tigon->cpu_busy_at(0, ctx.now()) : 0,
                        first.tigon ? first.tigon->cpu_busy_at(1, ctx.now()) : 0},
                       {first.tigon ? first.tigon->cpu_spin_at(0, ctx.now()) : 0,
                        first.tigon ? first.tigon->cpu_spin_at(1, ctx.now()) : 0},
                       first.tigon ? first.tigon->sram_busy_at(ctx.now()) : 0,
                       carried(&Port::to_peer),
                       carried(&Port::to_nic)};
  };
  sampler.sample = [&](const UdpSnapshot& last, const UdpSnapshot& now) {
    const Time dt = cfg.run.sample_interval;
    s_send.values.push_back(static_cast<double>(first.send.pending(Copy::Host)));
    s_recv.values.push_back(static_cast<double>(first.receive.pending(Copy::Nic)));
    s_txbuf.values.push_back(static_cast<double>(first.nic.tx_buffer_used()) / 1024.0);
    s_rxbuf.values.push_back(static_cast<double>(first.nic.rx_buffer_used()) / 1024.0);
    // Busy cycles over the sample's cycles, as the window's bus_utilization: busy time over dt
    // counted a cycle begun before the sample's edge twice and read above 1 (100.005%).
    s_bus.values.push_back(bus_cycle_share(last.bus_cycles, now.bus_cycles, false));
    // At the wire, like the window's rates: deliveries to the host come in bursts, one per
    // interrupt, and a 100 us sample of them reads far above the link. Receive is what the
    // wire brought less what the NICs dropped in the sample.
    const double dropped =
        static_cast<double>((now.tally.drops_no_descriptor - last.tally.drops_no_descriptor) +
                            (now.tally.drops_buffer_full - last.tally.drops_buffer_full)) *
        static_cast<double>(cfg.workload.datagram_bytes);
    const double us = static_cast<double>(dt) / 1e6;
    s_tx.values.push_back((now.wire_tx - last.wire_tx) * 8.0 / us);
    s_rx.values.push_back(udp_peer ? (now.wire_rx - last.wire_rx - dropped) * 8.0 / us : 0.0);
    if (first.tigon) {
      s_cpu_a.values.push_back(fraction(now.tigon_busy[0] - last.tigon_busy[0], dt));
      s_cpu_b.values.push_back(fraction(now.tigon_busy[1] - last.tigon_busy[1], dt));
      s_sram.values.push_back(first.tigon->sram_utilization(ctx.now()));
    }
  };
  ctx.at(cfg.run.sample_interval, &sampler, 0, kPriorityStats);
  ctx.at(cfg.run.warmup, &sampler, 1, kPriorityStats);
  ctx.record(Component::HostCpu,
             rec::RunStart()
                 .direction(static_cast<std::uint32_t>(cfg.workload.direction))
                 .datagram_bytes(static_cast<std::uint32_t>(cfg.workload.datagram_bytes)));

  RingSnapshot snapshot;
  snapshot.watch(ports, &ctx, cfg.run.trace_start, with_trace);

  const bool benchmark = cfg.workload.kind == WorkloadKind::CpuBenchmark;
  TigonBenchmark bench(&ctx, cfg.tigon, cfg.workload.benchmark_cpus, cfg.run.duration);
  if (benchmark) {
    bench.start();  // the CPUs run Table 3.5's loops; no traffic
  } else {
    host.start();
    for (auto& p : ports) p->peer.start();
    disk.start();
  }
  if (!run_to_end(cfg.run, &ctx, &out)) return out;

  const Time end = ctx.now();
  const Time window = end - cfg.run.warmup;
  const UdpSnapshot w = sampler.at_warmup;
  const Tally& t = tally;
  const std::uint64_t drops_nd = t.drops_no_descriptor - w.tally.drops_no_descriptor;
  const std::uint64_t drops_full = t.drops_buffer_full - w.tally.drops_buffer_full;
  const std::uint64_t interrupts = t.interrupts - w.tally.interrupts;
  const int directions = cfg.workload.direction == Direction::Bidirectional ? 2 : 1;
  send.occupancy().finish(end);

  auto add = [&](const char* name, double value) {
    for (const auto& m : result_metrics()) {
      if (std::strcmp(m.name, name) == 0) {
        out.metrics.push_back({name, value, m.unit});
        return;
      }
    }
    ctx.fail(std::string("metric not declared in result_metrics(): ") + name);
  };
  const bool tcp = cfg.workload.kind == WorkloadKind::TcpSegments;
  // The wire's limit on payload: payload / (frame + preamble + gap) of line rate, per direction
  // and per NIC.
  const std::int64_t payload = tcp ? cfg.workload.segment_bytes : cfg.workload.datagram_bytes;
  const std::int64_t frame =
      tcp ? cfg.workload.segment_header_bytes + cfg.workload.segment_bytes + kCrcBytes
          : frame_bytes(cfg.workload.datagram_bytes);
  const double link_payload =
      tcp ? static_cast<double>(cfg.link.rate_mbps) * static_cast<double>(payload) /
                static_cast<double>(frame + cfg.link.preamble_bytes + cfg.link.ifg_bytes)
          : ethernet_limit_mbps(cfg.link, cfg.workload.datagram_bytes);
  const Time slot = first.to_peer.slot_time(static_cast<std::uint32_t>(frame));
  const double nics = static_cast<double>(cfg.nics);
  // Rates are measured at the wire, each frame's payload spread over its slot: counted at the
  // host, deliveries come in bursts, one per interrupt, and a window that opens on a backlog
  // delivers more than the wire brings in it.
  const double wire_tx = carried(&Port::to_peer) - w.wire_tx;
  const double wire_rx = carried(&Port::to_nic) - w.wire_rx;
  const double datagram = static_cast<double>(payload);
  const double tx_packets_wire = payload > 0 ? wire_tx / datagram : 0.0;
  const double tx_limit = nics * link_payload;
  const double tx_mbps = window > 0 ? wire_tx * 8.0 * 1e6 / static_cast<double>(window) : 0.0;
  // Receive: what the host received in the window, less what it drew from a backlog the window
  // opened on: the lesser of the datagrams delivered and those the wire brought (whole slots)
  // less those the NICs dropped. By conservation the two differ by the change in what is held
  // between the wire and the host; a window whose backlog drains reads the second, one whose
  // backlog grows (a receiver slower than the wire, before its buffer fills) the first. At
  // steady state they agree, which the steady-state test checks with twice the window.
  const bool udp = cfg.workload.kind == WorkloadKind::Udp;  // the peer sends datagrams only
  const std::uint64_t rx_dropped = drops_nd + drops_full;
  const std::uint64_t rx_delivered = t.rx_packets - w.tally.rx_packets;
  const double rx_packets =
      udp ? std::min(static_cast<double>(rx_delivered),
                     std::max(0.0, wire_rx / datagram - static_cast<double>(rx_dropped)))
          : 0.0;
  const double rx_mbps =
      window > 0 ? rx_packets * datagram * 8.0 * 1e6 / static_cast<double>(window) : 0.0;
  const double rx_pps = window > 0 ? rx_packets * 1e12 / static_cast<double>(window) : 0.0;
  const double rx_limit = udp ? tx_limit : 0.0;
  // The bus moves each datagram once; what the NICs' transmit buffers held when the window
  // opened may have crossed it before.
  const double bus_limit =
      static_cast<double>(cfg.bus.width_bits) * 1e6 / static_cast<double>(bus.cycle()) +
      (window > 0 ? static_cast<double>(cfg.nics * cfg.nic.tx_buffer_bytes) * 8.0 * 1e6 /
                        static_cast<double>(window)
                  : 0.0);
  char what[200];
  std::snprintf(what, sizeof what,
                "%lld NIC(s), %lld-byte frames in %.3f us wire slots (preamble, frame, gap) at "
                "%lld Mb/s, a window of %.3f us",
                static_cast<long long>(cfg.nics), static_cast<long long>(frame),
                static_cast<double>(slot) / 1e6, static_cast<long long>(cfg.link.rate_mbps),
                static_cast<double>(window) / 1e6);
  const std::string rx_what = what;
  if (!tcp) {
    // A TCP-segment run moves content, not datagrams: its UDP rates are absent, not 0.
    add("udp_tx_throughput", tx_mbps);
    add("udp_rx_throughput", rx_mbps);
    add("udp_total_throughput", tx_mbps + rx_mbps);
    out.bounds.push_back({"udp_tx_throughput", tx_limit, what});
    out.bounds.push_back({"udp_rx_throughput", rx_limit, rx_what});
    out.bounds.push_back({"udp_total_throughput", tx_limit + rx_limit, rx_what});
    out.bounds.push_back({"udp_total_throughput", bus_limit,
                          "the bus's peak (width x clock), and the transmit buffers' content"});
  }
  add("content_throughput", tx_mbps);
  out.bounds.push_back({"content_throughput", tx_limit, what});
  add("ethernet_limit", static_cast<double>(directions) * nics * link_payload);
  add("frame_wire_time", static_cast<double>(slot) / 1e6);
  add("tx_packet_rate", window > 0 ? tx_packets_wire * 1e12 / static_cast<double>(window) : 0.0);
  out.bounds.push_back({"tx_packet_rate", nics * 1e12 / static_cast<double>(slot), what});
  add("rx_packet_rate", rx_pps);
  if (udp)
    out.bounds.push_back({"rx_packet_rate",
                          rx_limit * 1e6 / (8.0 * static_cast<double>(cfg.workload.datagram_bytes)),
                          rx_what});
  add("rx_drops_no_descriptor", static_cast<double>(drops_nd));
  add("rx_drops_buffer_full", static_cast<double>(drops_full));
  // Drops over the frames the NIC decided on in the window (dropped or taken into a host
  // buffer), both counted when it decided: frames the peer sent before the window and the NIC
  // dropped in it no longer count against the window's sends.
  const std::uint64_t accepted = t.rx_accepted - w.tally.rx_accepted;
  add("rx_drop_fraction", drops_nd + drops_full > 0
                              ? static_cast<double>(drops_nd + drops_full) /
                                    static_cast<double>(drops_nd + drops_full + accepted)
                              : 0.0);
  if (cfg.workload.kind == WorkloadKind::Udp) {
    // Receive-side conservation from time 0 (the peer sends UDP only; TCP runs add ACKs):
    // frames on the wire or in the NICs' receive buffers, then in host buffers.
    const std::uint64_t held =
        static_cast<std::uint64_t>(cfg.nics) *
        (static_cast<std::uint64_t>(cfg.nic.rx_buffer_bytes / kMinFrameBytes) + 2 +
         static_cast<std::uint64_t>(cfg.link.propagation / std::max<Time>(1, slot)));
    out.ledgers.push_back({"frames from the peer to the NIC's receive decision", t.peer_sent,
                           t.rx_accepted, t.drops_no_descriptor + t.drops_buffer_full, held});
    out.ledgers.push_back({"frames in host receive buffers, to delivery", t.rx_accepted,
                           t.rx_packets, 0,
                           static_cast<std::uint64_t>(cfg.nics * cfg.driver.receive_ring_size)});
    // Send-side conservation from time 0: every datagram the driver posted (one descriptor
    // each) has reached the peer, or is in the send ring, the NIC's transmit buffer or on the
    // wire.
    std::uint64_t posted = 0;
    for (const auto& p : ports) posted += p->send.prod(Copy::Host);
    const std::uint64_t in_flight =
        static_cast<std::uint64_t>(cfg.nics) *
        (static_cast<std::uint64_t>(cfg.driver.send_ring_size) +
         static_cast<std::uint64_t>(cfg.nic.tx_buffer_bytes / kMinFrameBytes) + 2 +
         static_cast<std::uint64_t>(cfg.link.propagation / std::max<Time>(1, slot)));
    out.ledgers.push_back(
        {"datagrams from the driver's send ring to the peer", posted, t.tx_packets, 0, in_flight});
  }
  const CycleCounts cycles_end = bus.cycles_at(end);
  add("bus_utilization", bus_cycle_share(w.bus_cycles, cycles_end, false));
  add("bus_data_fraction", bus_cycle_share(w.bus_cycles, cycles_end, true));
  add_bus_cycle_metrics(w.bus_cycles, cycles_end, bus.cycle(), add);
  add("bus_transactions", static_cast<double>(bus.transactions() - w.bus_transactions));
  add("host_cpu_utilization", fraction(host.busy_total(end) - w.cpu_busy, window));
  add("interrupts", static_cast<double>(interrupts));
  // Per-packet ratios count what the host handled in the window (the interrupts it took are
  // for those), not the wire's whole slots.
  const std::uint64_t handled =
      (t.tx_packets - w.tally.tx_packets) + (t.rx_packets - w.tally.rx_packets);
  add("interrupts_per_packet",
      handled > 0 ? static_cast<double>(interrupts) / static_cast<double>(handled) : 0.0);
  add("send_ring_full_stalls", static_cast<double>(t.send_ring_full - w.tally.send_ring_full));
  add("send_ring_occupancy_mean", send.occupancy().mean());
  add("pio_reads", static_cast<double>(bridge.reads() - w.pio_reads));
  add("mailbox_writes", static_cast<double>(bridge.writes() - w.mailbox_writes));
  add("dma_queue_full", static_cast<double>(dma_refusals() - w.dma_refusals));
  add("tx_buffer_full", static_cast<double>(t.tx_buffer_full - w.tally.tx_buffer_full));
  add("bus_refusals", static_cast<double>(bus.refusals() - w.bus_refusals));
  {
    // The Tigon (the thesis Ch.3): CPU time, handler profile (Fig 3.5), SRAM contention.
    TigonStats d{};
    Time busy[2] = {0, 0};
    double sram_util = 0;
    double lost = 0;
    if (first.tigon) {
      const TigonStats& a = w.tigon;
      const TigonStats& b = first.tigon->stats();
      for (int e = 0; e < kTigonEvents; ++e) {
        const auto i = static_cast<std::size_t>(e);
        d.handler_time[i] = b.handler_time[i] - a.handler_time[i];
        d.handler_runs[i] = b.handler_runs[i] - a.handler_runs[i];
      }
      for (int p = 0; p < kTigonPaths; ++p) {
        const auto i = static_cast<std::size_t>(p);
        d.path_time[i] = b.path_time[i] - a.path_time[i];
        d.path_runs[i] = b.path_runs[i] - a.path_runs[i];
      }
      for (std::size_t c = 0; c < 2; ++c) {
        busy[c] = first.tigon->cpu_busy_at(static_cast<int>(c), end) - w.tigon_busy[c];
        d.cpu_handlers[c] = b.cpu_handlers[c] - a.cpu_handlers[c];
        // A spin counts as it elapses, not when it ends (it may straddle either edge).
        d.cpu_spin[c] = first.tigon->cpu_spin_at(static_cast<int>(c), end) - w.tigon_spin[c];
      }
      d.sram_accesses = b.sram_accesses - a.sram_accesses;
      d.sram_wait = b.sram_wait - a.sram_wait;
      sram_util = fraction(first.tigon->sram_busy_at(end) - w.sram_busy, window);
      lost = static_cast<double>(b.units_in) - static_cast<double>(b.units_done) -
             static_cast<double>(first.tigon->work_outstanding());
    } else if (benchmark) {
      busy[0] = bench.busy(0);
      busy[1] = bench.busy(1);
    }
    Time handlers = 0;
    for (Time t : d.handler_time) handlers += t;
    // A NIC without the Tigon's CPUs has none of its metrics (absent, not 0).
    if (first.tigon || benchmark) {
      add("tigon_cpu_a_utilization", fraction(busy[0], benchmark ? end : window));
      add("tigon_cpu_b_utilization", fraction(busy[1], benchmark ? end : window));
    }
    if (first.tigon) {
      add("tigon_cpu_a_share", fraction(d.cpu_handlers[0], d.cpu_handlers[0] + d.cpu_handlers[1]));
#define NICSIM_X(name, label, kind, code_bytes) \
  add("tigon_share_" #name,                     \
      fraction(d.handler_time[static_cast<std::size_t>(TigonEvent::name)], handlers));
      NICSIM_TIGON_EVENTS(NICSIM_X)
#undef NICSIM_X
      const double packets = static_cast<double>(handled);
#define NICSIM_X(name, label, kind, code_bytes)                                               \
  add("tigon_runs_" #name,                                                                    \
      packets > 0                                                                             \
          ? static_cast<double>(d.handler_runs[static_cast<std::size_t>(TigonEvent::name)]) / \
                packets                                                                       \
          : 0.0);
      NICSIM_TIGON_EVENTS(NICSIM_X)
#undef NICSIM_X
      add("tigon_semaphore_spin", fraction(d.cpu_spin[0] + d.cpu_spin[1], window));
      add("tigon_sram_utilization", sram_util);
      add("tigon_sram_wait_ns", d.sram_accesses > 0 ? d.sram_wait / d.sram_accesses / 1000.0 : 0.0);
      auto mean_us = [&](TigonPath p) {
        const auto i = static_cast<std::size_t>(p);
        return d.path_runs[i] > 0
                   ? static_cast<double>(d.path_time[i]) / static_cast<double>(d.path_runs[i]) / 1e6
                   : 0.0;
      };
      add("tigon_send_data_time", mean_us(TigonPath::SendData));
      add("tigon_receive_time", mean_us(TigonPath::Receive));
      add("tigon_work_lost", lost);
    }
    if (benchmark) {  // Table 3.5's loops: only a benchmark run has them
      const BenchResult& br = bench.result();
      const int bc = (cfg.workload.benchmark_cpus & kCpuA) ? 0 : 1;
      add("bench_mips_a", br.value(0, BenchPhase::Instructions));
      add("bench_mips_b", br.value(1, BenchPhase::Instructions));
      add("bench_load_latency_sram_ns", br.value(bc, BenchPhase::LoadLatencySram));
      add("bench_load_latency_scratch_ns", br.value(bc, BenchPhase::LoadLatencyScratch));
      add("bench_load_bw_sram", br.value(bc, BenchPhase::LoadBandwidthSram));
      add("bench_load_bw_scratch", br.value(bc, BenchPhase::LoadBandwidthScratch));
      add("bench_store_bw_sram", br.value(bc, BenchPhase::StoreBandwidthSram));
      add("bench_store_bw_scratch", br.value(bc, BenchPhase::StoreBandwidthScratch));
    }
  }
  add("events", static_cast<double>(ctx.model_events()));
  add("sim_time", static_cast<double>(end) / 1e6);
  add("window", static_cast<double>(window) / 1e6);
  if (ctx.failed()) {
    out.fault = ctx.fault();
    return out;
  }

  out.series = {s_send, s_recv, s_txbuf, s_rxbuf, s_bus, s_tx, s_rx};
  if (first.tigon) out.series.insert(out.series.end(), {s_cpu_a, s_cpu_b, s_sram});
  finish_rings_and_trace({&first.send, &first.receive, &first.ret}, end, window, cfg.run, &ctx,
                         &out);
  return out;
}

}  // namespace

bool run_to_end(const RunConfig& run, SimContext* ctx, RunOutput* out) {
  ctx->run_until(run.duration);
  ctx->trace.flush(run.duration);
  if (!ctx->failed()) return true;
  out->fault = ctx->fault();
  return false;
}

void finish_rings_and_trace(const std::vector<DescriptorRing*>& rings, Time end, Time window,
                            const RunConfig& run, SimContext* ctx, RunOutput* out) {
  for (DescriptorRing* r : rings) {
    r->occupancy().finish(end);
    const auto& h = r->occupancy();
    Histogram hist{h.name(), h.unit(), h.bin_width(), {}};
    for (Time wgt : h.weights()) hist.weights.push_back(fraction(wgt, window));
    out->histograms.push_back(hist);
  }
  out->trace_dropped = ctx->trace.dropped();
  out->trace_start = run.trace_start;
  out->trace_end = run.trace_end;
  out->trace = ctx->trace.take();
}

namespace {
class NullHandler final : public EventHandler {
 public:
  SimContext* ctx = nullptr;
  std::uint64_t remaining = 0;
  void fire(std::uint32_t tag) override {
    if (remaining == 0) return;
    --remaining;
    ctx->after(1000 + (tag & 7), this, tag + 1);
  }
};
}  // namespace

std::uint64_t run_null_loop(std::uint64_t events) {
  SimContext ctx(1, 0, 0, 0);
  NullHandler h[16];
  const std::uint64_t per = events / 16;
  for (int i = 0; i < 16; ++i) {
    h[i].ctx = &ctx;
    h[i].remaining = per;
    ctx.at(i, &h[i], static_cast<std::uint32_t>(i));
  }
  ctx.run_until(INT64_MAX);
  return ctx.queue.fired();
}

}  // namespace nicsim
