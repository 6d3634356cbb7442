// The parameters of "Evaluating Network Processing Efficiency with Processor Partitioning and
// Asynchronous I/O" (Brecht et al., EuroSys 2006), workload.kind "eta-aio". Numbers the paper
// gives cite it. The per-frame and per-request cycle costs are fitted to Table 1 (18,800
// requests/s, 2,218 Mb/s; scenario/fits.cpp names the checks): one column per system. Fig 4's
// peaks and crossings, Fig 5's window and Fig 6 are then predictions. Cache effects (Tables 2-3)
// are out of scope: the costs are Table 1's averages whatever the load.
#include <string>

#include "scenario/param_fields.hpp"
#include "scenario/params.hpp"

namespace nicsim {

namespace {

constexpr double kUsScale = 1000000.0;

constexpr const char* kTable1Base =
    "fitted: the 1-CPU baseline column of seed 001 Table 1 (18,800 requests/s); the paper gives "
    "no per-frame costs, so the bin's cycles per request are split over the frames of a "
    "SPECweb99 response (10.7 segments, 5.7 ACKs, one request) with chosen ratios";
constexpr const char* kTable1Eta =
    "fitted: the ETA+AIO column of seed 001 Table 1 (18,800 requests/s), split over the frames of "
    "a SPECweb99 response with the baseline's ratios";
constexpr const char* kTable1Contention =
    "fitted: the 2-CPU column of seed 001 Table 1 over the 1-CPU one (§6: the 2-CPU baseline's "
    "'cache conflicts and semaphore contention'), charged when the other CPU is busy";

// An integer parameter with its range, default, unit, origin and description.
ParamSpec integer(const char* path, double min, double max, std::int64_t def, const char* unit,
                  const char* origin, const char* description, void (*set)(Config&, const Json&),
                  Json (*get)(const Config&)) {
  return {path, ParamType::Integer, min, max, {}, def, unit, origin, description, set, get};
}

// A cost in cycles, 0 to 10 million.
struct CycleCost {
  const char* path;
  double def;
  const char* origin;
  const char* description;
  void (*set)(Config&, const Json&);
  Json (*get)(const Config&);
};

}  // namespace

void add_eta_params(std::vector<ParamSpec>& r) {
  r.push_back(
      {"system.eta.system",
       ParamType::Choice,
       0,
       0,
       {"eta-aio", "baseline-sendfile", "baseline-write", "baseline-1cpu"},
       "eta-aio",
       "",
       "seed 001 §3-§6: ETA+AIO; the best-practice baseline with sendfile or write; the 1-CPU "
       "baseline (two NICs at half the request rate, throughput doubled, sendfile)",
       "eta-aio: ETA+AIO (CPU 0 a polling Packet Processing Engine, CPU 1 the application) or "
       "the baseline (a userver per CPU, interrupts bound to it)",
       [](Config& c, const Json& v) {
         const std::string k = v.get<std::string>();
         c.eta.system = k == "eta-aio" ? EtaSystem::EtaAio : EtaSystem::Baseline;
         c.eta.api = k == "baseline-write" ? EtaSendApi::Write : EtaSendApi::Sendfile;
         c.eta.cpus = k == "baseline-1cpu" ? 1 : 2;
       },
       [](const Config& c) {
         return Json(c.eta.system == EtaSystem::EtaAio ? "eta-aio"
                     : c.eta.cpus == 1                 ? "baseline-1cpu"
                     : c.eta.api == EtaSendApi::Write  ? "baseline-write"
                                                       : "baseline-sendfile");
       }});
  r.push_back(integer("system.eta.cpu_mhz", 500, 10000, 2800, "MHz", "seed 001 §6: 2.8 GHz Xeons",
                      "eta-aio: CPU clock", INT_FIELD(eta.cpu_mhz)));
  r.push_back(integer("system.eta.nics", 2, 8, 4, "NICs",
                      "seed 001 §6: four Intel PRO/1000 gigabit NICs, two per CPU in the baseline",
                      "eta-aio: gigabit NICs (requests spread round-robin)", INT_FIELD(eta.nics)));
  r.push_back({"system.eta.interrupt_interval_us",
               ParamType::Number,
               0,
               10000,
               {},
               125,
               "µs",
               "chosen: seed 001 §6 has dynamic interrupt throttling on; the PRO/1000 driver's "
               "throttle of the time allowed at most 8,000 interrupts/s per NIC",
               "eta-aio baseline: at most one interrupt per NIC per interval",
               TIME_FIELD(eta.interrupt_interval, kUsScale)});
  r.push_back(
      integer("system.eta.rx_batch", 1, 256, 8, "frames",
              "chosen: seed 001 §4.2 tuned the frames taken from a NIC per iteration by trial "
              "and error and does not give the value",
              "eta-aio ETA+AIO: frames the PPE takes from the polled NIC per iteration",
              INT_FIELD(eta.rx_batch)));
  // ---- the workload (§6: SPECweb99-like, static, no think time) ----
  r.push_back(
      integer("workload.eta.request_rate", 100, 100000, 18800, "requests/s",
              "seed 001 Table 1: a target of 18,800 requests/s (2,218 Mb/s); Fig 4 sweeps it",
              "eta-aio: requests the httperf clients offer per second (open loop, fixed rate)",
              INT_FIELD(eta.request_rate)));
  r.push_back(
      integer("workload.eta.max_connections", 16, 65536, 1024, "connections",
              "chosen: the userver's accept pool (§5: active plus acceptable connections stay "
              "constant); offered load beyond it is refused, as a full listen queue would",
              "eta-aio: requests the server holds at once", INT_FIELD(eta.max_connections)));
  r.push_back(integer("workload.eta.mss", 536, 8960, 1448, "bytes",
                      "chosen: a 1500-byte MTU less IP, TCP and the timestamp option (no TSO, §6)",
                      "eta-aio: TCP payload per segment", INT_FIELD(eta.mss)));
  r.push_back(
      integer("workload.eta.request_bytes", 16, 1448, 200, "bytes",
              "chosen: an httperf GET line with a few header fields, one segment (§6 assumes "
              "each request fits in one packet)",
              "eta-aio: bytes of one HTTP request", INT_FIELD(eta.request_bytes)));
  r.push_back(integer("workload.eta.ack_every", 1, 16, 2, "segments",
                      "chosen: the client's delayed ACK, one per two full segments",
                      "eta-aio: segments per client ACK", INT_FIELD(eta.ack_every)));
  r.push_back(integer("workload.eta.window_segments", 1, 1024, 44, "segments",
                      "chosen: the clients' 64 KB receive window; persistent connections keep the "
                      "congestion window open",
                      "eta-aio: segments a response may have unacknowledged",
                      INT_FIELD(eta.window_segments)));
  r.push_back({"workload.eta.client_turnaround_us",
               ParamType::Number,
               0,
               10000,
               {},
               20,
               "µs",
               "chosen: one switch hop each way and the client's receive path",
               "eta-aio: a segment's last bit on the wire to its ACK at the server's NIC",
               TIME_FIELD(eta.client_turnaround, kUsScale)});
  r.push_back(integer("workload.eta.encrypt_percent", 0, 100, 0, "%",
                      "seed 001 §6, §7.2 (Fig 5 sweeps it)",
                      "eta-aio: share of the files up to encrypt_max_bytes the userver encrypts",
                      INT_FIELD(eta.encrypt_percent)));
  r.push_back(integer("workload.eta.encrypt_max_bytes", 0, 1000000, 7500, "bytes",
                      "seed 001 §6: files of at most 7,500 bytes",
                      "eta-aio: largest file that may be encrypted",
                      INT_FIELD(eta.encrypt_max_bytes)));
  // Cycle costs: one row each (path, default, origin, description, field).
  const CycleCost costs[] = {
      {"workload.eta.encrypt_cycles_per_kb", 95000,
       "fitted: where seed 001 Fig 5's window opens (ETA+AIO's peak above the "
       "baseline's from 25% encrypted); the paper names no cipher. Where the window "
       "closes (55%) is a prediction",
       "eta-aio: userver cycles to encrypt one KB", INT_FIELD(eta.encrypt_cycles_per_kb)},
      // ---- the baseline's costs (Table 1, 1-CPU column; the 2-CPU column adds contention) ----
      {"system.eta.baseline.eth_rx_frame_cycles", 2529, kTable1Base,
       "eta-aio baseline: the driver, per received frame (Ethernet bin)",
       INT_FIELD(eta.baseline.eth_rx_frame)},
      {"system.eta.baseline.eth_tx_frame_cycles", 2529, kTable1Base,
       "eta-aio baseline: the driver, per sent segment, posted and reclaimed",
       INT_FIELD(eta.baseline.eth_tx_frame)},
      {"system.eta.baseline.irq_cycles", 3600,
       "fitted: seed 001 §7.1, hardware interrupts and the SoftIRQ path 'only "
       "slightly more than 2%' of the cycles at Table 1's load",
       "eta-aio baseline: entering and leaving one NIC interrupt (Ethernet bin)",
       INT_FIELD(eta.baseline.irq)},
      {"system.eta.baseline.tcp_rx_request_cycles", 13315, kTable1Base,
       "eta-aio baseline: TCP/IP input of a request (with its connection's share)",
       INT_FIELD(eta.baseline.tcp_rx_request)},
      {"system.eta.baseline.tcp_rx_ack_cycles", 2663, kTable1Base,
       "eta-aio baseline: TCP/IP input of one ACK", INT_FIELD(eta.baseline.tcp_rx_ack)},
      {"system.eta.baseline.tcp_tx_segment_cycles", 4438, kTable1Base,
       "eta-aio baseline: TCP/IP output of one segment", INT_FIELD(eta.baseline.tcp_tx_segment)},
      {"system.eta.baseline.kernel_request_cycles", 36013, kTable1Base,
       "eta-aio baseline: epoll, read(), sendfile()/write(), socket and file calls "
       "per request (kernel other)",
       INT_FIELD(eta.baseline.kernel_request)},
      {"system.eta.baseline.user_request_cycles", 15847, kTable1Base,
       "eta-aio baseline: the userver's own work per request",
       INT_FIELD(eta.baseline.user_request)},
      {"system.eta.baseline.copy_cycles_per_kb", 5120,
       "chosen: write() copies the file from DRAM (the 51 MB fileset is far larger "
       "than the 2 MB L3) into the socket buffer, about 560 MB/s on a 2.8 GHz Xeon "
       "with a 400 MHz front-side bus (5 cycles per byte)",
       "eta-aio baseline, write: copying one KB into the socket buffer (TCP/IP)",
       INT_FIELD(eta.baseline.copy_per_kb)},
      {"system.eta.baseline.contention_tcp_permille", 234, kTable1Contention,
       "eta-aio 2-CPU baseline: extra TCP/IP cycles (per mille) while the other CPU "
       "is busy",
       INT_FIELD(eta.baseline.contention_tcp_permille)},
      {"system.eta.baseline.contention_eth_permille", 216, kTable1Contention,
       "eta-aio 2-CPU baseline: extra Ethernet cycles (per mille)",
       INT_FIELD(eta.baseline.contention_eth_permille)},
      {"system.eta.baseline.contention_kernel_permille", 550, kTable1Contention,
       "eta-aio 2-CPU baseline: extra kernel-other cycles (per mille)",
       INT_FIELD(eta.baseline.contention_kernel_permille)},
      {"system.eta.baseline.contention_user_permille", 52, kTable1Contention,
       "eta-aio 2-CPU baseline: extra user cycles (per mille)",
       INT_FIELD(eta.baseline.contention_user_permille)},
      // ---- ETA+AIO: the PPE (Table 1, ETA+AIO column) ----
      {"system.eta.ppe.poll_cycles", 152,
       "seed 001 §4.2: an unproductive iteration takes 152 cycles (~55 ns) at 2.8 "
       "GHz",
       "eta-aio ETA+AIO: one iteration of the PPE's loop, before any work (PPE other)",
       INT_FIELD(eta.ppe.poll)},
      {"system.eta.ppe.eth_rx_frame_cycles", 2567, kTable1Eta,
       "eta-aio ETA+AIO: the polling driver, per received frame", INT_FIELD(eta.ppe.eth_rx_frame)},
      {"system.eta.ppe.eth_tx_frame_cycles", 2567, kTable1Eta,
       "eta-aio ETA+AIO: the polling driver, per sent segment", INT_FIELD(eta.ppe.eth_tx_frame)},
      {"system.eta.ppe.tcp_rx_request_cycles", 12845, kTable1Eta,
       "eta-aio ETA+AIO: inbound TCP/IP of a request (with its connection's share)",
       INT_FIELD(eta.ppe.tcp_rx_request)},
      {"system.eta.ppe.copy_cycles_per_kb", 1024,
       "chosen: the request is in the cache as the PPE copies it, one cycle a byte "
       "(§5: one copy on receive, by the PPE; Table 1 books it in TCP/IP)",
       "eta-aio ETA+AIO: copying one KB of received data into the posted user "
       "buffer (TCP/IP)",
       INT_FIELD(eta.ppe.copy_per_kb)},
      {"system.eta.ppe.tcp_rx_ack_cycles", 2609, kTable1Eta,
       "eta-aio ETA+AIO: inbound TCP/IP of one ACK", INT_FIELD(eta.ppe.tcp_rx_ack)},
      {"system.eta.ppe.tcp_tx_segment_cycles", 4348, kTable1Eta,
       "eta-aio ETA+AIO: outbound TCP/IP of one segment, from registered user "
       "memory without a copy (§5)",
       INT_FIELD(eta.ppe.tcp_tx_segment)},
      {"system.eta.ppe.kernel_frame_cycles", 733,
       "fitted: seed 001 Table 1's ETA+AIO kernel other less the host's share "
       "(chosen: all idle is on the host, §7.1, so the host's busy 10.76% is user "
       "6.89% and 3.87% kernel), per frame",
       "eta-aio ETA+AIO: kernel functions the PPE calls (buffers), per frame",
       INT_FIELD(eta.ppe.kernel_frame)},
      {"system.eta.ppe.queue_op_cycles", 1800,
       "fitted: half of seed 001 Table 1's PPE other (5.43%) is productive (§7.1: "
       "'about half' is unproductive polling), over four queue operations per "
       "request",
       "eta-aio ETA+AIO: one doorbell operation or one event posted (PPE other)",
       INT_FIELD(eta.ppe.queue_op)},
      {"system.eta.ppe.ipi_cycles", 500,
       "chosen: an Interrupt Queue post and a write to the local APIC",
       "eta-aio ETA+AIO: raising a signal, on the PPE (kernel other)", INT_FIELD(eta.ppe.ipi)},
      // ---- ETA+AIO: the application CPU ----
      {"system.eta.host.user_request_cycles", 15847,
       "chosen: the same HTTP work as the baseline userver (its Table 1 user bin)",
       "eta-aio ETA+AIO: the AIO userver's own work per request", INT_FIELD(eta.host.user_request)},
      {"system.eta.host.dusi_op_cycles", 1169,
       "fitted: seed 001 Table 1's ETA+AIO user bin over the baseline's, over four "
       "DUSI queue operations per request (user: the DUSI library and AIO layer)",
       "eta-aio ETA+AIO: one DUSI library queue operation", INT_FIELD(eta.host.dusi_op)},
      {"system.eta.host.kernel_request_cycles", 3932,
       "fitted: seed 001 Table 1's host kernel other (3.87%, chosen as above) less "
       "the signal path (2.70%, §7.1): synchronous DUSI calls per request",
       "eta-aio ETA+AIO: kernel other per request on the application CPU",
       INT_FIELD(eta.host.kernel_request)},
      {"system.eta.host.signal_arm_cycles", 1500, "chosen: a system call that arms the signal",
       "eta-aio ETA+AIO: arming the signal when the event queues are empty",
       INT_FIELD(eta.host.signal_arm)},
      {"system.eta.host.signal_deliver_cycles", 4070,
       "fitted: seed 001 §7.1, signals, the Kernel Agent, IPIs and system calls are "
       "2.70% of the cycles at Table 1's load",
       "eta-aio ETA+AIO: the IPI, the Kernel Agent and delivering the signal",
       INT_FIELD(eta.host.signal_deliver)},
  };
  for (const CycleCost& k : costs)
    r.push_back({k.path,
                 ParamType::Integer,
                 0,
                 10000000,
                 {},
                 k.def,
                 "cycles",
                 k.origin,
                 k.description,
                 k.set,
                 k.get});
}

void check_eta_config(const Config& c, const std::string& where, Errors* errors) {
  if (c.workload.kind != WorkloadKind::EtaAio) return;
  if (c.eta.cpus == 1 && c.eta.nics % 2 != 0) {
    errors->push_back({"system.eta.nics",
                       "the 1-CPU baseline serves half the NICs: an even number, 2 to 8" + where});
  }
}

}  // namespace nicsim
