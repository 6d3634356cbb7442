// workload.kind "ip-router" (the thesis §3.4.2, Table 3.6): Click forwarding between two NICs
// on the Ch.3 server, two clients sending into them at line rate. The router's throughput is
// the packets the clients get back, per second.
#include <memory>

#include "api/system.hpp"
#include "bus/pci_bus.hpp"
#include "host/host_bridge.hpp"
#include "link/ethernet_link.hpp"
#include "nic/fixed_nic.hpp"
#include "nic/tigon/tigon_nic.hpp"
#include "scenario/scenario.hpp"
#include "workload/ip_router.hpp"

namespace nicsim {

namespace {

struct RouterSnapshot {
  Time cpu = 0;
  CycleCounts cycles{};
  std::uint64_t sent = 0, received = 0, queue_drops = 0, interrupts = 0;
  Time tigon_busy[2] = {0, 0};  // the first NIC's CPUs, when it is a Tigon
  Time sram_busy = 0;
};

// One NIC with its rings, its wire in both directions and its client.
struct RouterPort {
  RouterPort(SimContext* ctx, const Config& cfg, unsigned i, IoBus* bus, Tally* tally)
      : send(ctx, RingId::Send, cfg.driver.send_ring_size, Copy::Host, cfg.run.warmup, i),
        receive(ctx, RingId::Receive, cfg.driver.receive_ring_size, Copy::Host, cfg.run.warmup, i),
        ret(ctx, RingId::Return, cfg.driver.return_ring_size, Copy::Nic, cfg.run.warmup, i),
        tigon(cfg.nic_model == NicModel::Tigon
                  ? new TigonNic(ctx, cfg, i, Rings{&send, &receive, &ret}, bus, tally)
                  : nullptr),
        device(tigon ? static_cast<NicDevice*>(tigon)
                     : new FixedFunctionNic(ctx, cfg.nic, i, Rings{&send, &receive, &ret}, bus,
                                            tally)),
        nic(*device),
        client(ctx, cfg, i),
        to_client(ctx, cfg.link, &nic, &client),
        to_nic(ctx, cfg.link, &client, &nic) {
    nic.attach_tx_link(&to_client);
    client.attach(&to_nic);
  }
  DescriptorRing send, receive, ret;
  TigonNic* tigon;  // the same object as device when the model is the Tigon
  std::unique_ptr<NicDevice> device;
  NicDevice& nic;
  RouterClient client;
  LinkDirection to_client, to_nic;
};

}  // namespace

RunOutput run_ip_router(const Config& cfg, bool with_trace) {
  RunOutput out;
  SimContext ctx(cfg.run.seed, cfg.run.trace_start, cfg.run.trace_end,
                 with_trace ? static_cast<std::uint64_t>(cfg.run.trace_max_records) : 0);
  Tally tally;
  PciBus bus(&ctx, cfg.bus);
  HostBridge bridge(&ctx, &bus, cfg.host.pio_buffer_entries);
  IpRouter router(&ctx, cfg, &bridge);
  std::vector<std::unique_ptr<RouterPort>> ports;
  for (unsigned i = 0; i < static_cast<unsigned>(cfg.nics); ++i) {
    ports.push_back(std::make_unique<RouterPort>(&ctx, cfg, i, &bus, &tally));
    RouterPort& p = *ports.back();
    p.nic.attach_interrupt(router.attach(Rings{&p.send, &p.receive, &p.ret}, &p.nic));
  }
  RouterPort& first = *ports.front();

  TimeSeries s_rate{"router_packet_rate", "kpps", cfg.run.sample_interval, {}};
  TimeSeries s_bus{"bus_utilization", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_cpu{"host_cpu_busy", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_cpu_a{"tigon_cpu_a_busy", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_cpu_b{"tigon_cpu_b_busy", "fraction", cfg.run.sample_interval, {}};
  PeriodicProbe<RouterSnapshot> probe;
  probe.ctx = &ctx;
  probe.interval = cfg.run.sample_interval;
  probe.end = cfg.run.duration;
  probe.take = [&]() {
    RouterSnapshot s;
    s.cpu = router.busy_total(ctx.now());
    s.cycles = bus.cycles_at(ctx.now());
    for (const auto& p : ports) {
      s.sent += p->client.sent();
      s.received += p->client.received();
    }
    s.queue_drops = router.counters().queue_drops;
    s.interrupts = router.counters().interrupts;
    if (first.tigon) {
      s.tigon_busy[0] = first.tigon->cpu_busy_at(0, ctx.now());
      s.tigon_busy[1] = first.tigon->cpu_busy_at(1, ctx.now());
      s.sram_busy = first.tigon->sram_busy_at(ctx.now());
    }
    return s;
  };
  probe.sample = [&](const RouterSnapshot& last, const RouterSnapshot& now) {
    const Time dt = cfg.run.sample_interval;
    s_rate.values.push_back(static_cast<double>(now.received - last.received) * 1e9 /
                            static_cast<double>(dt));
    // Busy cycles over the sample's cycles, as the window's bus_utilization (busy time over dt
    // counts a cycle begun before the sample's edge twice).
    s_bus.values.push_back(bus_cycle_share(last.cycles, now.cycles, false));
    s_cpu.values.push_back(fraction(now.cpu - last.cpu, dt));
    if (first.tigon) {
      s_cpu_a.values.push_back(fraction(now.tigon_busy[0] - last.tigon_busy[0], dt));
      s_cpu_b.values.push_back(fraction(now.tigon_busy[1] - last.tigon_busy[1], dt));
    }
  };
  ctx.at(cfg.run.sample_interval, &probe, 0, kPriorityStats);
  ctx.at(cfg.run.warmup, &probe, 1, kPriorityStats);
  ctx.record(Component::HostCpu, rec::RunStart().direction(2).datagram_bytes(
                                     static_cast<std::uint32_t>(cfg.workload.datagram_bytes)));
  RingSnapshot snapshot;
  snapshot.watch(ports, &ctx, cfg.run.trace_start, with_trace);

  router.start();
  for (auto& p : ports) p->client.start();
  if (!run_to_end(cfg.run, &ctx, &out)) return out;

  const Time end = ctx.now();
  const Time window = end - cfg.run.warmup;
  const RouterSnapshot a = probe.at_warmup;
  const RouterSnapshot b = probe.take();
  auto add = [&](const char* name, double value) { add_metric(&out, name, value); };
  const double secs = static_cast<double>(window) / 1e12;
  const double received = static_cast<double>(b.received - a.received);
  const double sent = static_cast<double>(b.sent - a.sent);
  add("router_packet_rate", secs > 0 ? received / secs / 1000.0 : 0.0);
  add("router_offered_rate", secs > 0 ? sent / secs / 1000.0 : 0.0);
  add("router_loss", sent > 0 ? std::max(0.0, 1.0 - received / sent) : 0.0);
  add("router_queue_drops", static_cast<double>(b.queue_drops - a.queue_drops));
  add("host_cpu_utilization", fraction(b.cpu - a.cpu, window));
  add("bus_utilization", bus_cycle_share(a.cycles, b.cycles, false));
  if (first.tigon) {
    add("tigon_cpu_a_utilization", fraction(b.tigon_busy[0] - a.tigon_busy[0], window));
    add("tigon_cpu_b_utilization", fraction(b.tigon_busy[1] - a.tigon_busy[1], window));
    add("tigon_sram_utilization", fraction(b.sram_busy - a.sram_busy, window));
  }
  add_bus_cycle_metrics(a.cycles, b.cycles, bus.cycle(), add);
  add("bus_transactions", static_cast<double>(bus.transactions()));
  add("interrupts", static_cast<double>(b.interrupts - a.interrupts));
  add("events", static_cast<double>(ctx.model_events()));
  add("sim_time", static_cast<double>(end) / 1e6);
  add("window", static_cast<double>(window) / 1e6);
  if (window > 0) {
    // Each client's wire carries at most one minimum-size frame per slot (the router forwards
    // far below that, so no allowance for the window's edge).
    const Time slot = first.to_client.slot_time(kMinFrameBytes);
    out.bounds.push_back({"router_packet_rate",
                          static_cast<double>(cfg.nics) * 1e9 / static_cast<double>(slot),
                          std::to_string(cfg.nics) + " links at " +
                              std::to_string(cfg.link.rate_mbps) + " Mb/s, 64-byte frames"});
  }
  {
    // Conservation from time 0: every packet a client sent has come back to a client, was
    // dropped (no receive descriptor, a full NIC buffer, or Click's queue), or is still held on
    // a wire, in a NIC's buffers or in a ring.
    std::uint64_t sent_total = 0, received_total = 0;
    for (const auto& p : ports) {
      sent_total += p->client.sent();
      received_total += p->client.received();
    }
    const Time slot = first.to_client.slot_time(kMinFrameBytes);
    const std::uint64_t per_nic =
        static_cast<std::uint64_t>(cfg.nic.rx_buffer_bytes / kMinFrameBytes) +
        static_cast<std::uint64_t>(cfg.nic.tx_buffer_bytes / kMinFrameBytes) +
        static_cast<std::uint64_t>(cfg.driver.receive_ring_size) +
        static_cast<std::uint64_t>(cfg.driver.send_ring_size) + 4 +
        2 * static_cast<std::uint64_t>(cfg.link.propagation / std::max<Time>(1, slot));
    out.ledgers.push_back(
        {"packets from the clients through the router back to the clients", sent_total,
         received_total,
         tally.drops_no_descriptor + tally.drops_buffer_full + router.counters().queue_drops,
         static_cast<std::uint64_t>(cfg.nics) * per_nic});
  }
  if (!out.fault.empty()) return out;
  out.series = {s_rate, s_bus, s_cpu};
  if (first.tigon) out.series.insert(out.series.end(), {s_cpu_a, s_cpu_b});
  finish_rings_and_trace({&first.send, &first.receive, &first.ret}, end, window, cfg.run, &ctx,
                         &out);
  return out;
}

}  // namespace nicsim
