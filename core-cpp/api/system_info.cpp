#include "api/system_info.hpp"

#include "nic/tigon/cost_model.hpp"
#include "scenario/params.hpp"
#include "sinic/net.hpp"

namespace nicsim::api {

namespace {

bool is_cnic(NicModel m) { return m == NicModel::CnicOffChip || m == NicModel::CnicOnChip; }

// Where an event's handler runs: "A", "B", "both" (under the semaphore), "none", or "either"
// (dynamic dispatch: whichever CPU takes it from the shared register, §3.6).
const char* place_name(std::uint8_t mask, bool dynamic) {
  if (dynamic && mask == kCpuBoth) return "either";
  return mask == kCpuA ? "A" : mask == kCpuB ? "B" : mask == kCpuBoth ? "both" : "none";
}

Json bus_json(const Config& c) {
  const BusConfig& b = c.bus;
  Json j = {{"model", b.model == BusModel::Fixed ? "fixed" : "pci"},
            {"protocol", b.protocol == BusProtocol::PciX ? "pci-x" : "pci"},
            {"width_bits", b.width_bits},
            {"clock_mhz", b.clock_mhz},
            {"cycle_ps", b.cycle()}};
  if (b.model == BusModel::Fixed) {
    j["overhead_cycles"] = b.overhead_cycles;
    return j;
  }
  j["arbitration_cycles"] = b.arbitration_cycles;
  j["memory_latency_ps"] = b.memory_latency;
  j["write_wait_cycles"] = b.write_wait_cycles;
  j["target_wait_cycles"] = b.target_wait_cycles;
  j["initial_latency_limit_cycles"] = b.initial_latency_limit;
  j["delayed_slots"] = b.delayed_slots;
  j["retry_gap_cycles"] = b.retry_gap_cycles;
  j["retry_gap_ps"] = b.retry_gap();
  j["read_disconnect_bytes"] = b.read_disconnect_bytes;
  j["bridge_read_mbps"] = b.bridge_read_mbps;
  j["write_buffer_bytes"] = b.write_buffer_bytes;
  j["latency_timer_cycles"] = b.latency_timer;
  j["dual_address"] = b.dual_address;
  j["mmrbc_bytes"] = b.protocol == BusProtocol::PciX ? Json(b.mmrbc) : Json();
  return j;
}

Json frame_json(const Config& c) {
  const WorkloadKind k = c.workload.kind;
  const bool stream = k == WorkloadKind::TcpStream;
  // Bytes before the payload of a TCP frame: from the workload (tcp-segments), the web server's
  // segmentation (thesis §4.4) or the SINIC host's TCP with timestamps (the SINIC paper §5.2).
  Json segment_header;
  if (k == WorkloadKind::TcpSegments) segment_header = c.workload.segment_header_bytes;
  if (k == WorkloadKind::Web) segment_header = Segmentation{}.network_header_bytes;
  if (stream) segment_header = kTcpIpEthHeaderBytes;
  Json tcp_header;
  if (segment_header.is_number())
    tcp_header = segment_header.get<std::int64_t>() - kEthernetHeaderBytes - kIpHeaderBytes;
  return {{"ethernet_header_bytes", kEthernetHeaderBytes},
          {"ip_header_bytes", kIpHeaderBytes},
          {"udp_header_bytes", k == WorkloadKind::Udp ? Json(kUdpHeaderBytes) : Json()},
          {"tcp_header_bytes", tcp_header},
          {"segment_header_bytes", segment_header},
          {"crc_bytes", kCrcBytes},
          // The SINIC runs record frames without their CRC; the wire adds it.
          {"crc_in_frame", !stream},
          {"min_frame_bytes", stream ? Json() : Json(kMinFrameBytes)},
          {"mtu_bytes", stream ? c.sinic.tcp.mtu : kMtuBytes},
          {"preamble_bytes", c.link.preamble_bytes},
          {"ifg_bytes", c.link.ifg_bytes}};
}

Json rings_json(const Config& c) {
  if (is_cnic(c.nic_model)) {
    return {{"send", c.sinic.cnic.ring_entries},
            {"receive", c.sinic.cnic.ring_entries},
            {"return", Json()},
            {"send_bd_bytes", Json()},
            {"receive_bd_bytes", Json()},
            {"return_bd_bytes", Json()},
            {"index_bytes", Json()},
            {"dma_queue_depth", Json()}};
  }
  return {{"send", c.driver.send_ring_size},
          {"receive", c.driver.receive_ring_size},
          {"return", c.driver.return_ring_size},
          {"send_bd_bytes", c.nic.send_bd_bytes},
          {"receive_bd_bytes", c.nic.receive_bd_bytes},
          {"return_bd_bytes", c.nic.return_bd_bytes},
          {"index_bytes", c.nic.index_bytes},
          {"dma_queue_depth", c.nic.dma_queue_depth}};
}

Json tigon_json(const Config& c) {
  const TigonConfig& t = c.tigon;
  const TigonPartition p = tigon_partition(t.firmware, t.partition);
  const bool dynamic = t.firmware == TigonFirmware::Dynamic;
  // As TigonNic decides it: PARALLEL-style firmware publishes the send consumer for the driver
  // to read by PIO (§3.2.2), else Update Send Consumer DMAs it.
  const bool usc_by_dma = !c.nic.send_consumer_by_pio;
  const TigonPartition t34 = tigon_table_3_4();
  Json events = Json::array(), paths = Json::array(), table = Json::array();
  std::uint32_t masks[2] = {0, 0};
  for (int e = 0; e < kTigonEvents; ++e) {
    const auto ev = static_cast<TigonEvent>(e);
    const std::uint8_t where = p[static_cast<std::size_t>(e)];
    bool lock = false;
    for (int cpu = 0; cpu < 2; ++cpu) {
      if (!tigon_cpu_runs(t.firmware, cpu) || !(where & (1 << cpu))) continue;
      masks[cpu] |= 1u << e;
      lock = lock || tigon_lock_needed(t.firmware, p, usc_by_dma, cpu, ev);
    }
    events.push_back({{"name", tigon_event_name(ev)},
                      {"label", tigon_event_label(ev)},
                      {"hardware", tigon_event_is_hardware(ev)},
                      {"code_bytes", tigon_code_bytes(ev)},
                      {"parameter", "system.tigon.partition." + snake_case(tigon_event_name(ev))},
                      {"cpu", place_name(where, dynamic)},
                      {"semaphore", lock}});
    table.push_back(place_name(t34[static_cast<std::size_t>(e)], false));
  }
  for (int q = 0; q < kTigonPaths; ++q) {
    const TigonPathInfo& info = tigon_path_info(static_cast<TigonPath>(q));
    paths.push_back(
        {{"name", info.name}, {"event", static_cast<int>(info.event)}, {"label", info.label}});
  }
  // What two handlers share (Tables 3.2 and 3.3), every pair that shares something, as this
  // system's Update Send Consumer publishes its index: the partition editor previews a layout
  // from it before the layout runs.
  Json shares = Json::array();
  for (int x = 0; x < kTigonEvents; ++x)
    for (int y = x + 1; y < kTigonEvents; ++y)
      for (const TigonShare& sh :
           tigon_shares(static_cast<TigonEvent>(x), static_cast<TigonEvent>(y), usc_by_dma))
        shares.push_back({{"a", x},
                          {"b", y},
                          {"kind", sh.kind},
                          {"what", sh.what},
                          {"source", sh.source},
                          {"lock", sh.lock}});
  Json cpus = Json::array();
  for (int cpu = 0; cpu < 2; ++cpu) {
    cpus.push_back({{"name", cpu == 0 ? "A" : "B"},
                    {"runs", tigon_cpu_runs(t.firmware, cpu)},
                    {"mask", masks[cpu]}});
  }
  // What each choice of system.tigon.firmware runs, as the parameter's own parser reads it
  // (the partition editor shows a requested firmware before its run is done).
  Json choices = Json::object();
  if (const ParamSpec* spec = find_param("system.tigon.firmware")) {
    for (const Json& name : spec->choices) {
      Config alt = c;
      spec->set(alt, name);
      const TigonFirmware f = alt.tigon.firmware;
      const TigonPartition q = tigon_partition(f, t.partition);
      Json places = Json::array();
      for (int e = 0; e < kTigonEvents; ++e)
        places.push_back(place_name(q[static_cast<std::size_t>(e)], f == TigonFirmware::Dynamic));
      choices[name.get<std::string>()] = {
          {"firmware", tigon_firmware_name(f)},
          {"cpu_b", tigon_cpu_runs(f, 1)},
          // Custom firmware runs the partition parameters, whatever they are asked to be.
          {"partition", f == TigonFirmware::Custom ? Json() : places}};
    }
  }
  return {{"firmware", tigon_firmware_name(t.firmware)},
          {"dispatch", dynamic ? "dynamic" : "static"},
          {"code_in_sram", t.code_in_sram},
          {"data_in_sram", t.data_in_sram},
          {"clock_ps", TigonCostModel(t).cycle()},
          {"events", events},
          {"paths", paths},
          {"cpus", cpus},
          // The dispatch loop (§3.1.2): PRI picks the most significant set bit of the event
          // register AND the CPU's mask. Send Data Ready and Receive Complete take turns: the
          // one that ran last is masked while the other is pending, so the mask recorded in
          // TigonRegister may lack one of those two bits; before a CPU's first record its mask
          // is `mask` above.
          {"priority", "highest set bit"},
          {"alternate",
           {tigon_event_name(TigonEvent::SendDataReady),
            tigon_event_name(TigonEvent::ReceiveComplete)}},
          {"table_3_4", table},
          {"send_consumer_by_dma", usc_by_dma},
          {"shares", shares},
          {"firmware_choices", choices}};
}

}  // namespace

Json system_json(const Config& c) {
  const bool stream = c.workload.kind == WorkloadKind::TcpStream;
  const bool cache_only =
      c.workload.kind == WorkloadKind::Web && c.workload.web_mode == WebMode::CacheOnly;
  const bool tigon = c.nic_model == NicModel::Tigon;
  // The PCI bus and descriptor rings are modelled except in the SINIC host (its own I/O link)
  // and the cache-only web runs (no bus at all).
  const bool has_bus = !stream && !cache_only;
  Json clocks = {
      {"bus", has_bus ? Json(c.bus.cycle()) : Json()},
      {"tigon_cpu", tigon ? Json(TigonCostModel(c.tigon).cycle()) : Json()},
      // The SINIC host counts its costs in cycles of its clock (the SINIC paper Table 1).
      {"host_cpu", stream ? Json(1000 / c.sinic.cpu.ghz) : Json()}};
  return {{"nic_model", nic_model_name(c.nic_model)},
          {"nics", c.nics},
          {"clocks_ps", clocks},
          {"bus", has_bus ? bus_json(c) : Json()},
          {"frame", frame_json(c)},
          {"rings", (has_bus || is_cnic(c.nic_model)) ? rings_json(c) : Json()},
          {"tigon", tigon ? tigon_json(c) : Json()}};
}

}  // namespace nicsim::api
