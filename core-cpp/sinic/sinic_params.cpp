// The parameters of the SINIC paper ("Integrated Network Interfaces for High-Bandwidth TCP/IP":
// SINIC / V-SINIC and the host they live in). Numbers the paper gives cite it; the rest are
// "chosen" with the reason (per-packet costs are fitted to the Fig 7 knee, scenario/fits.cpp;
// the orderings of Figs 5-12 are predictions; see the presets' parameter notes).
#include <cmath>
#include <string>

#include "scenario/param_fields.hpp"
#include "scenario/params.hpp"

namespace nicsim {

namespace {

#define KB_FIELD(field)                                                                          \
  [](Config& c, const Json& v) { c.field = static_cast<std::int64_t>(v.get<double>()) * 1024; }, \
      [](const Config& c) { return Json(c.field / 1024); }

constexpr double kNsScale = 1000.0;
constexpr double kUsScale = 1000000.0;

ParamSpec cycles(const char* path, double def, const char* origin, const char* description,
                 void (*set)(Config&, const Json&), Json (*get)(const Config&)) {
  return {path, ParamType::Integer, 0, 1000000, {}, def, "cycles", origin, description, set, get};
}

const char* policy_name(ZeroCopyPolicy p) {
  return p == ZeroCopyPolicy::Aggressive     ? "aggressive"
         : p == ZeroCopyPolicy::Conservative ? "conservative"
                                             : "off";
}

}  // namespace

bool nic_model_from_name(const std::string& n, NicModel* out) {
  if (n == "fixed")
    *out = NicModel::Fixed;
  else if (n == "tigon")
    *out = NicModel::Tigon;
  else if (n == "cnic-off-chip")
    *out = NicModel::CnicOffChip;
  else if (n == "cnic-on-chip")
    *out = NicModel::CnicOnChip;
  else if (n == "sinic")
    *out = NicModel::Sinic;
  else if (n == "v-sinic")
    *out = NicModel::VSinic;
  else
    return false;
  return true;
}

const char* nic_model_name(NicModel m) {
  switch (m) {
    case NicModel::Fixed:
      return "fixed";
    case NicModel::Tigon:
      return "tigon";
    case NicModel::CnicOffChip:
      return "cnic-off-chip";
    case NicModel::CnicOnChip:
      return "cnic-on-chip";
    case NicModel::Sinic:
      return "sinic";
    case NicModel::VSinic:
      return "v-sinic";
  }
  return "fixed";
}

void add_sinic_params(std::vector<ParamSpec>& r) {
  const char* calibrated =
      "chosen: the paper gives no instruction counts (seed 003 §0); per-packet costs fitted to "
      "the Fig 7 knee (10 Gb/s at 4-8 MB, ~6 Gb/s at 1 MB; fitted_to names the checks); the "
      "orderings of Figs 5-12 then come out as predictions";
  // ---- the host CPU (Table 1) ----
  r.push_back({"system.host_cpu.ghz",
               ParamType::Choice,
               0,
               0,
               {2, 4},
               4,
               "GHz",
               "seed 003 Table 1: 2 GHz or 4 GHz (which figure used which is not stated; 4 chosen)",
               "tcp-stream: host CPU clock",
               INT_FIELD(sinic.cpu.ghz)});
  r.push_back(cycles("system.host_cpu.stack_rx_cycles", 2500,
                     "chosen: the paper gives no instruction counts; with it SINIC's receive "
                     "keeps up with 10 Gb/s at 4 GHz (Figs 5, 7) and V-SINIC's zero-copy "
                     "receive runs near 90% busy, so the driver's poll batches, and the packets "
                     "in flight from arrival to read(), come to about 45 (Fig 12's 64 VNICs)",
                     "tcp-stream: TCP/IP receive processing of one data segment",
                     INT_FIELD(sinic.cpu.stack_rx_cycles)));
  r.push_back(cycles("system.host_cpu.stack_tx_cycles", 1900, calibrated,
                     "tcp-stream: TCP/IP output of one segment",
                     INT_FIELD(sinic.cpu.stack_tx_cycles)));
  r.push_back(cycles("system.host_cpu.stack_ack_rx_cycles", 700, calibrated,
                     "tcp-stream: TCP/IP processing of one received ACK",
                     INT_FIELD(sinic.cpu.stack_ack_rx_cycles)));
  r.push_back(cycles("system.host_cpu.stack_ack_tx_cycles", 500, calibrated,
                     "tcp-stream: building one ACK or window update",
                     INT_FIELD(sinic.cpu.stack_ack_tx_cycles)));
  r.push_back(cycles("system.host_cpu.syscall_cycles", 1500, calibrated,
                     "tcp-stream: entering and leaving one send() or recv()",
                     INT_FIELD(sinic.cpu.syscall_cycles)));
  r.push_back(cycles("system.host_cpu.user_cycles", 1000,
                     "chosen: §5.2 says little time is spent in the benchmark code",
                     "tcp-stream: netperf's own work per call", INT_FIELD(sinic.cpu.user_cycles)));
  r.push_back(cycles("system.host_cpu.isr_cycles", 1500, calibrated,
                     "tcp-stream: entering and leaving the interrupt handler",
                     INT_FIELD(sinic.cpu.isr_cycles)));
  r.push_back({"system.host_cpu.copy_bytes_per_cycle",
               ParamType::Integer,
               1,
               64,
               {},
               8,
               "bytes/cycle",
               "chosen: an 8-byte load and store per cycle for a cache-to-cache copy (Table 1: 4 "
               "instructions per cycle, 64 bytes per cycle L1-L2)",
               "tcp-stream: copy rate while both buffers are in the cache",
               INT_FIELD(sinic.cpu.copy_bytes_per_cycle)});
  // ---- the L2 (Table 1, §6) ----
  r.push_back({"system.l2.kbytes",
               ParamType::Integer,
               256,
               16384,
               {},
               8192,
               "KB",
               "seed 003 Table 1: size varies; 8 MB in Figs 5/6, 1 MB in Figs 10/11",
               "tcp-stream: L2 cache shared by the CPU and the NIC's data placement",
               KB_FIELD(sinic.l2.bytes)});
  r.push_back({"system.l2.hot_kbytes",
               ParamType::Integer,
               0,
               16384,
               {},
               1008,
               "KB",
               "chosen: the kernel, netperf and the user buffer keep this much of the L2; with "
               "it a 1 MB L2 leaves network buffers almost no room, so they spill to DRAM (§6) "
               "while 4-8 MB hold a whole socket buffer of them",
               "tcp-stream: L2 space not available to network buffers",
               KB_FIELD(sinic.l2.hot_bytes)});
  r.push_back({"system.l2.memory_latency_ns",
               ParamType::Number,
               1,
               1000,
               {},
               50,
               "ns",
               "seed 003 Table 1: main memory 50 ns",
               "tcp-stream: DRAM latency of an L2 miss",
               TIME_FIELD(sinic.l2.memory_latency, kNsScale)});
  r.push_back({"system.l2.copy_mlp",
               ParamType::Number,
               1,
               16,
               {},
               1.4,
               "misses",
               "chosen: misses a copy loop keeps in flight (Table 1 allows 40 MSHRs, but the "
               "128-entry ROB holds a few lines of a copy); 1.4 sets SINIC's 1 MB bandwidth "
               "near the 6 Gb/s of Fig 7",
               "tcp-stream: overlap of the misses of one copy",
               [](Config& c, const Json& v) {
                 c.sinic.l2.copy_mlp_x100 = std::llround(v.get<double>() * 100.0);
               },
               [](const Config& c) {
                 return Json(static_cast<double>(c.sinic.l2.copy_mlp_x100) / 100.0);
               }});
  // ---- the conventional NIC (§2.2, §5.1) ----
  const char* descriptors =
      "chosen: descriptor management makes the CNIC's driver about a quarter dearer per packet "
      "than SINIC's (§6: SINIC's FIFO management is 'more than offset by the removal of the "
      "descriptor management code'; SINIC slightly outperforms the on-chip CNIC, also when "
      "CPU-bound, e.g. at 2 GHz)";
  r.push_back(cycles("system.cnic.rx_cycles", 600, descriptors,
                     "CNIC driver: one received descriptor (sk_buff conversion, refill)",
                     INT_FIELD(sinic.cnic.rx_cycles)));
  r.push_back(cycles("system.cnic.tx_cycles", 500, descriptors,
                     "CNIC driver: building and posting one packet's descriptors",
                     INT_FIELD(sinic.cnic.tx_cycles)));
  r.push_back(cycles("system.cnic.reclaim_cycles", 250, descriptors,
                     "CNIC driver: reclaiming one sent packet's descriptors and buffers",
                     INT_FIELD(sinic.cnic.reclaim_cycles)));
  r.push_back({"system.cnic.interrupt_interval_us",
               ParamType::Number,
               0,
               1000,
               {},
               10,
               "µs",
               "seed 003 §5.1: interrupts bounded to once per 10 µs (also gem5 SINIC's "
               "intr_delay, nic_facts §1.6)",
               "tcp-stream: shortest time between two interrupts (all four NICs)",
               TIME_FIELD(sinic.cnic.interrupt_interval, kUsScale)});
  r.push_back({"system.cnic.pio_read_ns",
               ParamType::Number,
               0,
               10000,
               {},
               500,
               "ns",
               "seed 003 §2.2: uncached accesses to device registers 'may require thousands of "
               "CPU cycles': 2000 cycles at 4 GHz (1000 at 2 GHz)",
               "off-chip CNIC: an uncached register read across the I/O bridge (the interrupt "
               "handler's status read)",
               TIME_FIELD(sinic.cnic.pio_read_off_chip, kNsScale)});
  r.push_back({"system.cnic.pio_write_ns",
               ParamType::Number,
               0,
               10000,
               {},
               250,
               "ns",
               "chosen: §6 puts the off-chip driver's extra time on 'the latency of device "
               "register accesses'; the CPU waits for an uncached store until the I/O bridge "
               "takes it, half a read's round trip",
               "off-chip CNIC: one register write (interrupt mask, doorbell)",
               TIME_FIELD(sinic.cnic.pio_write_off_chip, kNsScale)});
  r.push_back({"system.cnic.register_ns",
               ParamType::Number,
               0,
               1000,
               {},
               5,
               "ns",
               "chosen: an on-die register is about as close as the L2 (Table 1: 25 cycles)",
               "on-chip NICs: one register access",
               TIME_FIELD(sinic.cnic.register_on_chip, kNsScale)});
  r.push_back({"system.cnic.dma_latency_ns",
               ParamType::Number,
               0,
               10000,
               {},
               500,
               "ns",
               "chosen: a PCI-Express-like link and I/O bridge round trip (§6); the data then "
               "moves at HyperTransport's 6.4 GB/s (Table 1)",
               "off-chip CNIC: latency of one DMA",
               TIME_FIELD(sinic.cnic.dma_latency_off_chip, kNsScale)});
  r.push_back({"system.cnic.ring_entries",
               ParamType::Integer,
               8,
               4096,
               {},
               256,
               "descriptors",
               "chosen: nic_facts §2.2 (the ns83820 driver: 64 receive, 128 transmit), scaled "
               "for 10 Gb/s",
               "CNIC: descriptors per ring",
               INT_FIELD(sinic.cnic.ring_entries)});
  // ---- SINIC / V-SINIC (§3, §4, §6) ----
  r.push_back({"system.sinic.rx_fifo_kbytes",
               ParamType::Integer,
               2,
               16384,
               {},
               512,
               "KB",
               "seed 003 §6: the receive FIFO was 512 kB",
               "Receive FIFO (SINIC, V-SINIC; also the CNIC's)",
               KB_FIELD(sinic.sinic.rx_fifo_bytes)});
  r.push_back({"system.sinic.tx_fifo_kbytes",
               ParamType::Integer,
               2,
               16384,
               {},
               512,
               "KB",
               "nic_facts §1.1: tx_fifo_size 512 KiB",
               "Transmit FIFO (SINIC, V-SINIC)",
               KB_FIELD(sinic.sinic.tx_fifo_bytes)});
  r.push_back({"system.sinic.fifo_bytes_per_vnic",
               ParamType::Integer,
               0,
               16384,
               {},
               0,
               "bytes",
               "seed 003 §6: 256 VNICs × 1.5 KB = 384 kB and 64 VNICs = 96 kB on chip (Fig 12); "
               "0 = use rx_fifo_kbytes",
               "V-SINIC: on-chip receive FIFO per VNIC (the FIFO is then VNICs × this)",
               INT_FIELD(sinic.sinic.fifo_bytes_per_vnic)});
  r.push_back({"system.sinic.vnics",
               ParamType::Integer,
               1,
               256,
               {},
               256,
               "VNICs",
               "seed 003 §6: 256 VNICs (Fig 12 varies them)",
               "V-SINIC: virtual per-packet register sets",
               INT_FIELD(sinic.sinic.vnics)});
  r.push_back({"system.sinic.zero_copy",
               ParamType::Choice,
               0,
               0,
               {"off", "aggressive", "conservative"},
               "off",
               "",
               "seed 003 §3.3, §6 Figs 10/11: aggressive always defers the payload; conservative "
               "only while the receive FIFO is not full",
               "V-SINIC: zero-copy receive policy",
               [](Config& c, const Json& v) {
                 const std::string s = v.get<std::string>();
                 c.sinic.sinic.zero_copy = s == "aggressive"     ? ZeroCopyPolicy::Aggressive
                                           : s == "conservative" ? ZeroCopyPolicy::Conservative
                                                                 : ZeroCopyPolicy::Off;
               },
               [](const Config& c) { return Json(policy_name(c.sinic.sinic.zero_copy)); }});
  r.push_back({"system.sinic.zero_copy_bytes",
               ParamType::Integer,
               64,
               256,
               {},
               64,
               "bytes",
               "nic_facts §1.1: zero_copy_size 64 (the header part)",
               "V-SINIC: bytes copied when the payload is deferred",
               INT_FIELD(sinic.sinic.zero_copy_bytes)});
  r.push_back({"system.sinic.high_mark_kbytes",
               ParamType::Integer,
               1,
               16384,
               {},
               48,
               "KB",
               "chosen: §6 says only 'when the receive FIFO is not full' and that the heuristic "
               "disables zero copy 'too quickly' on the receive benchmark; gem5 uses a high and "
               "a low watermark (nic_facts §1.4). 48 KB lies below the receive benchmark's own "
               "peak of deferred packets (about 64 KB), so at 1 MB it falls back to copies part "
               "of the time and keeps part of the gain (Fig 11), while slow readers recover",
               "V-SINIC conservative: no zero copy once the FIFO holds this much ...",
               KB_FIELD(sinic.sinic.high_mark_bytes)});
  r.push_back({"system.sinic.low_mark_kbytes",
               ParamType::Integer,
               0,
               16384,
               {},
               16,
               "KB",
               "chosen: a third of high_mark_kbytes, as gem5's 128 of 384 KB (nic_facts §1.1)",
               "... until it drains below this",
               KB_FIELD(sinic.sinic.low_mark_bytes)});
  r.push_back(cycles("system.sinic.rx_cycles", 500, calibrated,
                     "SINIC driver: one received packet (sk_buff, RxData, RxWait, checks)",
                     INT_FIELD(sinic.sinic.rx_cycles)));
  r.push_back(cycles("system.sinic.tx_cycles", 500, calibrated,
                     "SINIC driver: one transmitted packet (TxData writes)",
                     INT_FIELD(sinic.sinic.tx_cycles)));
  r.push_back(cycles("system.sinic.vsinic_extra_cycles", 300,
                     "chosen: §3.2 footnote 3, V-SINIC's driver has additional overheads; enough "
                     "to put V-SINIC without zero copy slightly below SINIC (Fig 7)",
                     "V-SINIC driver: extra work per received packet (half per sent one)",
                     INT_FIELD(sinic.sinic.vsinic_extra_cycles)));
  r.push_back(cycles("system.sinic.zero_copy_setup_cycles", 300,
                     "chosen: §3.3 the kernel translates the user buffer's address and writes "
                     "RxData; Fig 9 counts it as copy time",
                     "V-SINIC: CPU work to start one FIFO → user buffer copy",
                     INT_FIELD(sinic.sinic.zero_copy_setup_cycles)));
  r.push_back({"system.sinic.copy_setup_ns",
               ParamType::Number,
               0,
               1000,
               {},
               10,
               "ns",
               "chosen: the engine starts within a few cycles; it then moves 64 bytes per CPU "
               "cycle through the L2 port it shares with the L1s (§3.1 footnote 2, Table 1)",
               "SINIC copy engine: start-up per copy",
               TIME_FIELD(sinic.sinic.copy_setup, kNsScale)});
  r.push_back(
      {"system.sinic.wait",
       ParamType::Choice,
       0,
       0,
       {"blocking", "polling"},
       "blocking",
       "",
       "seed 003 §3.1: RxWait/TxWait loads block until the engine is free; polling is "
       "gem5's later non-blocking behaviour (nic_facts §1.8)",
       "SINIC: how the driver waits for a copy",
       [](Config& c, const Json& v) {
         c.sinic.sinic.blocking_wait = v.get<std::string>() == "blocking";
       },
       [](const Config& c) { return Json(c.sinic.sinic.blocking_wait ? "blocking" : "polling"); }});
  r.push_back({"system.sinic.poll_interval_ns",
               ParamType::Number,
               1,
               10000,
               {},
               20,
               "ns",
               "chosen: one RxDone read per on-die register round trip and loop",
               "SINIC polling: time between two RxDone/TxDone reads",
               TIME_FIELD(sinic.sinic.poll_interval, kNsScale)});
  // ---- the netperf TCP workload (§5.2) ----
  r.push_back({"workload.mtu_bytes",
               ParamType::Integer,
               576,
               9000,
               {},
               1500,
               "bytes",
               "seed 003 §5.1: MTU 1500 bytes (larger MTUs deliberately not used)",
               "tcp-stream: IP MTU (MSS = MTU − 52 with TCP timestamps)",
               [](Config& c, const Json& v) {
                 c.sinic.tcp.mtu = static_cast<std::int64_t>(v.get<double>());
                 c.sinic.tcp.mss = c.sinic.tcp.mtu - 52;
               },
               [](const Config& c) { return Json(c.sinic.tcp.mtu); }});
  r.push_back({"workload.socket_buffer_kbytes",
               ParamType::Integer,
               16,
               8192,
               {},
               128,
               "KB",
               "chosen: Linux 2.6's TCP receive buffer of the time (tcp_rmem 87380 bytes by "
               "default, 174760 at most); it bounds the TCP window (the self-throttling of "
               "§5.2) and so the sk_buffs a CPU-bound reader leaves queued",
               "tcp-stream: send and receive socket buffer",
               KB_FIELD(sinic.tcp.socket_buffer)});
  r.push_back({"workload.message_kbytes",
               ParamType::Integer,
               1,
               1024,
               {},
               64,
               "KB",
               "chosen: netperf's usual 64 KB send/recv size",
               "tcp-stream: bytes per send() or recv() call",
               KB_FIELD(sinic.tcp.message_bytes)});
  r.push_back({"workload.connections",
               ParamType::Integer,
               1,
               16,
               {},
               1,
               "connections",
               "seed 003 §5.2: single-stream netperf; more for the slow-reader workload",
               "tcp-stream: TCP connections, one netperf thread each",
               INT_FIELD(sinic.tcp.connections)});
  r.push_back({"workload.read_delay_us",
               ParamType::Number,
               0,
               100000,
               {},
               0,
               "µs",
               "seed 003 §6: Apache's threads learn of data by select() and may read() much "
               "later; 0 = netperf, which waits in recv()",
               "tcp-stream: mean delay from data ready to read() (uniform 0 to twice this)",
               TIME_FIELD(sinic.tcp.read_delay, kUsScale)});
}

void check_sinic_config(const Config& c, const std::string& where, Errors* errors) {
  const bool paper_nic = c.nic_model == NicModel::CnicOffChip ||
                         c.nic_model == NicModel::CnicOnChip || c.nic_model == NicModel::Sinic ||
                         c.nic_model == NicModel::VSinic;
  const bool tcp = c.workload.kind == WorkloadKind::TcpStream;
  // SINIC also carries the full-system web server, behind its ring adapter (sinic_ring_port).
  const bool web_on_sinic = c.nic_model == NicModel::Sinic &&
                            c.workload.kind == WorkloadKind::Web &&
                            c.workload.web_mode == WebMode::FullSystem;
  if (paper_nic && !tcp && !web_on_sinic) {
    errors->push_back({"workload.kind", std::string("system.nic.model \"") +
                                            nic_model_name(c.nic_model) +
                                            "\" runs the tcp-stream workload only" + where});
  }
  if (!tcp) return;
  if (!paper_nic) {
    errors->push_back({"system.nic.model",
                       "tcp-stream runs on cnic-off-chip, cnic-on-chip, sinic or v-sinic" + where});
  }
  if (c.workload.direction == Direction::Bidirectional) {
    errors->push_back({"workload.direction",
                       "tcp-stream is netperf stream (\"send\") or maerts (\"receive\")" + where});
  }
  if (c.workload.ack_every < 1) {
    errors->push_back(
        {"workload.ack_every", "tcp-stream needs ACKs: allowed range 1 to 64" + where});
  }
  const SinicDeviceConfig& s = c.sinic.sinic;
  const std::int64_t frame = c.sinic.tcp.mtu + 14;
  const std::int64_t vnics = c.nic_model == NicModel::VSinic ? s.vnics : 1;
  const bool per_vnic = s.fifo_bytes_per_vnic > 0 && c.nic_model == NicModel::VSinic;
  const std::int64_t fifo = per_vnic ? vnics * s.fifo_bytes_per_vnic : s.rx_fifo_bytes;
  if (per_vnic && s.fifo_bytes_per_vnic < frame) {
    errors->push_back({"system.sinic.fifo_bytes_per_vnic",
                       "must hold one frame of workload.mtu_bytes + 14 = " + std::to_string(frame) +
                           " bytes: allowed 0 or " + std::to_string(frame) + " to 16384" + where});
  } else if (fifo < frame) {
    errors->push_back({"system.sinic.rx_fifo_kbytes",
                       "is smaller than one frame (workload.mtu_bytes " +
                           std::to_string(c.sinic.tcp.mtu) + " + 14 bytes); allowed " +
                           std::to_string((frame + 1023) / 1024) + " to 16384 KB" + where});
  }
  if (s.tx_fifo_bytes < frame) {
    errors->push_back({"system.sinic.tx_fifo_kbytes",
                       "is smaller than one frame (workload.mtu_bytes + 14); allowed " +
                           std::to_string((frame + 1023) / 1024) + " to 16384 KB" + where});
  }
  if (s.zero_copy != ZeroCopyPolicy::Off && c.nic_model != NicModel::VSinic) {
    errors->push_back({"system.sinic.zero_copy",
                       "zero-copy receive needs V-SINIC's VNICs (§3.3): set system.nic.model "
                       "\"v-sinic\" or zero_copy \"off\"" +
                           where});
  }
  if (s.low_mark_bytes > s.high_mark_bytes) {
    errors->push_back({"system.sinic.low_mark_kbytes",
                       "must not exceed system.sinic.high_mark_kbytes (" +
                           std::to_string(s.high_mark_bytes / 1024) + ")" + where});
  }
  if (c.sinic.tcp.socket_buffer < 2 * c.sinic.tcp.mss) {
    errors->push_back({"workload.socket_buffer_kbytes",
                       "must hold two segments (2 × MSS = " + std::to_string(2 * c.sinic.tcp.mss) +
                           " bytes)" + where});
  }
  if (c.link.rate_mbps <= 0) {
    errors->push_back({"system.link.rate_mbps", "must be positive" + where});
  }
}

}  // namespace nicsim
