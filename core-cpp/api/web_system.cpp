// The web workload's full-system mode (the thesis §4.4-4.5, Tables 4.3-4.7): the prototype
// server with two Gigabit NICs on one PCI bus, every request through the host (web_server),
// the send rings, the bus, the NIC (with its data cache commands) and the wire, to clients
// with infinite demand. The file cache, the mmap cache and the NIC caches are warmed
// functionally over the trace's first workload.warmup_requests requests (no time); then the
// run simulates run.duration_us in detail and measures after run.warmup_us.
#include <algorithm>
#include <memory>

#include "api/system.hpp"
#include "bus/pci_bus.hpp"
#include "host/host_bridge.hpp"
#include "host/web_server.hpp"
#include "link/ethernet_link.hpp"
#include "nic/fixed_nic.hpp"
#include "nic/tigon/tigon_nic.hpp"
#include "scenario/scenario.hpp"
#include "sinic/sinic_ring_port.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {

namespace {

struct Snapshot {
  Time cpu = 0, disk = 0, bus_busy = 0;
  CycleCounts cycles{};
  WebCounters web;
  Tally tally;
  std::uint64_t cache_insertions = 0, cache_evictions = 0;
  Time tigon_busy[2] = {0, 0};  // the first NIC's CPUs, when it is a Tigon
  Time sram_busy = 0;
};

// One NIC with its rings, its wire in both directions and its clients. The NIC is whichever
// model system.nic.model names: the server's driver sees only the rings, the mailboxes and the
// interrupt line (the Tigon under thttpd is the thesis's Table 3.6).
struct WebNicPort {
  WebNicPort(SimContext* ctx, const Config& cfg, unsigned i, IoBus* bus, Tally* tally,
             const std::vector<WebRequest>* trace, WebCounters* counters)
      : send(ctx, RingId::Send, cfg.driver.send_ring_size, Copy::Host, cfg.run.warmup, i),
        receive(ctx, RingId::Receive, cfg.driver.receive_ring_size, Copy::Host, cfg.run.warmup, i),
        ret(ctx, RingId::Return, cfg.driver.return_ring_size, Copy::Nic, cfg.run.warmup, i),
        tigon(cfg.nic_model == NicModel::Tigon
                  ? new TigonNic(ctx, cfg, i, Rings{&send, &receive, &ret}, bus, tally)
                  : nullptr),
        device(
            tigon ? static_cast<NicDevice*>(tigon)
            : cfg.nic_model == NicModel::Sinic
                ? static_cast<NicDevice*>(
                      new SinicRingPort(ctx, cfg, i, Rings{&send, &receive, &ret}, bus, tally))
                : new FixedFunctionNic(ctx, cfg.nic, i, Rings{&send, &receive, &ret}, bus, tally)),
        nic(*device),
        client(ctx, cfg, i, &flow, trace, counters),
        to_client(ctx, cfg.link, &nic, &client),
        to_nic(ctx, cfg.link, &client, &nic) {
    nic.attach_tx_link(&to_client);
    client.attach(&to_nic);
  }
  DescriptorRing send, receive, ret;
  TigonNic* tigon;  // the same object as device when the model is the Tigon
  std::unique_ptr<NicDevice> device;
  NicDevice& nic;
  WebNicFlow flow;
  WebClient client;
  LinkDirection to_client, to_nic;
};

}  // namespace

RunOutput run_web_full_system(const Config& cfg, bool with_trace) {
  RunOutput out;
  const WebRequests source(cfg);
  const std::vector<WebRequest>* requests = source.list();
  if (requests == nullptr || requests->empty()) {
    out.fault = "web full-system: the trace has no requests";
    return out;
  }

  SimContext ctx(cfg.run.seed, cfg.run.trace_start, cfg.run.trace_end,
                 with_trace ? static_cast<std::uint64_t>(cfg.run.trace_max_records) : 0);
  Tally tally;
  WebCounters counters;
  PciBus bus(&ctx, cfg.bus);
  HostBridge bridge(&ctx, &bus, cfg.host.pio_buffer_entries);
  WebServer server(&ctx, cfg, &bridge, &bus, requests, &counters);
  std::vector<std::unique_ptr<WebNicPort>> ports;
  for (unsigned i = 0; i < static_cast<unsigned>(cfg.nics); ++i) {
    ports.push_back(std::make_unique<WebNicPort>(&ctx, cfg, i, &bus, &tally, requests, &counters));
    WebNicPort& p = *ports.back();
    p.nic.attach_interrupt(server.attach(Rings{&p.send, &p.receive, &p.ret}, &p.nic, &p.flow));
  }
  server.warm(std::min<std::uint64_t>(cfg.workload.warmup_requests, requests->size()));

  auto cache_count = [&](bool insertions) {
    std::uint64_t n = 0;
    for (unsigned i = 0; i < ports.size(); ++i) {
      const NicDataCache* c = server.port(i).cache.get();
      if (c) n += insertions ? c->counters().insertions : c->counters().evictions;
    }
    return n;
  };
  TimeSeries s_bus{"bus_utilization", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_web{"web_throughput", "Mb/s", cfg.run.sample_interval, {}};
  TimeSeries s_cpu{"host_cpu_busy", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_send{"send_ring_occupancy", "descriptors", cfg.run.sample_interval, {}};
  TimeSeries s_cpu_a{"tigon_cpu_a_busy", "fraction", cfg.run.sample_interval, {}};
  TimeSeries s_cpu_b{"tigon_cpu_b_busy", "fraction", cfg.run.sample_interval, {}};
  PeriodicProbe<Snapshot> probe;
  probe.ctx = &ctx;
  probe.interval = cfg.run.sample_interval;
  probe.end = cfg.run.duration;
  probe.take = [&]() {
    Snapshot s;
    s.cpu = server.busy_total(ctx.now());
    s.disk = server.disk_busy_total(ctx.now());
    s.bus_busy = bus.busy_total(ctx.now());
    s.cycles = bus.cycles_at(ctx.now());
    s.web = counters;
    s.tally = tally;
    s.cache_insertions = cache_count(true);
    s.cache_evictions = cache_count(false);
    if (const TigonNic* t = ports.front()->tigon) {
      s.tigon_busy[0] = t->cpu_busy_at(0, ctx.now());
      s.tigon_busy[1] = t->cpu_busy_at(1, ctx.now());
      s.sram_busy = t->sram_busy_at(ctx.now());
    }
    return s;
  };
  probe.sample = [&](const Snapshot& last, const Snapshot& now) {
    const Time dt = cfg.run.sample_interval;
    s_bus.values.push_back(bus_cycle_share(last.cycles, now.cycles, false));  // never above 1
    s_cpu.values.push_back(fraction(now.cpu - last.cpu, dt));
    s_web.values.push_back(static_cast<double>(now.web.content_bytes - last.web.content_bytes) *
                           8.0 * 1e12 / static_cast<double>(dt) / 1e6);
    s_send.values.push_back(static_cast<double>(ports.front()->send.pending(Copy::Host)));
    if (ports.front()->tigon) {
      s_cpu_a.values.push_back(fraction(now.tigon_busy[0] - last.tigon_busy[0], dt));
      s_cpu_b.values.push_back(fraction(now.tigon_busy[1] - last.tigon_busy[1], dt));
    }
  };
  ctx.at(cfg.run.sample_interval, &probe, 0, kPriorityStats);
  ctx.at(cfg.run.warmup, &probe, 1, kPriorityStats);
  ctx.record(Component::HostCpu, rec::RunStart().direction(0).datagram_bytes(0));

  RingSnapshot snapshot;
  snapshot.watch(ports, &ctx, cfg.run.trace_start, with_trace);

  server.start();
  for (auto& p : ports) p->client.start();
  if (!run_to_end(cfg.run, &ctx, &out)) return out;

  const Time end = ctx.now();
  const Time window = end - cfg.run.warmup;
  const Snapshot a = probe.at_warmup;
  const Snapshot b = probe.take();
  auto add = [&](const char* name, double value) { add_metric(&out, name, value); };
  auto d = [](std::uint64_t x, std::uint64_t y) { return static_cast<double>(x - y); };
  const double secs = static_cast<double>(window) / 1e12;
  const double content = d(b.web.content_bytes, a.web.content_bytes);
  const double responses = d(b.web.responses, a.web.responses);
  // Mb/s of 10^6 bit/s like every rate here; Tables 4.3-4.7 count Mb as 2^20 bits, so their
  // values are 1.048576 times smaller (the presets' references convert them).
  const double throughput = secs > 0 ? content * 8.0 / secs / 1e6 : 0.0;
  const double cpu = fraction(b.cpu - a.cpu, window);
  const double disk = fraction(b.disk - a.disk, window);
  const double bus_util = bus_cycle_share(a.cycles, b.cycles, false);
  add("web_throughput", throughput);
  add("content_throughput", throughput);
  if (window > 0) {
    // Content reaches the clients over the NICs' wires: never more than their line rate (the
    // headers, preambles and gaps keep it well under, so no allowance for the window's edge).
    const double line = static_cast<double>(cfg.nics * cfg.link.rate_mbps);
    const std::string what =
        std::to_string(cfg.nics) + " NIC(s) at " + std::to_string(cfg.link.rate_mbps) + " Mb/s";
    out.bounds.push_back({"content_throughput", line, what});
    out.bounds.push_back({"web_throughput", line, what});
    const Time min_slot = ports.front()->to_client.slot_time(kMinFrameBytes);
    out.bounds.push_back({"tx_packet_rate",
                          static_cast<double>(cfg.nics) * 1e12 / static_cast<double>(min_slot),
                          what});
  }
  {
    // Conservation of content from time 0: every byte the server planned into a response has
    // reached a client, or belongs to a response still on its way (posted or not yet, in the
    // ring, the NIC or on the wire), whose unreceived bytes the clients' flows hold.
    std::uint64_t on_the_way = 0;
    for (const auto& p : ports)
      for (const auto& r : p->flow.responses) on_the_way += r.content_bytes - r.received_bytes;
    out.ledgers.push_back({"content bytes from the server's responses to the clients",
                           b.web.planned_content, b.web.content_bytes, 0, on_the_way});
  }
  add("web_request_rate", secs > 0 ? responses / secs : 0.0);
  // A window of a few hundred ms samples the trace's mix unevenly; Tables 4.4-4.7's req/s is
  // the whole trace's (req/s x mean response x 8 / 2^20 = Mb/s of 2^20 bits exactly for NASA and
  // WC, §4.5).
  const double mean_response = source.summary().average_response_bytes;
  add("web_request_rate_trace_mix",
      secs > 0 && mean_response > 0 ? content / secs / mean_response : 0.0);
  add("web_window_response_bytes", responses > 0 ? content / responses : 0.0);
  add("web_average_response_bytes", mean_response);
  add("web_requests", responses);
  add("web_content_mb", content / 1e6);
  add("host_cpu_utilization", cpu);
  add("web_disk_utilization", disk);
  add("bus_utilization", bus_util);
  // The busiest resource is the bottleneck (the thesis §4.4): 0 the bus, 1 the CPU, 2 the disk.
  const double bottleneck = disk >= cpu && disk >= bus_util ? 2.0 : cpu >= bus_util ? 1.0 : 0.0;
  add("web_bottleneck", bottleneck);
  if (ports.front()->tigon) {
    // The Tigon's two CPUs and its SRAM (the thesis §3.2): what limits it under thttpd when
    // neither the bus nor the host CPU is busy (Table 3.6).
    add("tigon_cpu_a_utilization", fraction(b.tigon_busy[0] - a.tigon_busy[0], window));
    add("tigon_cpu_b_utilization", fraction(b.tigon_busy[1] - a.tigon_busy[1], window));
    add("tigon_sram_utilization", fraction(b.sram_busy - a.sram_busy, window));
  }
  const double served = d(b.web.served, a.web.served);
  // write(): the share of requests whose file thttpd had to mmap again (Table 4.3).
  add("web_mmap_miss_rate", served > 0 ? d(b.web.mmap_misses, a.web.mmap_misses) / served : 0.0);
  add("web_copied_mb", d(b.web.copied_bytes, a.web.copied_bytes) / 1e6);
  add("web_copy_miss_rate", served > 0 ? d(b.web.copy_misses, a.web.copy_misses) / served : 0.0);
  add("web_file_cache_hit_rate",
      served > 0 ? d(b.web.file_cache_hits, a.web.file_cache_hits) / served : 0.0);
  // Content on the bus (by the NIC: append_mm content and inserts) and from the NIC caches.
  const double inserted = d(b.tally.cache_insert_bytes, a.tally.cache_insert_bytes);
  const double planned = d(b.web.planned_content, a.web.planned_content);
  const double from_cache = d(b.web.planned_from_cache, a.web.planned_from_cache);
  const double nic_cache = d(b.tally.tx_cache_hit_bytes, a.tally.tx_cache_hit_bytes);
  add("web_nic_cache_mb", nic_cache / 1e6);
  add("web_cache_insert_mb", inserted / 1e6);
  add("web_bus_content_mb", (planned - from_cache) / 1e6);
  add("content_traffic_reduction", planned > 0 ? from_cache / planned : 0.0);
  add("cache_insertions", d(b.cache_insertions, a.cache_insertions));
  add("cache_evictions", d(b.cache_evictions, a.cache_evictions));
  add("cache_slots",
      cfg.nic_cache.capacity_bytes > 0
          ? static_cast<double>(cfg.nic_cache.capacity_bytes / cfg.nic_cache.block_bytes)
          : 0.0);
  const double packets = d(b.web.packets_posted, a.web.packets_posted);
  add("web_packets_per_request", served > 0 ? packets / served : 0.0);
  add("web_descriptors_per_packet",
      packets > 0 ? d(b.web.descriptors, a.web.descriptors) / packets : 0.0);
  add("web_acks_per_request",
      responses > 0 ? d(b.web.acks_received, a.web.acks_received) / responses : 0.0);
  add("web_cpu_per_request",
      responses > 0 ? static_cast<double>(b.cpu - a.cpu) / 1e6 / responses : 0.0);
  add_bus_cycle_metrics(a.cycles, b.cycles, bus.cycle(), add);
  add("bus_transactions", static_cast<double>(bus.transactions()));
  add("tx_packet_rate", secs > 0 ? d(b.tally.tx_packets, a.tally.tx_packets) / secs : 0.0);
  add("interrupts", d(b.web.interrupts, a.web.interrupts));
  add("events", static_cast<double>(ctx.model_events()));
  add("sim_time", static_cast<double>(end) / 1e6);
  add("window", static_cast<double>(window) / 1e6);
  if (!out.fault.empty()) return out;

  out.series = {s_bus, s_web, s_cpu, s_send};
  if (ports.front()->tigon) out.series.insert(out.series.end(), {s_cpu_a, s_cpu_b});
  WebNicPort& first = *ports.front();
  finish_rings_and_trace({&first.send, &first.receive, &first.ret}, end, window, cfg.run, &ctx,
                         &out);
  return out;
}

}  // namespace nicsim
