#include "scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <set>

#include "scenario/compare.hpp"
#include "scenario/limits.hpp"
#include "scenario/model_metrics.hpp"
#include "scenario/params.hpp"
#include "scenario/tour.hpp"
#include "trace/trace_kinds.hpp"
#include "workload/access_log.hpp"

namespace nicsim {

const std::vector<MetricInfo>& result_metrics() {
  static const std::vector<MetricInfo> metrics = {
      {"udp_tx_throughput", "Mb/s", "UDP payload the host sent, as received by the peer"},
      {"udp_rx_throughput", "Mb/s",
       "UDP payload the host received, as delivered to the stack (between whole interrupt bursts)"},
      {"udp_total_throughput", "Mb/s", "Sum of both directions"},
      {"content_throughput", "Mb/s",
       "Payload the host sent (UDP payload or TCP segment content), as received by the peer"},
      {"ethernet_limit", "Mb/s",
       "Theoretical UDP payload limit of the wire, both directions if bidirectional"},
      {"frame_wire_time", "µs",
       "Time one frame of this size holds the wire: preamble, frame and inter-frame gap"},
      {"tx_packet_rate", "packets/s", "Datagrams sent per second"},
      {"rx_packet_rate", "packets/s", "Datagrams received per second"},
      {"rx_drops_no_descriptor", "packets",
       "Frames dropped in the measured window: no receive buffer for them"},
      {"rx_drops_buffer_full", "packets",
       "Frames dropped in the measured window: NIC receive buffer full"},
      {"rx_drop_fraction", "fraction", "Dropped frames over frames the peer sent"},
      {"bus_utilization", "fraction", "Share of bus time busy with transactions"},
      {"bus_data_fraction", "fraction",
       "Share of bus time moving data (the rest of busy is overhead)"},
      {"bus_transactions", "transactions", "Bus tenures in the measured window"},
      {"bus_cycles", "cycles", "Bus clock cycles in the measured window"},
      {"bus_cycle_time", "ps", "One bus clock cycle (33 MHz PCI: 30 000 ps)"},
      {"bus_util_content", "fraction", "Share of bus cycles moving packet content"},
      {"bus_util_network_headers", "fraction", "Share of bus cycles moving network headers"},
      {"bus_util_app_headers", "fraction", "Share of bus cycles moving application headers"},
      {"bus_util_descriptors", "fraction",
       "Share of bus cycles moving descriptors, ring indices and mailbox writes"},
      {"bus_util_other_devices", "fraction", "Share of bus cycles moving other devices' data"},
      {"bus_util_arbitration", "fraction", "Share of bus cycles spent in arbitration"},
      {"bus_util_address", "fraction",
       "Share of bus cycles spent in address (and attribute) phases"},
      {"bus_util_wait", "fraction",
       "Share of bus cycles spent waiting (memory stall, target waits)"},
      {"bus_util_retry", "fraction", "Share of bus cycles wasted by retried attempts"},
      {"bus_util_turnaround", "fraction",
       "Share of bus cycles in turnaround and idle cycles between transactions"},
      {"bus_util_idle", "fraction", "Share of bus cycles with no transaction"},
      {"bus_efficiency", "fraction", "Data cycles as a share of busy bus cycles"},
      {"bus_overhead_share", "fraction",
       "Overhead (arbitration, address, wait, retry, turnaround) as a share of bus traffic"},
      {"bus_content_share", "fraction", "Packet content as a share of bus traffic"},
      {"host_cpu_utilization", "fraction", "Share of host CPU time busy"},
      {"interrupts", "interrupts", "Interrupts in the measured window"},
      {"interrupts_per_packet", "interrupts/packet", "Interrupts per datagram sent or received"},
      {"send_ring_full_stalls", "stalls",
       "Times the driver found the send ring full (measured window)"},
      {"send_ring_occupancy_mean", "descriptors",
       "Time-average produced-but-unreported send descriptors (host copy)"},
      {"pio_reads", "reads", "Register reads by the driver over the bus (measured window)"},
      {"mailbox_writes", "writes", "Mailbox writes by the driver (measured window)"},
      {"dma_queue_full", "refusals",
       "Times a DMA channel's queue refused a request (measured window)"},
      {"tx_buffer_full", "waits",
       "Times a data fetch waited for transmit buffer space (measured window)"},
      {"bus_refusals", "refusals", "Times a master found the bus busy (measured window)"},
      {"tigon_cpu_a_utilization", "fraction",
       "Tigon CPU A: share of time in handlers, the dispatch loop and semaphore spins"},
      {"tigon_cpu_b_utilization", "fraction", "Tigon CPU B: the same"},
      {"tigon_cpu_a_share", "fraction",
       "Share of all handler time spent on CPU A (Table 3.4's partition: 47%)"},
#define NICSIM_X(name, label, kind, code_bytes) \
  {"tigon_share_" #name, "fraction", "Share of all handler time spent in " label " (Fig 3.5)"},
      NICSIM_TIGON_EVENTS(NICSIM_X)
#undef NICSIM_X
#define NICSIM_X(name, label, kind, code_bytes) \
  {"tigon_runs_" #name, "runs/packet", "Runs of the " label " handler per packet sent or received"},
          NICSIM_TIGON_EVENTS(NICSIM_X)
#undef NICSIM_X
              {"tigon_semaphore_spin", "fraction",
               "Time the CPUs spent spinning on the semaphore, as a share of the window"},
      {"tigon_sram_utilization", "fraction",
       "Share of the window the Tigon's SRAM was busy (CPUs, DMA, MAC)"},
      {"tigon_sram_wait_ns", "ns", "Mean contention wait of one CPU access to the SRAM"},
      {"tigon_send_data_time", "µs",
       "Mean time of one Send Data Ready invocation on its main path (Fig 3.12)"},
      {"tigon_receive_time", "µs",
       "Mean time of one Receive Complete invocation on its main path (Fig 3.12)"},
      {"tigon_work_lost", "items",
       "DMA completions and frames raised but neither handled nor pending (must be 0)"},
      {"bench_mips_a", "M instructions/s", "Benchmark: CPU A's instruction throughput"},
      {"bench_mips_b", "M instructions/s", "Benchmark: CPU B's instruction throughput"},
      {"bench_load_latency_sram_ns", "ns", "Benchmark: dependent load latency, SRAM"},
      {"bench_load_latency_scratch_ns", "ns", "Benchmark: dependent load latency, scratch pad"},
      {"bench_load_bw_sram", "MB/s", "Benchmark: independent load bandwidth, SRAM"},
      {"bench_load_bw_scratch", "MB/s", "Benchmark: independent load bandwidth, scratch pad"},
      {"bench_store_bw_sram", "MB/s", "Benchmark: store bandwidth, SRAM"},
      {"bench_store_bw_scratch", "MB/s", "Benchmark: store bandwidth, scratch pad"},
      {"content_traffic_reduction", "fraction",
       "Web: share of HTTP content served from the NIC caches instead of crossing the bus "
       "(seed 000 Figs 4.3-4.5)"},
      {"cache_block_hit_rate", "fraction", "Web: block references found with every byte cached"},
      {"cache_request_hit_rate", "fraction",
       "Web: requests whose whole content came from a NIC cache"},
      {"cache_insertions", "blocks", "Web: nic_cache_insert commands (Fig 4.11)"},
      {"cache_evictions", "blocks", "Web: blocks the replacement policy evicted"},
      {"cache_slots", "blocks", "Web: blocks each NIC cache holds"},
      {"web_requests", "requests", "Web: requests counted (after warm-up)"},
      {"web_content_mb", "MB", "Web: HTTP response content of the counted requests"},
      {"web_cached_mb", "MB", "Web: ... of which served from a NIC cache"},
      {"web_distinct_files", "files", "Web: distinct files the trace requests"},
      {"web_data_set_mb", "MB", "Web: total size of those files (Table 4.1's data set)"},
      {"web_average_response_bytes", "bytes", "Web: mean response content (Table 4.1)"},
      {"web_throughput", "Mb/s",
       "Web full-system: HTTP content the clients received, in Mb/s of 10^6 bit/s (Tables "
       "4.3-4.7 count Mb as 2^20 bits: their values are 1.048576 times smaller)"},
      {"web_request_rate", "req/s", "Web full-system: responses completed at the clients"},
      {"web_request_rate_trace_mix", "req/s",
       "Web full-system: the content throughput divided by the whole trace's mean response "
       "(Table 4.1), the request rate Tables 4.4-4.7 report (their req/s x mean response = Mb/s)"},
      {"web_window_response_bytes", "bytes",
       "Web full-system: mean content of the responses completed in the window (a short window "
       "samples the trace's mix unevenly)"},
      {"web_mmap_miss_rate", "fraction",
       "Web full-system, write(): requests whose file thttpd had to mmap again (Table 4.3)"},
      {"web_copied_mb", "MB", "Web full-system, write(): content copied into socket buffers"},
      {"web_copy_miss_rate", "fraction",
       "Web full-system, write(): requests whose file was copied from DRAM, not the CPU's L2"},
      {"web_disk_utilization", "fraction",
       "Web full-system: share of time the disk is reading (the server waits for it)"},
      {"web_bottleneck", "0 bus, 1 CPU, 2 disk",
       "Web full-system: the busiest of the PCI bus, the host CPU and the disk (seed 000 §4.4: "
       "NASA and Rice bus-bound, IBM and World Cup CPU-bound, Berkeley disk-bound)"},
      {"router_packet_rate", "kpps",
       "IP router: packets forwarded to the clients, in thousands per second (seed 000 Table "
       "3.6)"},
      {"router_offered_rate", "kpps", "IP router: packets the clients sent into the NICs"},
      {"router_loss", "fraction", "IP router: share of the offered packets not forwarded"},
      {"router_queue_drops", "packets",
       "IP router: packets dropped because the outgoing NIC's send ring was full"},
      {"web_file_cache_hit_rate", "fraction",
       "Web full-system: requests whose file was in the OS file cache"},
      {"web_bus_content_mb", "MB",
       "Web full-system: HTTP content that crossed the PCI bus (nic_pkt_append_mm of content and "
       "nic_cache_insert)"},
      {"web_cache_insert_mb", "MB",
       "Web full-system: ... of which DMA'd into a NIC cache by nic_cache_insert"},
      {"web_nic_cache_mb", "MB",
       "Web full-system: HTTP content appended from a NIC cache (no PCI crossing)"},
      {"web_packets_per_request", "packets", "Web full-system: TCP segments per response"},
      {"web_descriptors_per_packet", "descriptors",
       "Web full-system: send descriptors (Fig 4.11 commands) per segment"},
      {"web_acks_per_request", "packets", "Web full-system: ACK packets received per response"},
      {"web_cpu_per_request", "µs", "Web full-system: host CPU time per completed response"},
      // ---- tcp-stream on the SINIC paper's host (the SINIC paper) ----
      {"tcp_throughput", "Gb/s",
       "TCP payload delivered: read() by netperf (receive) or received by the stressor (send)"},
      {"tcp_goodput_limit", "Gb/s", "TCP payload of a saturated link (MSS over wire bytes)"},
      {"cpu_driver", "fraction", "Share of CPU time in the device driver (Figs 6/9)"},
      {"cpu_stack", "fraction", "Share of CPU time in the TCP/IP stack and system calls"},
      {"cpu_copy", "fraction",
       "Share of CPU time copying, or setting up and waiting for a zero-copy (Fig 9)"},
      {"cpu_user", "fraction", "Share of CPU time in netperf itself"},
      {"cpu_idle", "fraction", "Share of CPU time idle"},
      {"l2_misses_per_kb", "misses/KB",
       "L2 misses on network buffers per KB of payload delivered (Fig 8)"},
      {"zero_copy_share", "fraction", "Payload copied from the FIFO straight to the user (§3.3)"},
      {"tcp_packets_per_interrupt", "packets/interrupt", "Data segments delivered per interrupt"},
      {"rx_fifo_mean_kb", "KB", "Mean receive FIFO occupancy (SINIC / V-SINIC)"},
      {"rx_fifo_peak_kb", "KB", "Highest sampled receive FIFO occupancy"},
      {"vnics_bound_peak", "VNICs", "Most VNICs bound to packets at a sample"},
      {"register_reads_per_packet", "reads/packet",
       "Device register reads by the driver per data segment (RxWait vs polling RxDone, §3.1)"},
      {"link_pause_share", "fraction",
       "Share of the window the stressor was held back by a full receive FIFO"},
      // ---- end tcp-stream ----
      // ---- tcp-offload: one file through an E1000 or an offload adapter (seed 004) ----
      {"ledger_send_dmas", "DMAs",
       "Send (host to adapter): DMAs of one file transfer (seed 004 Table 4)"},
      {"ledger_send_cycles", "cycles",
       "Send: bus cycles by the cost model, 4 + ceil(bytes / 8) per DMA (seed 004 §4.4)"},
      {"ledger_send_bytes", "bytes", "Send: bytes transferred"},
      {"ledger_recv_dmas", "DMAs", "Receive (adapter to host): DMAs of one file transfer"},
      {"ledger_recv_cycles", "cycles", "Receive: bus cycles by the cost model"},
      {"ledger_recv_bytes", "bytes", "Receive: bytes transferred"},
      {"ledger_control_dmas", "DMAs",
       "DMAs of handshake, ACK and teardown frames, both directions (none with offload)"},
      {"ledger_header_bytes", "bytes", "Protocol and HTTP header bytes DMAed apart from the file"},
      {"ledger_descriptor_dmas", "DMAs",
       "DMAs of descriptors, responses and producer indexes, both directions"},
      {"ledger_payload_bytes", "bytes", "File and request bytes that crossed the bus"},
      {"offload_host_events", "events",
       "Events the host handles: every received frame (E1000) or every crossing of responses "
       "(offload)"},
      {"offload_segments", "segments", "Data segments the server sent on the wire"},
      {"offload_client_frames", "frames", "Frames the client sent (SYN, ACKs, GET, FIN)"},
      {"offload_send_crossings", "crossings",
       "Offload: crossings of request descriptors (each an index write and a fetch)"},
      {"offload_recv_crossings", "crossings",
       "Offload: crossings of response descriptors (each a write and an index write)"},
      {"offload_descriptor_wait_us", "µs",
       "Offload: mean time a descriptor waited for its batch to ship"},
      {"offload_transfer_us", "µs", "From the client's SYN to the server's close completing"},
      {"offload_files_done", "files",
       "1 when the file's transfer finished within the run (else the ledger is partial)"},
      {"machine_l1_cycles", "cycles", "Table 2: an L1 hit, in the machine's cycles"},
      {"machine_l2_cycles", "cycles", "Table 2: an L2 hit"},
      {"machine_memory_cycles", "cycles", "Table 2: a main-memory access"},
      {"machine_register_read_cycles", "cycles", "Table 2: an E1000 register read"},
      {"machine_register_write_cycles", "cycles", "Table 2: an E1000 register write"},
      {"register_read_cycles_per_transfer", "cycles",
       "A driver reading the interrupt-cause register once per interrupt: its cycles per file"},
      // ---- end tcp-offload ----
      // ---- eta-aio: the baseline and ETA+AIO servers (seed 001) ----
      {"eta_throughput", "Mb/s",
       "eta-aio: response bytes the clients acknowledged (1-CPU baseline: doubled, §6)"},
      {"eta_request_rate", "requests/s",
       "eta-aio: responses completed per second (1-CPU baseline: doubled)"},
      {"eta_offered_rate", "requests/s",
       "eta-aio: requests the clients offered per second (1-CPU baseline: doubled)"},
      {"eta_refused_share", "fraction",
       "eta-aio: offered requests refused because every connection was busy"},
      {"eta_cpu_utilization", "fraction",
       "eta-aio: aggregate CPU utilisation, both CPUs (Fig 4's y axis; the PPE counts as busy)"},
      {"eta_cpu0_busy", "fraction", "eta-aio: CPU 0 busy (ETA+AIO: the PPE, always 1)"},
      {"eta_cpu1_busy", "fraction", "eta-aio: CPU 1 busy (ETA+AIO: the application CPU)"},
      {"eta_ppe_productive", "fraction",
       "eta-aio ETA+AIO: the PPE's share of time not in empty iterations"},
      {"eta_bin_user", "fraction", "eta-aio: Table 1's user bin, share of aggregate cycles"},
      {"eta_bin_tcpip", "fraction", "eta-aio: Table 1's TCP/IP bin"},
      {"eta_bin_ethernet", "fraction",
       "eta-aio: Table 1's Ethernet bin (driver, interrupts or NIC polling)"},
      {"eta_bin_kernel_other", "fraction", "eta-aio: Table 1's kernel other bin"},
      {"eta_bin_ppe_other", "fraction",
       "eta-aio: Table 1's PPE other bin (queue polling and operations)"},
      {"eta_bin_idle", "fraction", "eta-aio: Table 1's idle"},
      {"eta_unproductive_polling", "fraction",
       "eta-aio ETA+AIO: empty PPE iterations, share of aggregate cycles"},
      {"eta_unproductive_share_of_ppe_other", "fraction",
       "eta-aio ETA+AIO: empty iterations' share of PPE other (§7.1: about half)"},
      {"eta_signal_path", "fraction",
       "eta-aio ETA+AIO: arming, IPIs, the Kernel Agent and signals, share of aggregate cycles "
       "(§7.1)"},
      {"eta_interrupt_share", "fraction",
       "eta-aio baseline: entering and leaving NIC interrupts, share of aggregate cycles (§7.1)"},
      {"eta_signals_per_request", "signals",
       "eta-aio ETA+AIO: signals raised per completed request"},
      {"eta_interrupts_per_request", "interrupts",
       "eta-aio baseline: NIC interrupts per completed request"},
      {"eta_cycles_per_request", "cycles",
       "eta-aio: busy cycles (both CPUs) per completed request"},
      {"eta_latency_ms", "ms", "eta-aio: mean time from a request's arrival to its last ACK"},
      {"eta_link_limit", "Mb/s", "eta-aio: what the NICs' wires can carry of response payload"},
      // ---- end eta-aio ----
      // ---- protocol-cache: the fast paths through the host caches (seed 002) ----
      {"proto_latency_us", "µs",
       "Protocol cache: mean processing time of one packet (seed 002 Table 4: from the top of "
       "the stack until the send returns)"},
      {"proto_cpu_us", "µs", "Protocol cache: ... of which instructions at the CPU's CPI"},
      {"proto_stall_l2_us", "µs", "Protocol cache: ... stalled on L1 misses the L2 served"},
      {"proto_stall_memory_us", "µs", "Protocol cache: ... stalled on L2 misses (memory)"},
      {"proto_memory_share", "fraction",
       "Protocol cache: share of the latency stalled on memory (Fig 5: 16 to 57 percent)"},
      {"proto_cpi", "cycles/instruction", "Protocol cache: cycles per instruction (Table 10)"},
      {"proto_l1i_miss_rate", "fraction", "Protocol cache: L1 instruction cache miss rate"},
      {"proto_l1d_miss_rate", "fraction", "Protocol cache: L1 data cache miss rate"},
      {"proto_l2_miss_rate", "fraction",
       "Protocol cache: unified L2 misses over its references (the L1 misses)"},
      {"proto_instructions", "instructions", "Protocol cache: instructions per packet"},
      {"proto_data_refs", "references", "Protocol cache: data references per packet"},
      {"proto_i_to_d", "ratio", "Protocol cache: instruction to data references (§4: 2:1, 3:1)"},
      {"proto_packets", "packets", "Protocol cache: packets counted in the window"},
      // ---- end protocol-cache ----
      {"events", "events",
       "Model events fired in the whole run (the trace's opening snapshot is not one)"},
      {"sim_time", "µs", "Simulated time of the run"},
      {"window", "µs", "Measured window (after warm-up)"},
  };
  return metrics;
}

const std::set<std::string>& allowed_views() {
  // The views the app can show come from the one definition (core-cpp/trace/trace_kinds.json).
  static const std::set<std::string> views(std::begin(kViewIds), std::end(kViewIds));
  return views;
}

void keep_main_run_only(Json* doc) {
  doc->erase("sweep");
  doc->erase("reference");
  doc->erase("tour");
}

namespace {

const std::set<std::string> kTopLevel = {
    "$schema", "format",          "id",        "title", "summary", "notice",
    "tags",    "system",          "workload",  "run",   "sweep",   "views",
    "chart",   "parameter_notes", "reference", "tour",  "compare"};

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// Children allowed under a registry prefix ("system.bus" → {width_bits, clock_mhz, ...}).
// Gathered once for every prefix: each object of each scenario read asks again, and a scan of
// the registry per object was a tenth of a light run's work outside its event loop.
const std::set<std::string>& children_of(const std::string& prefix) {
  static const std::map<std::string, std::set<std::string>> by_prefix = [] {
    std::map<std::string, std::set<std::string>> m;
    for (const auto& spec : parameter_registry()) {
      const std::string path = spec.path;
      for (std::size_t dot = path.find('.'); dot != std::string::npos;) {
        const std::size_t next = path.find('.', dot + 1);
        m[path.substr(0, dot)].insert(
            path.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1));
        dot = next;
      }
    }
    return m;
  }();
  static const std::set<std::string> none;
  const auto it = by_prefix.find(prefix);
  return it != by_prefix.end() ? it->second : none;
}

void walk_params(const Json& node, const std::string& prefix, std::map<std::string, Json>* flat,
                 Errors* errors) {
  if (!node.is_object()) {
    errors->push_back({prefix, "must be an object with fields " + join(children_of(prefix))});
    return;
  }
  const std::set<std::string>& allowed = children_of(prefix);
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string path = prefix + "." + it.key();
    if (allowed.count(it.key()) == 0) {
      errors->push_back({path, "unknown field '" + it.key() + "'; allowed: " + join(allowed)});
      continue;
    }
    if (const ParamSpec* spec = find_param(path)) {
      const std::string msg = check_param_value(*spec, it.value());
      if (msg.empty()) {
        (*flat)[path] = it.value();
      } else {
        errors->push_back({path, msg});
      }
    } else {
      walk_params(it.value(), path, flat, errors);
    }
  }
}

bool is_string_array(const Json& j) {
  if (!j.is_array()) return false;
  return std::all_of(j.begin(), j.end(), [](const Json& x) { return x.is_string(); });
}

std::string child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

void require_string(const Json& obj, const std::string& key, const std::string& path,
                    Errors* errors, std::string* out, bool required = true) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) errors->push_back({child(path, key), "is required (a string)"});
    return;
  }
  if (!it->is_string()) {
    errors->push_back({child(path, key), "must be a string"});
    return;
  }
  if (out) *out = it->get<std::string>();
}

void check_sweep_axis(const Json& obj, const std::string& path, std::string* param,
                      std::vector<Json>* values, Errors* errors) {
  if (!obj.is_object()) {
    errors->push_back({path, "must be an object with fields parameter, values"});
    return;
  }
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (it.key() != "parameter" && it.key() != "values" && it.key() != "series") {
      errors->push_back(
          {path + "." + it.key(), "unknown field; allowed: parameter, values, series"});
    }
  }
  require_string(obj, "parameter", path, errors, param);
  const ParamSpec* spec = param->empty() ? nullptr : find_param(*param);
  if (!param->empty() && spec == nullptr) {
    errors->push_back({path + ".parameter", "unknown parameter '" + *param + "'"});
  }
  auto v = obj.find("values");
  if (v == obj.end() || !v->is_array() || v->empty() || v->size() > kMaxSweepValues) {
    errors->push_back({path + ".values",
                       "must be an array of 1 to " + std::to_string(kMaxSweepValues) + " values"});
    return;
  }
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (spec) {
      const std::string msg = check_param_value(*spec, (*v)[i]);
      if (!msg.empty()) {
        errors->push_back({path + ".values[" + std::to_string(i) + "]", msg});
        continue;
      }
    }
    values->push_back((*v)[i]);
  }
}

void check_reference(const Json& ref, const std::string& path, const SweepSpec& sweep,
                     std::vector<ReferenceSpec>* out, Errors* errors) {
  static const std::set<std::string> kFields = {
      "id",       "source", "description", "metric",    "at",   "relative_to",
      "expected", "unit",   "comparison",  "tolerance", "kind", "known_miss"};
  if (!ref.is_object()) {
    errors->push_back({path, "must be an object"});
    return;
  }
  for (auto it = ref.begin(); it != ref.end(); ++it) {
    if (kFields.count(it.key()) == 0) {
      errors->push_back({path + "." + it.key(), "unknown field; allowed: " + join(kFields)});
    }
  }
  ReferenceSpec r;
  const std::size_t before = errors->size();
  require_string(ref, "id", path, errors, &r.id);
  require_string(ref, "source", path, errors, &r.source);
  require_string(ref, "description", path, errors, &r.description);
  require_string(ref, "metric", path, errors, &r.metric);
  require_string(ref, "unit", path, errors, &r.unit, false);
  require_string(ref, "comparison", path, errors, &r.comparison);
  require_string(ref, "kind", path, errors, &r.kind);
  require_string(ref, "known_miss", path, errors, &r.known_miss, false);
  if (ref.contains("known_miss") && ref["known_miss"].is_string() && r.known_miss.empty()) {
    errors->push_back({path + ".known_miss",
                       "must say why the prediction misses, from the mechanism (a non-empty "
                       "string), or be left out"});
  }
  if (!r.metric.empty()) {
    const auto& m = result_metrics();
    if (std::none_of(m.begin(), m.end(), [&](const MetricInfo& x) { return r.metric == x.name; })) {
      std::set<std::string> names;
      for (const auto& x : m) names.insert(x.name);
      errors->push_back(
          {path + ".metric", "unknown metric '" + r.metric + "'; allowed: " + join(names)});
    }
  }
  if (!r.comparison.empty() && r.comparison != "within" && r.comparison != "at_least" &&
      r.comparison != "at_most") {
    errors->push_back(
        {path + ".comparison", "must be one of \"within\", \"at_least\", \"at_most\""});
  }
  if (!r.kind.empty() && r.kind != "exact" && r.kind != "approximate" && r.kind != "qualitative") {
    errors->push_back(
        {path + ".kind", "must be one of \"exact\", \"approximate\", \"qualitative\""});
  }
  auto e = ref.find("expected");
  if (e == ref.end() || !e->is_number()) {
    errors->push_back({path + ".expected", "is required (a number)"});
  } else {
    r.expected = e->get<double>();
  }
  auto t = ref.find("tolerance");
  if (t == ref.end() || !t->is_number() || t->get<double>() < 0 || t->get<double>() > 10) {
    errors->push_back(
        {path + ".tolerance", "is required: a relative tolerance from 0 to 10 (0.05 = 5%)"});
  } else {
    r.tolerance = t->get<double>();
  }
  // A sweep point: an object giving a value, among the sweep's, for every sweep parameter.
  auto check_point = [&](const Json& point, const std::string& where) {
    if (!point.is_object() || !sweep.present) {
      errors->push_back(
          {where, "must be an object naming sweep parameters, and the scenario must have a sweep"});
      return;
    }
    for (auto it = point.begin(); it != point.end(); ++it) {
      const std::vector<Json>* values = nullptr;
      if (it.key() == sweep.parameter) values = &sweep.values;
      if (it.key() == sweep.series_parameter) values = &sweep.series_values;
      if (values == nullptr) {
        errors->push_back(
            {where + "." + it.key(),
             "must be the sweep parameter '" + sweep.parameter +
                 (sweep.series_parameter.empty() ? "'" : "' or '" + sweep.series_parameter + "'")});
      } else if (std::find(values->begin(), values->end(), it.value()) == values->end()) {
        errors->push_back({where + "." + it.key(),
                           "value " + dump_json(it.value()) + " is not among the sweep's values"});
      }
    }
    const bool needs_series = !sweep.series_parameter.empty();
    if (point.find(sweep.parameter) == point.end() ||
        (needs_series && point.find(sweep.series_parameter) == point.end())) {
      errors->push_back({where, "must give a value for every sweep parameter"});
    }
  };
  if (auto at = ref.find("at"); at != ref.end()) {
    check_point(*at, path + ".at");
    r.at = *at;
  }
  if (auto rel = ref.find("relative_to"); rel != ref.end()) {
    r.relative = true;
    r.relative_metric = r.metric;
    if (!rel->is_object()) {
      errors->push_back({path + ".relative_to", "must be an object with fields at, metric"});
    } else {
      for (auto it = rel->begin(); it != rel->end(); ++it) {
        if (it.key() != "at" && it.key() != "metric") {
          errors->push_back(
              {path + ".relative_to." + it.key(), "unknown field; allowed: at, metric"});
        }
      }
      if (auto m = rel->find("metric"); m != rel->end()) {
        const auto& known = result_metrics();
        if (!m->is_string() || std::none_of(known.begin(), known.end(), [&](const MetricInfo& x) {
              return m->get<std::string>() == x.name;
            })) {
          errors->push_back({path + ".relative_to.metric", "must name a known metric"});
        } else {
          r.relative_metric = m->get<std::string>();
        }
      }
      if (auto a = rel->find("at"); a != rel->end()) {
        check_point(*a, path + ".relative_to.at");
        r.relative_at = *a;
      }
    }
  }
  if (errors->size() == before) out->push_back(r);
}

}  // namespace

namespace {

std::string bytes_text(std::uint64_t n) {
  if (n >= (std::uint64_t{1} << 20) && n % (std::uint64_t{1} << 20) == 0)
    return std::to_string(n >> 20) + " MB";
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n >> 10) + " KB";
  return std::to_string(n) + " bytes";
}

std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// Strings (values and keys) longer than kMaxStringBytes, by path; at most a few reported.
void check_string_sizes(const Json& node, const std::string& path, Errors* errors) {
  if (errors->size() >= 5) return;
  auto too_long = [&](const std::string& where, std::size_t n) {
    errors->push_back({where, "is a string of " + std::to_string(n) + " bytes; at most " +
                                  std::to_string(kMaxStringBytes)});
  };
  if (node.is_string()) {
    const std::size_t n = node.get_ref<const std::string&>().size();
    if (n > kMaxStringBytes) too_long(path, n);
  } else if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (it.key().size() > kMaxStringBytes) {
        too_long(path.empty() ? "(a key)" : path + " (a key)", it.key().size());
        continue;
      }
      check_string_sizes(it.value(), path.empty() ? it.key() : path + "." + it.key(), errors);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      check_string_sizes(node[i], path + "[" + std::to_string(i) + "]", errors);
  }
}

// Parses a document within the size and depth limits; `what` names it in messages.
bool parse_limited(const std::string& text, std::uint64_t max_bytes, const std::string& what,
                   const std::string& path, Json* doc, Errors* errors) {
  if (text.size() > max_bytes) {
    errors->push_back({path, what + " is " + std::to_string(text.size()) + " bytes; at most " +
                                 bytes_text(max_bytes)});
    return false;
  }
  std::string deep;
  if (!json_depth_within(text, kMaxJsonDepth, &deep)) {
    const std::string limit = "nests arrays and objects deeper than " +
                              std::to_string(kMaxJsonDepth) + " levels; at most " +
                              std::to_string(kMaxJsonDepth);
    errors->push_back(deep.empty() ? Error{path, what + " " + limit} : Error{deep, limit});
    return false;
  }
  std::string parse_error;
  if (!parse_json(text, doc, &parse_error)) {
    errors->push_back({path, what + " is " + parse_error});
    return false;
  }
  const std::size_t before = errors->size();
  check_string_sizes(*doc, "", errors);
  return errors->size() == before;
}

// The runs a scenario asks for and their work, within kMaxSweepRuns, kMaxSimulatedUs and
// kMaxReplayedRequests. `configs`: the main run's and every sweep point's.
void check_work(const Scenario& s, const std::vector<Config>& configs, Errors* errors) {
  double simulated_us = 0;
  std::uint64_t replayed = 0;
  for (const Config& c : configs) {
    if (c.workload.kind == WorkloadKind::Web && c.workload.web_mode == WebMode::CacheOnly) {
      // A log's length is not known here: api::run checks it (check_log_replay).
      if (!c.workload.trace_from_log) {
        const std::uint64_t all = published_statistics(c.workload.trace).total_requests;
        replayed += c.workload.trace_requests > 0 ? std::min(c.workload.trace_requests, all) : all;
      }
    } else {
      simulated_us += static_cast<double>(c.run.duration) / static_cast<double>(kUs);
    }
  }
  const std::string runs = std::to_string(configs.size()) + " runs";
  const std::string field = s.sweep.present ? "sweep.values" : "run.duration_us";
  if (simulated_us > kMaxSimulatedUs) {
    errors->push_back({field, "asks for " + short_number(simulated_us / 1e6) +
                                  " s of simulated time over " + runs +
                                  " (the main run and the sweep points); at most " +
                                  short_number(kMaxSimulatedUs / 1e6) +
                                  " s: shorten run.duration_us or sweep fewer values"});
  }
  if (replayed > kMaxReplayedRequests) {
    errors->push_back({s.sweep.present ? field : "workload.trace_requests",
                       "asks to replay " + std::to_string(replayed) + " requests over " + runs +
                           "; at most " + std::to_string(kMaxReplayedRequests) +
                           ": set workload.trace_requests lower or sweep fewer values"});
  }
}

}  // namespace

namespace {
std::string partition_path(int event) {
  return "system.tigon.partition." + snake_case(tigon_event_name(static_cast<TigonEvent>(event)));
}

// A user-drawn partition (the thesis §3.2.2): every event on some CPU; without the semaphore,
// no handler on both CPUs and no two CPUs sharing a DMA channel or data (Tables 3.2, 3.3).
void check_partition(const TigonConfig& t, const std::string& where, Errors* errors) {
  for (int e = 0; e < kTigonEvents; ++e) {
    if (t.partition[static_cast<std::size_t>(e)] == 0) {
      errors->push_back(
          {partition_path(e), std::string(tigon_event_label(static_cast<TigonEvent>(e))) +
                                  " is handled by no CPU, so it would never be served; allowed "
                                  "\"A\", \"B\" or \"both\"" +
                                  where});
    }
  }
  if (t.semaphore_allowed) return;
  for (int e = 0; e < kTigonEvents; ++e) {
    if (t.partition[static_cast<std::size_t>(e)] == kCpuBoth) {
      errors->push_back({partition_path(e),
                         std::string(tigon_event_label(static_cast<TigonEvent>(e))) +
                             " on both CPUs needs the hardware semaphore; set "
                             "system.tigon.semaphore to \"as-needed\" or choose \"A\" or \"B\"" +
                             where});
    }
  }
  for (int a = 0; a < kTigonEvents; ++a) {
    for (int b = 0; b < kTigonEvents; ++b) {
      if (a == b || t.partition[static_cast<std::size_t>(a)] != kCpuA ||
          t.partition[static_cast<std::size_t>(b)] != kCpuB)
        continue;
      if (!tigon_events_conflict(static_cast<TigonEvent>(a), static_cast<TigonEvent>(b), false))
        continue;
      errors->push_back(
          {partition_path(b), std::string(tigon_event_label(static_cast<TigonEvent>(b))) +
                                  " on CPU B shares a DMA channel or data with " +
                                  tigon_event_label(static_cast<TigonEvent>(a)) +
                                  " on CPU A, which needs the hardware semaphore; set "
                                  "system.tigon.semaphore to \"as-needed\" or move one of them" +
                                  where});
    }
  }
}
}  // namespace

Errors build_config(const std::map<std::string, Json>& params, const std::string& context,
                    Config* out) {
  Config c;
  for (const auto& spec : parameter_registry()) spec.set(c, spec.def);
  for (const auto& [path, value] : params) {
    if (const ParamSpec* spec = find_param(path)) spec->set(c, value);
  }
  Errors errors;
  const std::string where = context.empty() ? "" : " (" + context + ")";
  if (c.run.warmup >= c.run.duration) {
    errors.push_back({"run.warmup_us", "must be less than run.duration_us" + where});
  }
  if (c.run.trace_end < c.run.trace_start) {
    errors.push_back({"run.trace.end_us", "must not be before run.trace.start_us" + where});
  }
  if (c.run.sample_interval > c.run.duration) {
    errors.push_back({"run.sample_interval_us", "must not exceed run.duration_us" + where});
  } else if (c.run.duration / c.run.sample_interval > 100000) {
    errors.push_back(
        {"run.sample_interval_us",
         "gives more than 100000 samples; allowed at least run.duration_us/100000" + where});
  }
  if (c.driver.receive_buffers_posted > c.driver.receive_ring_size - 1) {
    errors.push_back({"system.driver.receive_buffers_posted",
                      "must be at most system.driver.receive_ring_size - 1 = " +
                          std::to_string(c.driver.receive_ring_size - 1) + where});
  }
  if (c.bus.model == BusModel::Pci) {
    const bool pcix = c.bus.protocol == BusProtocol::PciX;
    const std::int64_t mhz = c.bus.clock_mhz;
    if (!pcix && mhz != 33 && mhz != 66) {
      errors.push_back({"system.bus.clock_mhz",
                        "conventional PCI runs at 33 or 66 MHz, got " + std::to_string(mhz) +
                            "; use system.bus.protocol \"pci-x\" for 100 or 133" + where});
    }
    if (pcix && mhz == 33) {
      errors.push_back(
          {"system.bus.clock_mhz", "PCI-X runs at 66, 100 or 133 MHz, got 33" + where});
    }
  }
  if (c.workload.kind == WorkloadKind::TcpSegments) {
    if (c.workload.direction != Direction::Send) {
      errors.push_back({"workload.direction",
                        "tcp-segments models a server sending: it must be \"send\"" + where});
    }
    if (c.workload.segment_bytes + c.workload.segment_header_bytes + kCrcBytes > 1518) {
      errors.push_back({"workload.segment_bytes",
                        "header and content must fit a 1518-byte frame: at most " +
                            std::to_string(1518 - kCrcBytes - c.workload.segment_header_bytes) +
                            " with this header" + where});
    }
    if (c.driver.send_ring_size < 4) {
      errors.push_back({"system.driver.send_ring_size",
                        "tcp-segments needs at least 4 entries (two per segment)" + where});
    }
  }
  if (c.nic_model == NicModel::Tigon) {
    const TigonFirmware fw = c.tigon.firmware;
    // PARALLEL's Update Send Consumer publishes the index and the driver reads it by PIO
    // (the thesis §3.2.2); RELEASE and BSD DMA it to the host.
    const bool parallel_family = fw == TigonFirmware::Parallel || fw == TigonFirmware::Custom ||
                                 fw == TigonFirmware::Dynamic;
    c.driver.send_consumer_by_pio = parallel_family;
    c.nic.send_consumer_by_pio = parallel_family;
    if (fw == TigonFirmware::Custom) check_partition(c.tigon, where, &errors);
  }
  if (c.workload.kind == WorkloadKind::CpuBenchmark && c.nic_model != NicModel::Tigon) {
    errors.push_back(
        {"workload.kind",
         "cpu-benchmark runs on the Tigon's CPUs: set system.nic.model to \"tigon\"" + where});
  }
  if (c.nic_cache.capacity_bytes > 0) {
    NicCacheConfig cache = c.nic_cache;
    for (Error e : validate(cache, "system.nic_cache")) {
      if (e.path == "system.nic_cache.capacity_bytes") {
        e.path = "system.nic_cache.kbytes";
        e.message = "must be a whole number of blocks (system.nic_cache.block_bytes = " +
                    std::to_string(cache.block_bytes) + " bytes), 0 for none";
      }
      e.message += where;
      errors.push_back(e);
    }
  }
  if (c.workload.kind == WorkloadKind::Web && c.workload.web_mode == WebMode::FullSystem &&
      c.nic_model != NicModel::Fixed && c.nic_model != NicModel::Tigon &&
      c.nic_model != NicModel::Sinic) {
    errors.push_back({"system.nic.model",
                      "the web full-system mode runs on the fixed-function NIC, the Tigon or "
                      "SINIC: \"fixed\", \"tigon\" or \"sinic\"" +
                          where});
  }
  if (c.workload.kind == WorkloadKind::Web && c.workload.web_mode == WebMode::FullSystem &&
      c.nic_model != NicModel::Fixed && c.nic_cache.capacity_bytes > 0) {
    // Only the model's fixed-function NIC executes the Fig 4.11 cache commands.
    errors.push_back({"system.nic_cache.kbytes",
                      "only the fixed-function NIC has a NIC data cache: 0 with system.nic.model "
                      "\"" +
                          std::string(nic_model_name(c.nic_model)) + "\"" + where});
  }
  if (c.workload.kind == WorkloadKind::IpRouter) {
    if (c.nics != 2)
      errors.push_back(
          {"system.nics", "ip-router forwards between two NICs: it must be 2" + where});
    if (c.nic_model != NicModel::Fixed && c.nic_model != NicModel::Tigon)
      errors.push_back({"system.nic.model",
                        "ip-router runs on the fixed-function NIC or the Tigon: \"fixed\" or "
                        "\"tigon\"" +
                            where});
  }
  if (c.workload.kind == WorkloadKind::Web && c.nics > 2) {
    errors.push_back({"system.nics", "web: one or two NICs (the trace split evenly)" + where});
  }
  check_sinic_config(c, where, &errors);  // sinic/sinic_params.cpp
  // offload/offload_params.cpp
  check_offload_config(c, where, &errors);
  check_eta_config(c, where, &errors);  // eta/eta_params.cpp
  // protocache/protocache_params.cpp
  check_protocache_config(c, where, &errors);
  if (c.workload.kind == WorkloadKind::TcpStream || c.workload.kind == WorkloadKind::EtaAio ||
      c.workload.kind == WorkloadKind::ProtocolCache) {
    *out = c;
    return errors;
  }
  if (c.nic.tx_buffer_bytes < frame_bytes(c.workload.datagram_bytes)) {
    errors.push_back({"system.nic.tx_buffer_bytes", "must hold at least one frame" + where});
  }
  *out = c;
  return errors;
}

Errors load_scenario(const std::string& scenario_text, const std::string& overrides_text,
                     Scenario* out) {
  Errors errors;
  Json doc;
  if (!parse_limited(scenario_text, kMaxScenarioBytes, "scenario", "", &doc, &errors))
    return errors;
  if (!doc.is_object()) return {{"", "scenario must be a JSON object"}};
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (kTopLevel.count(it.key()) == 0) {
      errors.push_back({it.key(), "unknown field '" + it.key() + "'; allowed: " + join(kTopLevel)});
    }
  }
  auto fmt = doc.find("format");
  // Compared as JSON, not narrowed to an int first (4294967297 is not 1).
  if (fmt == doc.end() || !fmt->is_number_integer() || *fmt != 1) {
    errors.push_back({"format", "must be 1 (the scenario format version this core reads)"});
  }
  require_string(doc, "id", "", &errors, &out->id);
  if (!out->id.empty()) {
    const bool ok =
        out->id.size() <= 64 && std::all_of(out->id.begin(), out->id.end(), [](char ch) {
          return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
        });
    if (!ok) errors.push_back({"id", "must be 1 to 64 characters of a-z, 0-9 and -"});
  }
  require_string(doc, "title", "", &errors, nullptr);
  require_string(doc, "summary", "", &errors, nullptr);
  for (const char* key : {"notice", "tags"}) {
    auto it = doc.find(key);
    if (it != doc.end() && !is_string_array(*it))
      errors.push_back({key, "must be an array of strings"});
  }
  if (auto it = doc.find("views"); it != doc.end()) {
    if (!is_string_array(*it)) {
      errors.push_back({"views", "must be an array of strings"});
    } else {
      for (std::size_t i = 0; i < it->size(); ++i) {
        if (allowed_views().count((*it)[i].get<std::string>()) == 0) {
          errors.push_back(
              {"views[" + std::to_string(i) + "]", "must be one of " + join(allowed_views())});
        }
      }
    }
  }
  if (auto it = doc.find("chart"); it != doc.end()) {
    if (!it->is_object()) {
      errors.push_back({"chart", "must be an object with fields x, y, also, limit"});
    } else {
      for (auto c = it->begin(); c != it->end(); ++c) {
        if (c.key() == "also") {
          // Further y metrics the viewer may switch to (throughput and requests/s).
          const auto& m = result_metrics();
          if (!c.value().is_array()) {
            errors.push_back({"chart.also", "must be an array of result metric names"});
            continue;
          }
          for (std::size_t i = 0; i < c.value().size(); ++i) {
            const Json& v = c.value()[i];
            if (!v.is_string() ||
                std::none_of(m.begin(), m.end(), [&](const MetricInfo& x) { return x.name == v; }))
              errors.push_back({"chart.also[" + std::to_string(i) + "]",
                                "must be the name of a result metric (as reference[].metric)"});
          }
        } else if (c.key() != "x" && c.key() != "y" && c.key() != "limit") {
          errors.push_back({"chart." + c.key(), "unknown field; allowed: also, limit, x, y"});
        } else if (!c.value().is_string()) {
          errors.push_back({"chart." + c.key(), "must be a string"});
        }
      }
    }
  }
  if (auto it = doc.find("parameter_notes"); it != doc.end()) {
    if (!it->is_object()) {
      errors.push_back({"parameter_notes", "must be an object of parameter path → note"});
    } else {
      for (auto n = it->begin(); n != it->end(); ++n) {
        if (find_param(n.key()) == nullptr) {
          errors.push_back({"parameter_notes." + n.key(), "is not a known parameter path"});
        } else if (!n.value().is_string()) {
          errors.push_back({"parameter_notes." + n.key(), "must be a string"});
        }
      }
    }
  }
  for (const char* section : {"system", "workload", "run"}) {
    if (auto it = doc.find(section); it != doc.end())
      walk_params(*it, section, &out->params, &errors);
  }
  if (auto it = doc.find("sweep"); it != doc.end()) {
    out->sweep.present = true;
    check_sweep_axis(*it, "sweep", &out->sweep.parameter, &out->sweep.values, &errors);
    if (it->is_object()) {
      if (auto s = it->find("series"); s != it->end()) {
        check_sweep_axis(*s, "sweep.series", &out->sweep.series_parameter,
                         &out->sweep.series_values, &errors);
        if (s->is_object() && s->find("series") != s->end()) {
          errors.push_back({"sweep.series.series", "a series cannot have a series of its own"});
        }
        if (!out->sweep.series_parameter.empty() &&
            out->sweep.series_parameter == out->sweep.parameter) {
          errors.push_back({"sweep.series.parameter", "must differ from sweep.parameter"});
        }
      }
    }
  }
  if (auto it = doc.find("reference"); it != doc.end()) {
    if (!it->is_array()) {
      errors.push_back({"reference", "must be an array of reference values"});
    } else {
      std::set<std::string> ids;
      for (std::size_t i = 0; i < it->size(); ++i) {
        const std::string where = "reference[" + std::to_string(i) + "]";
        check_reference((*it)[i], where, out->sweep, &out->reference, &errors);
        // "<scenario id>#<reference id>" names a check (a fit's fitted_to): ids are unique.
        const Json& ref = (*it)[i];
        if (ref.is_object() && ref.contains("id") && ref["id"].is_string() &&
            !ids.insert(ref["id"].get<std::string>()).second) {
          errors.push_back({where + ".id", "repeats the id of an earlier reference entry '" +
                                               ref["id"].get<std::string>() + "'"});
        }
      }
    }
  }
  // The A/B variants, against the scenario's own parameters (scenario/compare.cpp).
  if (auto it = doc.find("compare"); it != doc.end()) check_compare(*it, out->params, &errors);
  // The guided tour, against the scenario's own values (before overrides): scenario/tour.cpp.
  if (auto it = doc.find("tour"); it != doc.end()) {
    std::vector<std::string> views;
    if (auto v = doc.find("views"); v != doc.end() && is_string_array(*v))
      for (const auto& x : *v) views.push_back(x.get<std::string>());
    check_tour(*it, {&out->params, &views, &out->sweep}, &errors);
  }
  // Overrides: a JSON object of path → value, validated against the same registry.
  if (!overrides_text.empty()) {
    Json ov;
    Errors ov_errors;
    if (!parse_limited(overrides_text, kMaxOverridesBytes, "the overrides document", "overrides",
                       &ov, &ov_errors)) {
      errors.insert(errors.end(), ov_errors.begin(), ov_errors.end());
    } else if (!ov.is_object()) {
      errors.push_back({"overrides", "must be a JSON object of parameter path → value"});
    } else {
      for (auto it = ov.begin(); it != ov.end(); ++it) {
        const ParamSpec* spec = find_param(it.key());
        if (spec == nullptr) {
          errors.push_back({it.key(), "unknown parameter '" + it.key() +
                                          "'; see --list-parameters for the allowed paths"});
          continue;
        }
        const std::string msg = check_param_value(*spec, it.value());
        if (!msg.empty()) {
          errors.push_back({it.key(), msg});
        } else {
          out->params[it.key()] = it.value();
        }
      }
    }
  }
  if (out->sweep.present) {
    const std::size_t runs =
        out->sweep.values.size() * std::max<std::size_t>(1, out->sweep.series_values.size());
    if (runs > kMaxSweepRuns) {
      errors.push_back(
          {out->sweep.series_values.empty() ? "sweep.values" : "sweep.series.values",
           "the sweep asks for " + std::to_string(out->sweep.values.size()) + " values" +
               (out->sweep.series_values.empty()
                    ? ""
                    : " × " + std::to_string(out->sweep.series_values.size()) + " series values") +
               " = " + std::to_string(runs) + " runs; at most " + std::to_string(kMaxSweepRuns)});
    }
  }
  if (!errors.empty()) return errors;
  Errors cfg_errors = build_config(out->params, "", &out->config);
  if (!cfg_errors.empty()) return cfg_errors;
  std::vector<Config> configs = {out->config};
  // Every sweep point must be a valid config too, so a sweep never fails half-way.
  if (out->sweep.present) {
    std::vector<Json> series = out->sweep.series_values;
    if (series.empty()) series.push_back(Json());
    for (const auto& s : series) {
      for (const auto& v : out->sweep.values) {
        auto params = out->params;
        params[out->sweep.parameter] = v;
        std::string ctx = "sweep point " + out->sweep.parameter + "=" + dump_json(v);
        if (!s.is_null()) {
          params[out->sweep.series_parameter] = s;
          ctx += ", " + out->sweep.series_parameter + "=" + dump_json(s);
        }
        Config point;
        Errors e = build_config(params, ctx, &point);
        errors.insert(errors.end(), e.begin(), e.end());
        if (errors.size() > 20) return errors;
        configs.push_back(point);
      }
    }
  }
  if (!errors.empty()) return errors;
  // A reference may name only a metric the model of its run reports (model_metrics.hpp).
  auto reports = [&](const Json& at, const std::string& metric) {
    if (!at.is_object()) return model_reports(out->config, metric);
    auto params = out->params;
    for (auto it = at.begin(); it != at.end(); ++it) params[it.key()] = it.value();
    Config point;
    return build_config(params, "", &point).empty() && model_reports(point, metric);
  };
  for (std::size_t i = 0; i < out->reference.size(); ++i) {
    const ReferenceSpec& r = out->reference[i];
    const std::string path = "reference[" + std::to_string(i) + "]";
    if (!reports(r.at, r.metric)) {
      errors.push_back({path + ".metric", "'" + r.metric +
                                              "' is not a metric this run's model reports "
                                              "(it would be absent from the results)"});
    }
    if (r.relative && !reports(r.relative_at, r.relative_metric)) {
      errors.push_back({path + ".relative_to.metric",
                        "'" + r.relative_metric +
                            "' is not a metric the compared run's model reports (it would be "
                            "absent from the results)"});
    }
  }
  if (errors.empty()) check_work(*out, configs, &errors);
  return errors;
}

Config sweep_point_config(const Scenario& s, const Json& value, const Json& series) {
  auto params = s.params;
  params[s.sweep.parameter] = value;
  if (!series.is_null()) params[s.sweep.series_parameter] = series;
  Config c;
  build_config(params, "", &c);
  return c;
}

Errors check_log_replay(const Scenario& s, const std::vector<WebRequest>& log) {
  // The runs as api::run makes them: the main run, then every sweep point.
  std::vector<Config> configs = {s.config};
  if (s.sweep.present) {
    std::vector<Json> series = s.sweep.series_values;
    if (series.empty()) series.push_back(Json());
    for (const auto& sv : series) {
      for (const auto& v : s.sweep.values) configs.push_back(sweep_point_config(s, v, sv));
    }
  }
  if (std::none_of(configs.begin(), configs.end(), [](const Config& c) {
        return c.workload.kind == WorkloadKind::Web && c.workload.trace_from_log;
      }))
    return {};
  Errors errors = check_requests(log, "workload.trace");
  if (!errors.empty()) return errors;
  std::uint64_t blocks = 0;
  // Runs differing in other parameters reference the same blocks: counted once per (requests,
  // block size); the count stops past the limit, so it never walks more than it bounds.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> counted;
  for (const Config& c : configs) {
    if (blocks > kMaxReplayedBlocks) break;
    if (c.workload.kind != WorkloadKind::Web || c.workload.web_mode != WebMode::CacheOnly ||
        !c.workload.trace_from_log || c.nic_cache.capacity_bytes == 0)
      continue;
    const std::uint64_t n = c.workload.trace_requests > 0
                                ? std::min<std::uint64_t>(c.workload.trace_requests, log.size())
                                : log.size();
    const std::uint64_t block = c.nic_cache.block_bytes;
    auto [it, fresh] = counted.try_emplace({n, block}, 0);
    if (fresh) {
      for (std::uint64_t i = 0; i < n && it->second <= kMaxReplayedBlocks; ++i)
        it->second += (log[i].bytes + block - 1) / block;
    }
    blocks += it->second;
  }
  if (blocks > kMaxReplayedBlocks) {
    errors.push_back({s.sweep.present ? "sweep.values" : "workload.trace",
                      "replaying the access log over " + std::to_string(configs.size()) +
                          " runs would reference more cache blocks than the limit, " +
                          std::to_string(kMaxReplayedBlocks) +
                          ": sweep fewer values, set workload.trace_requests lower or use "
                          "larger system.nic_cache.block_bytes"});
  }
  return errors;
}

}  // namespace nicsim
