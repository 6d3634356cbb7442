// The TCP offload paper (Freimuth et al., "Server Network Scalability and TCP Offload", USENIX
// ATC 2005): one web file served over TCP through a conventional E1000-like adapter or through
// the offload adapter (§3.3, §4.3), with the host/adapter traffic counted per direction and
// purpose by the paper's bus cost model (§4.4), and the machine generations of Tables 1 and 2.
#pragma once
#include <cstdint>

#include "sim/time.hpp"

namespace nicsim {

// Which host/adapter interface serves the file.
enum class OffloadInterface : std::uint8_t {
  E1000 = 0,    // conventional: frames and their descriptors cross the bus (§3.2, §4.6)
  Offload = 1,  // socket/TCP split: request and response descriptors (§3.3, §4.3)
};

// One machine of Tables 1 and 2: the clock and bus, and memory access times in ns.
struct OffloadMachine {
  const char* name;
  double clock_mhz;
  int bus_width_bits;
  int bus_mhz;
  double l1_ns, l2_ns, memory_ns, register_read_ns, register_write_ns;
  // The cycle counts Table 2 prints beside the times (the paper's own rounding).
  int l1_cycles, l2_cycles, memory_cycles, register_read_cycles, register_write_cycles;
};
constexpr int kOffloadMachines = 6;
// Tables 1 and 2, in the paper's order (workstations, then servers).
const OffloadMachine& offload_machine(int index);

struct OffloadConfig {
  OffloadInterface interface = OffloadInterface::Offload;
  std::int64_t file_bytes = 1024;        // the file served (§5: 1 KB, 64 KB, 512 KB)
  std::int64_t http_header_bytes = 150;  // Flash's response header, coalesced with the file
  std::int64_t request_bytes = 64;       // httperf's GET
  std::int64_t mss = 1460;               // TCP payload per segment
  std::int64_t init_cwnd = 3;            // segments (Linux 2.6.9 for a 1460-byte MSS)
  std::int64_t quick_acks = 2;           // the client's first data segments ACKed at once
  Time delayed_ack = 40'000'000'000;     // the client's delayed-ACK timer (40 ms)
  Time one_way = 25'000'000;             // wire + switch + client stack, each way
  std::int64_t link_mbps = 1000;         // gigabit Ethernet
  // E1000: the frames' sizes and the descriptor.
  std::int64_t header_bytes = 54;      // Ethernet 14 + IP 20 + TCP 20
  std::int64_t syn_option_bytes = 12;  // MSS, SACK permitted, window scale
  std::int64_t e1000_descriptor_bytes = 16;
  bool rx_crc = true;            // the received frame's CRC is written with it
  Time host_packet = 2'000'000;  // host TCP/IP work per frame (E1000)
  // E1000 receive interrupts through the project's coalescer (nic/coalescer.hpp): after this
  // many frames (0: the timer alone) or this long after the first unreported one.
  std::int64_t e1000_coalesce_frames = 0;
  Time e1000_coalesce_timer = 125'000'000;  // 125 µs
  // Offload: descriptors and their crossings.
  std::int64_t descriptor_bytes = 32;     // one request or response descriptor
  std::int64_t index_bytes = 4;           // the producer index update of one crossing
  std::int64_t send_buffer_bytes = 4096;  // a SEND descriptor's buffer (§4.3: 4 KB, up to 64 KB)
  std::int64_t batch_level = 1;           // §4.1: descriptors shipped together at least
  Time batch_timeout = 10'000'000'000;    // §5.2: idle timeout before a short batch ships
  Time oslayer_descriptor = 5'000'000;    // OSLayer's host work per descriptor
  Time adapter_packet = 2'000'000;        // EDT's work per frame on the adapter
  Time edt_event = 640'000;               // EDT's work per descriptor taken or DMA completed
  // The machine whose Table 2 costs price register accesses.
  std::int64_t machine = 5;  // 3.2 GHz P4-Xeon
};

}  // namespace nicsim
