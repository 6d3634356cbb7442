// Cumulative counts of one run; rates over the measured window are differences of two reads
// (a snapshot when warm-up ends, and the end).
#pragma once
#include <cstdint>

#include "trace/trace.hpp"

namespace nicsim {

struct Tally {
  std::uint64_t tx_packets = 0;  // datagrams the peer received from the host
  std::uint64_t tx_payload = 0;
  std::uint64_t rx_packets = 0;  // datagrams the driver handed to the stack
  std::uint64_t rx_payload = 0;
  std::uint64_t peer_sent = 0;
  // Frames the NIC took into a host buffer; with the drops, every frame it decided on, counted
  // when it decided (the drop fraction's denominator, and the receive side's conservation).
  std::uint64_t rx_accepted = 0;
  std::uint64_t drops_no_descriptor = 0;
  std::uint64_t drops_buffer_full = 0;
  std::uint64_t interrupts = 0;
  std::uint64_t send_ring_full = 0;
  std::uint64_t tx_buffer_full = 0;
  // NIC data cache (the thesis Fig 4.11): content appended from the cache, and DMA'd into it.
  std::uint64_t tx_cache_bytes = 0;
  std::uint64_t cache_insert_bytes = 0;
  // Appended from blocks an earlier response cached (not the insert just before the append),
  // counted at the append: a window's edge may fall between an insert and its append.
  std::uint64_t tx_cache_hit_bytes = 0;
};

class InterruptLine {
 public:
  // raised: the InterruptRaise record (the service routine follows from it).
  virtual void raise_interrupt(std::uint32_t causes, RecordId raised) = 0;

 protected:
  ~InterruptLine() = default;
};

enum InterruptCause : std::uint32_t { kCauseSend = 1, kCauseReceive = 2 };

}  // namespace nicsim
