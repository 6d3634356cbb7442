#include "scenario/fits.hpp"

#include <algorithm>

namespace nicsim {

namespace {

// Every parameter tuned to a published value, with the checks it was tuned on. Where one figure
// serves as the fit, the others of the same mechanism stay predictions (e.g. the SRAM bandwidth
// is fitted to PARALLEL's 1553 Mb/s only; RELEASE's and BSD's bidirectional throughputs, the
// knees and the 18-byte ratios it also moves are predictions). A value taken from a paper as an
// input is listed too when a check reads it straight back (Table 3.5's latencies).
std::vector<ParameterFit> build_fits() {
  // Table 3's 24 hot miss rates, which every protocol-cache layout offset was fitted on.
  const std::vector<const char*> kTable3 = {
      "protocol-one-packet#tcp-send-off-l1i", "protocol-one-packet#tcp-send-off-l1d",
      "protocol-one-packet#tcp-send-off-l2", "protocol-one-packet#tcp-send-on-l1i",
      "protocol-one-packet#tcp-send-on-l1d", "protocol-one-packet#tcp-send-on-l2",
      "protocol-one-packet#tcp-recv-off-l1i", "protocol-one-packet#tcp-recv-off-l1d",
      "protocol-one-packet#tcp-recv-off-l2", "protocol-one-packet#tcp-recv-on-l1i",
      "protocol-one-packet#tcp-recv-on-l1d", "protocol-one-packet#tcp-recv-on-l2",
      "protocol-one-packet#udp-send-off-l1i", "protocol-one-packet#udp-send-off-l1d",
      "protocol-one-packet#udp-send-off-l2", "protocol-one-packet#udp-send-on-l1i",
      "protocol-one-packet#udp-send-on-l1d", "protocol-one-packet#udp-send-on-l2",
      "protocol-one-packet#udp-recv-off-l1i", "protocol-one-packet#udp-recv-off-l1d",
      "protocol-one-packet#udp-recv-off-l2", "protocol-one-packet#udp-recv-on-l1i",
      "protocol-one-packet#udp-recv-on-l1d", "protocol-one-packet#udp-recv-on-l2",
      // Table 6's 16 KB row and Table 7's direct-mapped row: Table 3's TCP send, the same run.
      "cache-l1-size#tcp-send-16kb-l1i", "cache-l1-size#tcp-send-16kb-l1d",
      "cache-l1-size#tcp-send-16kb-l2", "cache-associativity#tcp-send-1way-l1i",
      "cache-associativity#tcp-send-1way-l1d", "cache-associativity#tcp-send-1way-l2"};
  // What the web trace generators were fitted on (the web server's entries below say how).
  const std::vector<const char*> kTraceShape = {
      "web-two-nic-caches#berkeley-4mb",
      "web-two-nic-caches#berkeley-8mb",
      "web-two-nic-caches#berkeley-16mb",
      "web-two-nic-caches#ibm-4mb",
      "web-two-nic-caches#ibm-8mb",
      "web-two-nic-caches#ibm-16mb",
      "web-two-nic-caches#nasa-4mb",
      "web-two-nic-caches#nasa-8mb",
      "web-two-nic-caches#nasa-16mb",
      "web-two-nic-caches#rice-4mb",
      "web-two-nic-caches#rice-8mb",
      "web-two-nic-caches#rice-16mb",
      "web-two-nic-caches#worldcup-4mb",
      "web-two-nic-caches#worldcup-8mb",
      "web-two-nic-caches#worldcup-16mb",
      "web-cache-sizes#worldcup-2mb-over-35",
      "web-cache-sizes#ibm-2mb-over-35",
      "web-cache-sizes#rice-8mb-40-45",
      "web-cache-sizes#berkeley-16mb-about-12",
      "web-one-or-two-caches#two-below-one-2mb",
      "web-one-or-two-caches#two-only-slightly-below-2mb",
      "web-one-or-two-caches#two-below-one-8mb",
      "web-one-or-two-caches#two-only-slightly-below-8mb",
      "web-one-or-two-caches#two-below-one-16mb",
      "web-one-or-two-caches#two-only-slightly-below-16mb",
      "web-replacement-and-blocks#lfu-beats-lru",
      "web-replacement-and-blocks#lfu-only-slightly",
      "web-replacement-and-blocks#lru-beats-fifo",
      "web-replacement-and-blocks#lru-only-slightly",
      "web-replacement-and-blocks#small-blocks-slightly-better",
      "web-replacement-and-blocks#block-size-barely-matters"};
  return {
      // ---- Tigon (seed 000 Ch.3) ----
      // Fig 3.10 / Abstract: PARALLEL's 1553 Mb/s, bidirectional at 1472 bytes (two presets
      // compare with the same figure).
      {"system.tigon.sram_bandwidth_mbs",
       {"tigon-one-or-two-cpus#parallel-1472", "tigon-vs-asic#tigon-1472"}},
      // Fig 3.10: RELEASE's 938 Mb/s at 1472 bytes.
      {"system.tigon.sram_burst_bytes", {"tigon-one-or-two-cpus#release-1472"}},
      // Fig 3.6: RELEASE's send knee near 1000 bytes; Fig 3.8: its receive never at the limit.
      {"system.tigon.release_scratch_fraction_send",
       {"tigon-udp-send#release-at-limit-1200", "tigon-udp-send#release-below-limit-800"}},
      {"system.tigon.release_scratch_fraction_receive",
       {"tigon-udp-receive#release-never-at-limit"}},
      // BSD is object code only (§3.3.1): its knees (Figs 3.6, 3.8) and PARALLEL's factors over
      // it (Fig 3.10) are what its three effective costs were fitted to.
      {"system.tigon.bsd_scratch_fraction_send",
       {"tigon-udp-send#bsd-at-limit-1200", "tigon-udp-send#bsd-below-limit-800"}},
      {"system.tigon.bsd_scratch_fraction_receive",
       {"tigon-udp-receive#bsd-at-limit-1200", "tigon-udp-receive#bsd-below-limit-1000"}},
      {"system.tigon.bsd_instruction_scale",
       {"tigon-one-or-two-cpus#parallel-vs-bsd-18", "tigon-one-or-two-cpus#parallel-vs-bsd-1472"}},
      // The per-path instruction counts: their ratios to Fig 3.5's handler shares, their scale to
      // PARALLEL's send knee near 800 bytes (Fig 3.6).
      {"system.tigon.instructions.",
       {"tigon-handler-profile#sdr-share", "tigon-handler-profile#rc-share",
        "tigon-handler-profile#drc-share", "tigon-handler-profile#usc-share",
        "tigon-handler-profile#drc-over-twice-dwc", "tigon-udp-send#parallel-at-limit-900",
        "tigon-udp-send#parallel-below-limit-600"}},
      // Table 3.5's latencies are inputs; the benchmark reads them back.
      {"system.tigon.sram_load_ns", {"tigon-cpu-benchmark#load-latency-sram"}},
      {"system.tigon.scratch_load_cycles_a", {"tigon-cpu-benchmark#scratch-load-a-code-scratch"}},
      // ---- the web server (seed 000 Ch.4) ----
      // Fig 4.6: NASA's bus at 33 MHz without a cache (busy, content, overhead).
      {"system.bus.memory_latency_ns",
       {"web-bus-cycles#nasa-33-busy", "web-bus-cycles#nasa-33-content",
        "web-bus-cycles#nasa-33-overhead",
        // The same stall on the same figure, read through a DMA mix instead of the web server.
        "pci-33-vs-66#over-30-percent", "pci-33-vs-66#content-at-33"}},
      // Fig 4.7 and Table 4.5: the same at 66 MHz, for a few per cent more content.
      {"system.bus.bridge_read_mbps",
       {"web-bus-cycles#nasa-66-content", "web-bus-cycles#nasa-66-overhead",
        "web-bus-cycles#nasa-66-little-more",
        // The same bridge on the same figures (4.6-4.8), read through a DMA mix.
        "pci-33-vs-66#overhead-share-grows", "pci-33-vs-66#overhead-share-doubles",
        "pci-33-vs-66#little-throughput-gain"}},
      // Table 4.4: the CPU-bound IBM and World Cup without a cache.
      {"system.server.request_cost_ns",
       {"web-cpu-bound-traces#ibm-none", "web-cpu-bound-traces#worldcup-none"}},
      {"system.server.connection_cost_ns",
       {"web-cpu-bound-traces#ibm-none", "web-cpu-bound-traces#worldcup-none"}},
      // Rice's 2 requests per connection were fitted to its own row of Table 4.4 (bus-bound
      // without a cache, CPU-bound at 16 MB), over one 1 s window; over the preset's 2 s window
      // (8 MB: 1,254 Mb/s, 1,255 on average over four others) each point is 0.2-2% below the
      // row, so the fit stands.
      {"system.server.requests_per_connection",
       {"web-cpu-bound-traces#ibm-none", "web-cpu-bound-traces#worldcup-none",
        "web-rice-cache#rice-none", "web-rice-cache#rice-4mb", "web-rice-cache#rice-8mb",
        "web-rice-cache#rice-16mb"}},
      // Table 4.4: NASA with 16 MB per NIC, still bus-bound (two presets, one figure).
      {"system.server.packet_cost_ns",
       {"web-nasa-cache#nasa-16mb", "web-faster-cpu-or-bus#nasa-16mb-2200-33"}},
      // Table 4.3: the write penalties and IBM's sendfile without thttpd's file-info cache.
      // The copy and map costs were fitted over one 995 ms window per trace, a sample (8%
      // spread); the map cost was refitted over the preset's 4 s window (spread 4-5%), least
      // squares of NASA's and Rice's relative errors: 67.5 µs per page at 1.8 GHz (was 60),
      // NASA 867 and Rice 708 Mb/s, -9% and +6%. The copy cost was held at 1.5 µs per KB:
      // fitting it too drives it to the L2 copy's 0.6 or below, a copy from DRAM no dearer.
      {"system.server.copy_ns_per_kb",
       {"web-sendfile-vs-write#nasa-write", "web-sendfile-vs-write#rice-write"}},
      {"system.server.map_ns_per_page",
       {"web-sendfile-vs-write#nasa-write", "web-sendfile-vs-write#rice-write"}},
      {"system.server.copy_cached_ns_per_kb",
       {"web-sendfile-vs-write#ibm-write", "web-sendfile-vs-write#worldcup-write"}},
      {"system.server.file_info_ns", {"web-sendfile-vs-write#ibm-sendfile"}},
      // The trace generators' popularity, size and locality (core-cpp/workload/web_trace.cpp):
      // Table 4.4's reductions with two NICs, Fig 4.3's claims, Figs 4.4 and 4.5. The rises
      // with cache size and everything the full-system server does with the traces are
      // predictions.
      {"workload.trace", kTraceShape},
      // The draw they were fitted with (a generated trace is one fixed list, like a log).
      {"workload.trace_seed", kTraceShape},
      // ---- SINIC (seed 003) ----
      // The per-packet costs: Fig 7's knee (about 6 Gb/s at 1 MB, saturated from 4 MB). The
      // orderings of Figs 5-12 are then predictions.
      {"system.host_cpu.stack_tx_cycles",
       {"sinic-cache-sizes#sinic-6gbps-at-1mb", "sinic-cache-sizes#sinic-saturates-4mb"}},
      {"system.host_cpu.stack_ack_rx_cycles",
       {"sinic-cache-sizes#sinic-6gbps-at-1mb", "sinic-cache-sizes#sinic-saturates-4mb"}},
      {"system.host_cpu.stack_ack_tx_cycles",
       {"sinic-cache-sizes#sinic-6gbps-at-1mb", "sinic-cache-sizes#sinic-saturates-4mb"}},
      {"system.host_cpu.syscall_cycles",
       {"sinic-cache-sizes#sinic-6gbps-at-1mb", "sinic-cache-sizes#sinic-saturates-4mb"}},
      {"system.host_cpu.isr_cycles",
       {"sinic-cache-sizes#sinic-6gbps-at-1mb", "sinic-cache-sizes#sinic-saturates-4mb"}},
      {"system.sinic.rx_cycles",
       {"sinic-cache-sizes#sinic-6gbps-at-1mb", "sinic-cache-sizes#sinic-saturates-4mb"}},
      {"system.sinic.tx_cycles",
       {"sinic-cache-sizes#sinic-6gbps-at-1mb", "sinic-cache-sizes#sinic-saturates-4mb"}},
      // The receive stack's cost sets the packets in flight from arrival to read(): Fig 12's
      // 64 VNICs (96 KB) enough and 32 (48 KB) short, in both presets that show it.
      {"system.host_cpu.stack_rx_cycles",
       {"sinic-vnics#64-vnics-enough", "sinic-vnics#32-vnics-fall-short",
        "sinic-vnics#in-flight-over-48kb", "sinic-vnics#in-flight-under-96kb",
        "sinic-fifo-size#96kb-enough", "sinic-fifo-size#48kb-falls-short"}},
      // §3.2 footnote 3: V-SINIC without zero copy slightly below SINIC (Fig 7).
      {"system.sinic.vsinic_extra_cycles",
       {"sinic-cache-sizes#vsinic-slightly-below-sinic",
        "sinic-cache-sizes#vsinic-only-slightly-below"}},
      // ---- TCP offload (seed 004) ----
      // Table 2's access times are inputs; the register wall reads them back.
      {"system.offload.machine",
       {"offload-register-wall#register-read-500", "offload-register-wall#register-read-3200",
        "offload-register-wall#memory-grows", "offload-register-wall#l1-stays-flat"}},
      // Table 4's 512 KB receive DMAs: how many SEND responses EDT's loop makes in one pass.
      // Table 4's other 35 cells and all of Table 5 are predictions.
      {"system.offload.edt_event_ns", {"offload-one-file#offload-512k-recv-dmas"}},
      // ---- ETA+AIO and its baseline (seed 001) ----
      // Table 1 is the calibration point: each system's per-frame and per-request costs are
      // fitted to its column at 18,800 requests/s. Fig 4's peaks and crossings, Fig 5's upper
      // edge and Fig 6 are predictions.
      {"system.eta.baseline.eth_rx_frame_cycles",
       {"eta-where-the-cycles-go#1cpu-user", "eta-where-the-cycles-go#1cpu-tcpip",
        "eta-where-the-cycles-go#1cpu-ethernet", "eta-where-the-cycles-go#1cpu-kernel-other",
        "eta-where-the-cycles-go#1cpu-idle", "eta-where-the-cycles-go#sendfile-user",
        "eta-where-the-cycles-go#sendfile-tcpip", "eta-where-the-cycles-go#sendfile-ethernet",
        "eta-where-the-cycles-go#sendfile-kernel-other", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.eth_tx_frame_cycles",
       {"eta-where-the-cycles-go#1cpu-user", "eta-where-the-cycles-go#1cpu-tcpip",
        "eta-where-the-cycles-go#1cpu-ethernet", "eta-where-the-cycles-go#1cpu-kernel-other",
        "eta-where-the-cycles-go#1cpu-idle", "eta-where-the-cycles-go#sendfile-user",
        "eta-where-the-cycles-go#sendfile-tcpip", "eta-where-the-cycles-go#sendfile-ethernet",
        "eta-where-the-cycles-go#sendfile-kernel-other", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.tcp_rx_request_cycles",
       {"eta-where-the-cycles-go#1cpu-user", "eta-where-the-cycles-go#1cpu-tcpip",
        "eta-where-the-cycles-go#1cpu-ethernet", "eta-where-the-cycles-go#1cpu-kernel-other",
        "eta-where-the-cycles-go#1cpu-idle", "eta-where-the-cycles-go#sendfile-user",
        "eta-where-the-cycles-go#sendfile-tcpip", "eta-where-the-cycles-go#sendfile-ethernet",
        "eta-where-the-cycles-go#sendfile-kernel-other", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.tcp_rx_ack_cycles",
       {"eta-where-the-cycles-go#1cpu-user", "eta-where-the-cycles-go#1cpu-tcpip",
        "eta-where-the-cycles-go#1cpu-ethernet", "eta-where-the-cycles-go#1cpu-kernel-other",
        "eta-where-the-cycles-go#1cpu-idle", "eta-where-the-cycles-go#sendfile-user",
        "eta-where-the-cycles-go#sendfile-tcpip", "eta-where-the-cycles-go#sendfile-ethernet",
        "eta-where-the-cycles-go#sendfile-kernel-other", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.tcp_tx_segment_cycles",
       {"eta-where-the-cycles-go#1cpu-user", "eta-where-the-cycles-go#1cpu-tcpip",
        "eta-where-the-cycles-go#1cpu-ethernet", "eta-where-the-cycles-go#1cpu-kernel-other",
        "eta-where-the-cycles-go#1cpu-idle", "eta-where-the-cycles-go#sendfile-user",
        "eta-where-the-cycles-go#sendfile-tcpip", "eta-where-the-cycles-go#sendfile-ethernet",
        "eta-where-the-cycles-go#sendfile-kernel-other", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.kernel_request_cycles",
       {"eta-where-the-cycles-go#1cpu-user", "eta-where-the-cycles-go#1cpu-tcpip",
        "eta-where-the-cycles-go#1cpu-ethernet", "eta-where-the-cycles-go#1cpu-kernel-other",
        "eta-where-the-cycles-go#1cpu-idle", "eta-where-the-cycles-go#sendfile-user",
        "eta-where-the-cycles-go#sendfile-tcpip", "eta-where-the-cycles-go#sendfile-ethernet",
        "eta-where-the-cycles-go#sendfile-kernel-other", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.user_request_cycles",
       {"eta-where-the-cycles-go#1cpu-user", "eta-where-the-cycles-go#1cpu-tcpip",
        "eta-where-the-cycles-go#1cpu-ethernet", "eta-where-the-cycles-go#1cpu-kernel-other",
        "eta-where-the-cycles-go#1cpu-idle", "eta-where-the-cycles-go#sendfile-user",
        "eta-where-the-cycles-go#sendfile-tcpip", "eta-where-the-cycles-go#sendfile-ethernet",
        "eta-where-the-cycles-go#sendfile-kernel-other", "eta-where-the-cycles-go#sendfile-idle"}},
      // §7.1: interrupts and the SoftIRQ path "only slightly more than 2%".
      {"system.eta.baseline.irq_cycles",
       {"eta-where-the-cycles-go#interrupts-about-2",
        "eta-where-the-cycles-go#interrupts-at-most-3",
        "eta-where-the-cycles-go#sendfile-ethernet"}},
      {"system.eta.baseline.contention_tcp_permille",
       {"eta-where-the-cycles-go#sendfile-tcpip", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.contention_eth_permille",
       {"eta-where-the-cycles-go#sendfile-ethernet", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.contention_kernel_permille",
       {"eta-where-the-cycles-go#sendfile-kernel-other", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.baseline.contention_user_permille",
       {"eta-where-the-cycles-go#sendfile-user", "eta-where-the-cycles-go#sendfile-idle"}},
      {"system.eta.ppe.eth_rx_frame_cycles",
       {"eta-where-the-cycles-go#eta-aio-user", "eta-where-the-cycles-go#eta-aio-tcpip",
        "eta-where-the-cycles-go#eta-aio-ethernet", "eta-where-the-cycles-go#eta-aio-kernel-other",
        "eta-where-the-cycles-go#eta-aio-ppe-other", "eta-where-the-cycles-go#eta-aio-idle"}},
      {"system.eta.ppe.eth_tx_frame_cycles",
       {"eta-where-the-cycles-go#eta-aio-user", "eta-where-the-cycles-go#eta-aio-tcpip",
        "eta-where-the-cycles-go#eta-aio-ethernet", "eta-where-the-cycles-go#eta-aio-kernel-other",
        "eta-where-the-cycles-go#eta-aio-ppe-other", "eta-where-the-cycles-go#eta-aio-idle"}},
      {"system.eta.ppe.tcp_rx_request_cycles",
       {"eta-where-the-cycles-go#eta-aio-user", "eta-where-the-cycles-go#eta-aio-tcpip",
        "eta-where-the-cycles-go#eta-aio-ethernet", "eta-where-the-cycles-go#eta-aio-kernel-other",
        "eta-where-the-cycles-go#eta-aio-ppe-other", "eta-where-the-cycles-go#eta-aio-idle"}},
      {"system.eta.ppe.tcp_rx_ack_cycles",
       {"eta-where-the-cycles-go#eta-aio-user", "eta-where-the-cycles-go#eta-aio-tcpip",
        "eta-where-the-cycles-go#eta-aio-ethernet", "eta-where-the-cycles-go#eta-aio-kernel-other",
        "eta-where-the-cycles-go#eta-aio-ppe-other", "eta-where-the-cycles-go#eta-aio-idle"}},
      {"system.eta.ppe.tcp_tx_segment_cycles",
       {"eta-where-the-cycles-go#eta-aio-user", "eta-where-the-cycles-go#eta-aio-tcpip",
        "eta-where-the-cycles-go#eta-aio-ethernet", "eta-where-the-cycles-go#eta-aio-kernel-other",
        "eta-where-the-cycles-go#eta-aio-ppe-other", "eta-where-the-cycles-go#eta-aio-idle"}},
      {"system.eta.ppe.kernel_frame_cycles",
       {"eta-where-the-cycles-go#eta-aio-user", "eta-where-the-cycles-go#eta-aio-tcpip",
        "eta-where-the-cycles-go#eta-aio-ethernet", "eta-where-the-cycles-go#eta-aio-kernel-other",
        "eta-where-the-cycles-go#eta-aio-ppe-other", "eta-where-the-cycles-go#eta-aio-idle"}},
      {"system.eta.ppe.queue_op_cycles",
       {"eta-where-the-cycles-go#eta-aio-user", "eta-where-the-cycles-go#eta-aio-tcpip",
        "eta-where-the-cycles-go#eta-aio-ethernet", "eta-where-the-cycles-go#eta-aio-kernel-other",
        "eta-where-the-cycles-go#eta-aio-ppe-other", "eta-where-the-cycles-go#eta-aio-idle"}},
      {"system.eta.host.dusi_op_cycles",
       {"eta-where-the-cycles-go#eta-aio-user", "eta-where-the-cycles-go#eta-aio-idle"}},
      {"system.eta.host.kernel_request_cycles",
       {"eta-where-the-cycles-go#eta-aio-kernel-other", "eta-where-the-cycles-go#eta-aio-idle"}},
      // §7.1: signals, the Kernel Agent, IPIs and system calls, 2.70% of the cycles.
      {"system.eta.host.signal_deliver_cycles",
       {"eta-where-the-cycles-go#signal-path", "eta-where-the-cycles-go#eta-aio-kernel-other"}},
      // Fig 5: where ETA+AIO's window opens (25%); where it closes (55%) is a prediction.
      {"workload.eta.encrypt_cycles_per_kb",
       {"eta-balancing-the-work#baseline-wins-at-10", "eta-balancing-the-work#window-opens-by-30"}},
      // ---- the protocol fast paths through the host caches (seed 002) ----
      // Table 3 (hot, 16 KB direct-mapped L1s, 1 MB direct-mapped L2): every code and data
      // offset was placed by coordinate descent on its 24 miss rates (core-cpp/scripts/
      // fit_protocache_layout.cpp); the cold, ideal, size, associativity, machine and CORD
      // checks stay predictions.
      {"workload.code.user_send.offset", kTable3},
      {"workload.code.user_recv.offset", kTable3},
      {"workload.code.tcp_output.offset", kTable3},
      {"workload.code.tcp_input.offset", kTable3},
      {"workload.code.udp_output.offset", kTable3},
      {"workload.code.udp_input.offset", kTable3},
      {"workload.code.ip_output.offset", kTable3},
      {"workload.code.ip_input.offset", kTable3},
      {"workload.code.fddi_output.offset", kTable3},
      {"workload.code.fddi_input.offset", kTable3},
      {"workload.code.msg.offset", kTable3},
      {"workload.code.event.offset", kTable3},
      {"workload.code.checksum.offset", kTable3},
      {"workload.data.user.offset", kTable3},
      {"workload.data.tcp.offset", kTable3},
      {"workload.data.udp.offset", kTable3},
      {"workload.data.ip.offset", kTable3},
      {"workload.data.fddi.offset", kTable3},
      {"workload.data.msg.offset", kTable3},
      {"workload.data.event.offset", kTable3},
      {"workload.data.send_buffer.offset", kTable3},
      {"workload.data.receive_buffer.offset", kTable3},
      // Table 4's hot column (the 1994 machine's hot TCP send of Tables 9 and 10 is the same run):
      // the CPIs of the protocol code and of the checksum loop, by least squares.
      {"system.host_cache.protocol_cpi",
       {"protocol-cold-hot#tcp-send-off-hot", "protocol-cold-hot#tcp-send-on-hot",
        "protocol-cold-hot#udp-send-off-hot", "protocol-cold-hot#udp-send-on-hot",
        "cache-machines#hot-1994-latency", "cache-machines#hot-1994-cpi"}},
      {"system.host_cache.checksum_cpi",
       {"protocol-cold-hot#tcp-send-off-hot", "protocol-cold-hot#tcp-send-on-hot",
        "protocol-cold-hot#udp-send-off-hot", "protocol-cold-hot#udp-send-on-hot"}},
  };
}

bool matches(const char* fit_path, const std::string& path) {
  const std::string p = fit_path;
  if (!p.empty() && p.back() == '.') return path.compare(0, p.size(), p) == 0;
  return p == path;
}

}  // namespace

const std::vector<ParameterFit>& parameter_fits() {
  static const std::vector<ParameterFit> fits = build_fits();
  return fits;
}

std::vector<std::string> fitted_to(const std::string& path) {
  std::vector<std::string> out;
  for (const auto& f : parameter_fits()) {
    if (!matches(f.path, path)) continue;
    for (const char* c : f.checks) {
      if (std::find(out.begin(), out.end(), c) == out.end()) out.emplace_back(c);
    }
  }
  return out;
}

const char* check_basis(const std::string& scenario_id, const std::string& reference_id) {
  const std::string id = scenario_id + "#" + reference_id;
  for (const auto& f : parameter_fits()) {
    for (const char* c : f.checks) {
      if (id == c) return "fitted";
    }
  }
  return "predicted";
}

}  // namespace nicsim
