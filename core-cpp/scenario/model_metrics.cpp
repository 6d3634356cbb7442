#include "scenario/model_metrics.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace nicsim {

namespace {

// What each run reports (api/system.cpp, web_run.cpp, web_system.cpp, sinic_run.cpp); a test
// runs every preset and random points and compares (model_metrics_test.cpp).
constexpr const char* kUdpRun[] = {
    "bus_content_share",
    "bus_cycle_time",
    "bus_cycles",
    "bus_data_fraction",
    "bus_efficiency",
    "bus_overhead_share",
    "bus_refusals",
    "bus_transactions",
    "bus_util_address",
    "bus_util_app_headers",
    "bus_util_arbitration",
    "bus_util_content",
    "bus_util_descriptors",
    "bus_util_idle",
    "bus_util_network_headers",
    "bus_util_other_devices",
    "bus_util_retry",
    "bus_util_turnaround",
    "bus_util_wait",
    "bus_utilization",
    "content_throughput",
    "dma_queue_full",
    "ethernet_limit",
    "events",
    "frame_wire_time",
    "host_cpu_utilization",
    "interrupts",
    "interrupts_per_packet",
    "mailbox_writes",
    "pio_reads",
    "rx_drop_fraction",
    "rx_drops_buffer_full",
    "rx_drops_no_descriptor",
    "rx_packet_rate",
    "send_ring_full_stalls",
    "send_ring_occupancy_mean",
    "sim_time",
    "tx_buffer_full",
    "tx_packet_rate",
    "udp_rx_throughput",
    "udp_total_throughput",
    "udp_tx_throughput",
    "window",
};
constexpr const char* kWebCacheOnly[] = {
    "cache_block_hit_rate",
    "cache_evictions",
    "cache_insertions",
    "cache_request_hit_rate",
    "cache_slots",
    "content_traffic_reduction",
    "web_average_response_bytes",
    "web_cached_mb",
    "web_content_mb",
    "web_data_set_mb",
    "web_distinct_files",
    "web_requests",
};
constexpr const char* kWebFullSystem[] = {
    "bus_content_share",
    "bus_cycle_time",
    "bus_cycles",
    "bus_efficiency",
    "bus_overhead_share",
    "bus_transactions",
    "bus_util_address",
    "bus_util_app_headers",
    "bus_util_arbitration",
    "bus_util_content",
    "bus_util_descriptors",
    "bus_util_idle",
    "bus_util_network_headers",
    "bus_util_other_devices",
    "bus_util_retry",
    "bus_util_turnaround",
    "bus_util_wait",
    "bus_utilization",
    "cache_evictions",
    "cache_insertions",
    "cache_slots",
    "content_throughput",
    "content_traffic_reduction",
    "events",
    "host_cpu_utilization",
    "interrupts",
    "sim_time",
    "tx_packet_rate",
    "web_acks_per_request",
    "web_average_response_bytes",
    "web_bottleneck",
    "web_bus_content_mb",
    "web_cache_insert_mb",
    "web_content_mb",
    "web_copied_mb",
    "web_copy_miss_rate",
    "web_cpu_per_request",
    "web_descriptors_per_packet",
    "web_disk_utilization",
    "web_file_cache_hit_rate",
    "web_mmap_miss_rate",
    "web_nic_cache_mb",
    "web_packets_per_request",
    "web_request_rate",
    "web_request_rate_trace_mix",
    "web_requests",
    "web_throughput",
    "web_window_response_bytes",
    "window",
};
constexpr const char* kIpRouter[] = {
    "bus_content_share",
    "bus_cycle_time",
    "bus_cycles",
    "bus_efficiency",
    "bus_overhead_share",
    "bus_transactions",
    "bus_util_address",
    "bus_util_app_headers",
    "bus_util_arbitration",
    "bus_util_content",
    "bus_util_descriptors",
    "bus_util_idle",
    "bus_util_network_headers",
    "bus_util_other_devices",
    "bus_util_retry",
    "bus_util_turnaround",
    "bus_util_wait",
    "bus_utilization",
    "events",
    "host_cpu_utilization",
    "interrupts",
    "router_loss",
    "router_offered_rate",
    "router_packet_rate",
    "router_queue_drops",
    "sim_time",
    "window",
};
constexpr const char* kTcpStream[] = {
    "cpu_copy",
    "cpu_driver",
    "cpu_idle",
    "cpu_stack",
    "cpu_user",
    "events",
    "l2_misses_per_kb",
    "link_pause_share",
    "register_reads_per_packet",
    "rx_fifo_mean_kb",
    "rx_fifo_peak_kb",
    "sim_time",
    "tcp_goodput_limit",
    "tcp_packets_per_interrupt",
    "tcp_throughput",
    "vnics_bound_peak",
    "window",
    "zero_copy_share",
};

constexpr const char* kTcpOffload[] = {
    "events",
    "ledger_control_dmas",
    "ledger_descriptor_dmas",
    "ledger_header_bytes",
    "ledger_payload_bytes",
    "ledger_recv_bytes",
    "ledger_recv_cycles",
    "ledger_recv_dmas",
    "ledger_send_bytes",
    "ledger_send_cycles",
    "ledger_send_dmas",
    "machine_l1_cycles",
    "machine_l2_cycles",
    "machine_memory_cycles",
    "machine_register_read_cycles",
    "machine_register_write_cycles",
    "offload_client_frames",
    "offload_descriptor_wait_us",
    "offload_files_done",
    "offload_host_events",
    "offload_recv_crossings",
    "offload_segments",
    "offload_send_crossings",
    "offload_transfer_us",
    "register_read_cycles_per_transfer",
    "sim_time",
    "window",
};
constexpr const char* kEtaAio[] = {
    "eta_bin_ethernet",
    "eta_bin_idle",
    "eta_bin_kernel_other",
    "eta_bin_ppe_other",
    "eta_bin_tcpip",
    "eta_bin_user",
    "eta_cpu0_busy",
    "eta_cpu1_busy",
    "eta_cpu_utilization",
    "eta_cycles_per_request",
    "eta_interrupt_share",
    "eta_interrupts_per_request",
    "eta_latency_ms",
    "eta_link_limit",
    "eta_offered_rate",
    "eta_ppe_productive",
    "eta_refused_share",
    "eta_request_rate",
    "eta_signal_path",
    "eta_signals_per_request",
    "eta_throughput",
    "eta_unproductive_polling",
    "eta_unproductive_share_of_ppe_other",
    "events",
    "sim_time",
    "window",
};
constexpr const char* kProtocolCache[] = {
    "events",
    "proto_cpi",
    "proto_cpu_us",
    "proto_data_refs",
    "proto_i_to_d",
    "proto_instructions",
    "proto_l1d_miss_rate",
    "proto_l1i_miss_rate",
    "proto_l2_miss_rate",
    "proto_latency_us",
    "proto_memory_share",
    "proto_packets",
    "proto_stall_l2_us",
    "proto_stall_memory_us",
    "sim_time",
    "window",
};

template <std::size_t N>
bool in(const char* const (&names)[N], const std::string& m) {
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return m == n; });
}

bool starts(const std::string& m, const char* prefix) {
  return m.compare(0, std::strlen(prefix), prefix) == 0;
}

}  // namespace

bool model_reports(const Config& cfg, const std::string& m) {
  switch (cfg.workload.kind) {
    case WorkloadKind::Web:
      if (cfg.workload.web_mode != WebMode::FullSystem) return in(kWebCacheOnly, m);
      // thttpd over the Tigon (the thesis Table 3.6): its CPUs and SRAM too.
      return in(kWebFullSystem, m) ||
             (cfg.nic_model == NicModel::Tigon &&
              (m == "tigon_cpu_a_utilization" || m == "tigon_cpu_b_utilization" ||
               m == "tigon_sram_utilization"));
    case WorkloadKind::TcpStream:
      return in(kTcpStream, m);
    case WorkloadKind::TcpOffload:
      return in(kTcpOffload, m);
    case WorkloadKind::EtaAio:
      return in(kEtaAio, m);
    case WorkloadKind::ProtocolCache:
      return in(kProtocolCache, m);
    case WorkloadKind::IpRouter:
      return in(kIpRouter, m) ||
             (cfg.nic_model == NicModel::Tigon &&
              (m == "tigon_cpu_a_utilization" || m == "tigon_cpu_b_utilization" ||
               m == "tigon_sram_utilization"));
    case WorkloadKind::Udp:
    case WorkloadKind::TcpSegments:
    case WorkloadKind::CpuBenchmark:
      break;
  }
  const bool benchmark = cfg.workload.kind == WorkloadKind::CpuBenchmark;
  // A TCP-segment run moves content, not datagrams.
  if (starts(m, "udp_")) return cfg.workload.kind != WorkloadKind::TcpSegments && in(kUdpRun, m);
  if (starts(m, "bench_")) return benchmark;
  if (starts(m, "tigon_")) {
    if (cfg.nic_model == NicModel::Tigon) return true;
    return benchmark && (m == "tigon_cpu_a_utilization" || m == "tigon_cpu_b_utilization");
  }
  return in(kUdpRun, m);
}

}  // namespace nicsim
