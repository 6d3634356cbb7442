// The server of "Evaluating Network Processing Efficiency with Processor Partitioning and
// Asynchronous I/O" (Brecht et al., EuroSys 2006): two 2.8 GHz Xeons, four gigabit NICs and the
// userver under a SPECweb99-like static load, run either as the best-practice baseline (one
// process per CPU, interrupt affinity, write or sendfile) or as ETA+AIO (one CPU a polling
// Packet Processing Engine, the other the application, talking through shared-memory queues).
#pragma once
#include <cstdint>

#include "sim/time.hpp"

namespace nicsim {

enum class EtaSystem : std::uint8_t { Baseline = 0, EtaAio = 1 };
enum class EtaSendApi : std::uint8_t { Sendfile = 0, Write = 1 };

// Cycles per unit of work by the paper's Table 1 bins (fitted to Table 1 unless noted).
struct EtaBaselineCosts {
  std::int64_t eth_rx_frame = 0;    // driver: one received frame (request or ACK)
  std::int64_t eth_tx_frame = 0;    // driver: post one segment and reclaim it after
  std::int64_t irq = 0;             // enter and leave one NIC interrupt (Ethernet bin)
  std::int64_t tcp_rx_request = 0;  // TCP/IP input of a request segment
  std::int64_t tcp_rx_ack = 0;      // TCP/IP input of one ACK
  std::int64_t tcp_tx_segment = 0;  // TCP/IP output of one segment
  std::int64_t kernel_request = 0;  // epoll, read(), sendfile()/write(), socket and file calls
  std::int64_t user_request = 0;    // the userver: parse, look up, header
  std::int64_t copy_per_kb = 0;     // write(): copy one KB of file into the socket buffer
  // Two CPUs, one stack instance each (§6: "cache conflicts and semaphore contention"): extra
  // cycles, in per-mille of a job's own, when the other CPU is busy as the job starts.
  std::int64_t contention_tcp_permille = 0;
  std::int64_t contention_eth_permille = 0;
  std::int64_t contention_kernel_permille = 0;
  std::int64_t contention_user_permille = 0;
};

struct EtaPpeCosts {
  std::int64_t poll = 152;          // §4.2: one loop iteration that finds nothing
  std::int64_t eth_rx_frame = 0;    // the polling driver: one received frame
  std::int64_t eth_tx_frame = 0;    // ... post one segment and reclaim it after
  std::int64_t tcp_rx_request = 0;  // inbound stack, a request segment
  std::int64_t tcp_rx_ack = 0;      // inbound stack, one ACK
  std::int64_t tcp_tx_segment = 0;  // outbound stack, one segment
  std::int64_t copy_per_kb = 0;     // §5: copy received data into the posted user buffer
  std::int64_t kernel_frame = 0;    // kernel functions the PPE calls (buffers), per frame
  std::int64_t queue_op = 0;        // PPE other: one DbQ operation or one EvQ post
  std::int64_t ipi = 0;             // PPE other: post to the Interrupt Queue and send an IPI
};

struct EtaHostCosts {
  std::int64_t user_request = 0;    // the AIO userver per request
  std::int64_t dusi_op = 0;         // user: one DUSI library queue operation
  std::int64_t kernel_request = 0;  // kernel other: synchronous DUSI calls, per request
  std::int64_t signal_arm = 0;      // kernel other: arm the signal (a system call)
  std::int64_t signal_deliver = 0;  // kernel other: the Kernel Agent, the IPI and the signal
};

struct EtaConfig {
  EtaSystem system = EtaSystem::EtaAio;
  EtaSendApi api = EtaSendApi::Sendfile;  // baseline only
  std::int64_t cpus = 2;                  // baseline: 2, or 1 (§6: two NICs, half load, doubled)
  std::int64_t cpu_mhz = 2800;            // §6: 2.8 GHz Xeons
  std::int64_t nics = 4;                  // §6: four gigabit NICs
  std::int64_t request_rate = 18800;      // offered requests per second (open loop)
  std::int64_t max_connections = 0;       // the server's connections; arrivals beyond are refused
  std::int64_t mss = 1448;
  std::int64_t request_bytes = 200;  // an HTTP GET
  std::int64_t ack_every = 2;        // the client's delayed ACK
  std::int64_t window_segments = 0;  // the client's receive window, in segments
  Time client_turnaround = 0;        // a segment on the client's wire → its ACK at the NIC
  Time interrupt_interval = 0;       // baseline: interrupt moderation, at most one per NIC
  std::int64_t rx_batch = 0;         // ETA: frames the PPE takes from a NIC per iteration
  std::int64_t encrypt_percent = 0;  // §7.2: share of files up to encrypt_max_bytes
  std::int64_t encrypt_max_bytes = 7500;
  std::int64_t encrypt_cycles_per_kb = 0;
  EtaBaselineCosts baseline;
  EtaPpeCosts ppe;
  EtaHostCosts host;
};

}  // namespace nicsim
