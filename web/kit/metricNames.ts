// The display name of every metric the core can report (core-cpp/scenario/scenario.cpp's
// catalogue; metricNames.test.ts checks that each name in the scenario schema has one here), and
// how a metric's unit reads. One table, so the results, the A/B table, the charts and the tours
// name a metric alike, never as its raw identifier ("Bench mips a").
import { TIGON_EVENTS } from '../trace/traceKinds';
import { humanize } from './format';

const NAMES: Record<string, string> = {
  // UDP and the wire
  udp_tx_throughput: 'UDP send throughput',
  udp_rx_throughput: 'UDP receive throughput',
  udp_total_throughput: 'UDP throughput, both directions',
  content_throughput: 'Content throughput',
  ethernet_limit: 'Ethernet limit',
  frame_wire_time: 'Wire time of one frame',
  tx_packet_rate: 'Packets sent per second',
  rx_packet_rate: 'Packets received per second',
  rx_drops_no_descriptor: 'Frames dropped: no receive buffer',
  rx_drops_buffer_full: 'Frames dropped: NIC receive buffer full',
  rx_drop_fraction: 'Share of frames dropped',
  link_pause_share: 'Share of time the link was paused',
  // The I/O bus
  bus_utilization: 'Bus utilisation',
  bus_data_fraction: 'Bus time moving data',
  bus_transactions: 'Bus transactions',
  bus_cycles: 'Bus cycles',
  bus_cycle_time: 'Bus cycle time',
  bus_util_content: 'Bus cycles: packet content',
  bus_util_network_headers: 'Bus cycles: network headers',
  bus_util_app_headers: 'Bus cycles: application headers',
  bus_util_descriptors: 'Bus cycles: descriptors and ring indices',
  bus_util_other_devices: 'Bus cycles: other devices',
  bus_util_arbitration: 'Bus cycles: arbitration',
  bus_util_address: 'Bus cycles: address phases',
  bus_util_wait: 'Bus cycles: waits (memory stall)',
  bus_util_retry: 'Bus cycles: retries',
  bus_util_turnaround: 'Bus cycles: turnaround',
  bus_util_idle: 'Bus cycles: idle',
  bus_efficiency: 'Bus efficiency (data of busy cycles)',
  bus_overhead_share: 'Bus overhead share of traffic',
  bus_content_share: 'Bus content share of traffic',
  bus_refusals: 'Bus busy refusals',
  // Host, driver and rings
  host_cpu_utilization: 'Host CPU utilisation',
  interrupts: 'Interrupts',
  interrupts_per_packet: 'Interrupts per packet',
  send_ring_full_stalls: 'Send ring full stalls',
  send_ring_occupancy_mean: 'Send ring occupancy (mean)',
  pio_reads: 'Register reads by PIO',
  mailbox_writes: 'Mailbox writes',
  dma_queue_full: 'DMA queue full refusals',
  tx_buffer_full: 'Transmit buffer full waits',
  // The Tigon
  tigon_cpu_a_utilization: 'Tigon CPU A utilisation',
  tigon_cpu_b_utilization: 'Tigon CPU B utilisation',
  tigon_cpu_a_share: 'Handler time on CPU A',
  tigon_semaphore_spin: 'Semaphore spin time',
  tigon_sram_utilization: 'Tigon SRAM utilisation',
  tigon_sram_wait_ns: 'SRAM wait per access',
  tigon_send_data_time: 'Send Data Ready handler time',
  tigon_receive_time: 'Receive Complete handler time',
  tigon_work_lost: 'Tigon work lost (must be 0)',
  bench_mips_a: 'CPU A instruction rate',
  bench_mips_b: 'CPU B instruction rate',
  bench_load_latency_sram_ns: 'Load latency, SRAM',
  bench_load_latency_scratch_ns: 'Load latency, scratch pad',
  bench_load_bw_sram: 'Load bandwidth, SRAM',
  bench_load_bw_scratch: 'Load bandwidth, scratch pad',
  bench_store_bw_sram: 'Store bandwidth, SRAM',
  bench_store_bw_scratch: 'Store bandwidth, scratch pad',
  // The web server and its NIC caches
  content_traffic_reduction: 'Content traffic reduction',
  cache_block_hit_rate: 'Cache block hit rate',
  cache_request_hit_rate: 'Cache request hit rate',
  cache_insertions: 'Cache insertions',
  cache_evictions: 'Cache evictions',
  cache_slots: 'Cache slots per NIC',
  web_requests: 'Requests',
  web_content_mb: 'Content served',
  web_cached_mb: 'Content from the NIC cache',
  web_distinct_files: 'Distinct files',
  web_data_set_mb: 'Data set',
  web_average_response_bytes: 'Mean response (trace)',
  web_throughput: 'Web throughput',
  web_request_rate: 'Requests/s',
  web_request_rate_trace_mix: "Requests/s (the trace's mix)",
  web_window_response_bytes: 'Mean response (window)',
  web_mmap_miss_rate: 'mmap miss rate (write)',
  web_copied_mb: 'Content copied (write)',
  web_copy_miss_rate: 'Copies from DRAM (write)',
  router_packet_rate: 'Packets forwarded',
  router_offered_rate: 'Packets offered',
  router_loss: 'Packets not forwarded',
  router_queue_drops: 'Router queue drops',
  web_disk_utilization: 'Disk utilisation',
  web_bottleneck: 'Bottleneck',
  web_file_cache_hit_rate: 'File-cache hit rate',
  web_bus_content_mb: 'Content across the bus',
  web_cache_insert_mb: 'Content inserted into NIC caches',
  web_nic_cache_mb: 'Content appended from NIC caches',
  web_packets_per_request: 'Segments per response',
  web_descriptors_per_packet: 'Send descriptors per segment',
  web_acks_per_request: 'ACKs per response',
  web_cpu_per_request: 'Host CPU per response',
  // TCP on the SINIC paper's host
  tcp_throughput: 'TCP throughput',
  tcp_goodput_limit: 'TCP goodput limit of the wire',
  cpu_driver: 'CPU share: driver',
  cpu_stack: 'CPU share: TCP/IP stack',
  cpu_copy: 'CPU share: copying',
  cpu_user: 'CPU share: user',
  cpu_idle: 'CPU share: idle',
  l2_misses_per_kb: 'L2 misses per KiB received',
  zero_copy_share: 'Zero-copy share',
  tcp_packets_per_interrupt: 'Packets per interrupt',
  rx_fifo_mean_kb: 'Receive FIFO (mean)',
  rx_fifo_peak_kb: 'Receive FIFO (peak)',
  vnics_bound_peak: 'VNICs in use (peak)',
  register_reads_per_packet: 'Register reads per packet',
  // TCP offload: one file through an E1000 or the offload adapter
  ledger_send_dmas: 'Send DMAs (host to adapter)',
  ledger_send_cycles: 'Send bus cycles',
  ledger_send_bytes: 'Send bytes',
  ledger_recv_dmas: 'Receive DMAs (adapter to host)',
  ledger_recv_cycles: 'Receive bus cycles',
  ledger_recv_bytes: 'Receive bytes',
  ledger_control_dmas: 'Handshake, ACK and FIN frame DMAs',
  ledger_header_bytes: 'Header bytes on the bus',
  ledger_descriptor_dmas: 'Descriptor, response and index DMAs',
  ledger_payload_bytes: 'File and request bytes on the bus',
  offload_host_events: 'Events the host handles',
  offload_segments: 'Data segments on the wire',
  offload_client_frames: 'Frames from the client',
  offload_send_crossings: 'Request descriptor crossings',
  offload_recv_crossings: 'Response descriptor crossings',
  offload_descriptor_wait_us: 'Descriptor wait for its batch (mean)',
  offload_transfer_us: 'Transfer time',
  offload_files_done: 'Files transferred',
  machine_l1_cycles: 'L1 hit',
  machine_l2_cycles: 'L2 hit',
  machine_memory_cycles: 'Main memory access',
  machine_register_read_cycles: 'Register read',
  machine_register_write_cycles: 'Register write',
  register_read_cycles_per_transfer: 'Interrupt-cause reads per file',
  // The userver on the baseline or ETA+AIO (seed 001)
  eta_throughput: 'HTTP throughput',
  eta_request_rate: 'Requests served per second',
  eta_offered_rate: 'Requests offered per second',
  eta_refused_share: 'Requests refused',
  eta_cpu_utilization: 'CPU utilisation (both CPUs)',
  eta_cpu0_busy: 'CPU 0 (PPE) busy',
  eta_cpu1_busy: 'CPU 1 (application) busy',
  eta_ppe_productive: 'PPE time doing work',
  eta_bin_user: 'Cycles: user',
  eta_bin_tcpip: 'Cycles: TCP/IP',
  eta_bin_ethernet: 'Cycles: Ethernet',
  eta_bin_kernel_other: 'Cycles: kernel other',
  eta_bin_ppe_other: 'Cycles: PPE other',
  eta_bin_idle: 'Cycles: idle',
  eta_unproductive_polling: 'Cycles: empty PPE iterations',
  eta_unproductive_share_of_ppe_other: 'Empty iterations in PPE other',
  eta_signal_path: 'Cycles: signals, Kernel Agent, IPIs',
  eta_interrupt_share: 'Cycles: NIC interrupts',
  eta_signals_per_request: 'Signals per request',
  eta_interrupts_per_request: 'Interrupts per request',
  eta_cycles_per_request: 'Busy cycles per request',
  eta_latency_ms: 'Response time (mean)',
  eta_link_limit: "Payload limit of the NICs' wires",
  // Protocol fast paths through the host caches (seed 002)
  proto_latency_us: 'Latency per packet',
  proto_cpu_us: 'CPU time per packet',
  proto_stall_l2_us: 'Stall: served by the L2',
  proto_stall_memory_us: 'Stall: served by memory',
  proto_cpi: 'Cycles per instruction',
  proto_instructions: 'Instructions per packet',
  proto_data_refs: 'Data references per packet',
  proto_i_to_d: 'Instruction to data references',
  proto_l1i_miss_rate: 'L1-I miss rate',
  proto_l1d_miss_rate: 'L1-D miss rate',
  proto_l2_miss_rate: 'L2 miss rate',
  proto_memory_share: 'Share of time waiting for memory',
  proto_packets: 'Packets measured',
  // The run
  events: 'Events simulated',
  sim_time: 'Simulated time',
  window: 'Measured window',
};

// The Tigon's per-event metrics, named by the thesis's event names (Table 3.1).
for (const e of TIGON_EVENTS) {
  NAMES[`tigon_share_${e.name}`] = `Handler time: ${e.label}`;
  NAMES[`tigon_runs_${e.name}`] = `${e.label} runs per packet`;
}

export const METRIC_NAMES: Readonly<Record<string, string>> = NAMES;

/** A metric's display name, or null when the table has none. */
export function metricName(name: string): string | null {
  return NAMES[name] ?? null;
}

// The core's units as they read. Its KB are 1024 bytes (buffer and FIFO sizes): say KiB. Its MB
// (web content) and MB/s are 10^6 bytes, Mb/s 10^6 bit/s.
const UNITS: Record<string, string> = {
  KB: 'KiB',
  'misses/KB': 'misses/KiB',
  'M instructions/s': 'million instructions/s',
};

/** A metric unit as it reads ("fraction" is drawn as % by its caller). */
export function unitLabel(unit: string): string {
  return UNITS[unit] ?? unit;
}

/** A metric's display name: the table's, else its identifier in words. */
export function metricLabel(name: string): string {
  return NAMES[name] ?? humanize(name);
}

/** Metrics whose unit lists codes ("0 bus, 1 CPU, 2 disk"): compared, never subtracted. */
export function isCategorical(unit: string): boolean {
  return /^\d+ [^,]+(, \d+ [^,]+)+$/.test(unit);
}

/** A code's name from its unit ("0 bus, 1 CPU, 2 disk", 1 → "CPU"), else the number. */
export function categoryLabel(unit: string, v: number): string {
  for (const part of unit.split(',')) {
    const m = /^\s*(\d+) (.+?)\s*$/.exec(part);
    if (m && Number(m[1]) === v) return m[2]!;
  }
  return String(v);
}
