// The conventional DMA-descriptor NIC of the SINIC paper (§2.2, §5.1: the DP83820 model scaled to
// 10 Gb/s; nic_facts §2.1): a receive FIFO drained by a DMA engine into pre-posted buffers, a
// transmit DMA engine reading posted packets into the transmit FIFO, descriptor rings, and
// completion interrupts. Off chip, every DMA crosses a PCI-Express-like link behind an I/O
// bridge into DRAM; on chip, the DMA engine places data in the L2 through its port (§6).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>

#include "sim/context.hpp"
#include "sinic/net.hpp"
#include "sinic/sinic_config.hpp"

namespace nicsim {

class Cnic final : public EventHandler {
 public:
  Cnic(SimContext* ctx, const CnicConfig& cfg, bool on_chip, std::int64_t fifo_bytes, Time cycle,
       L2Port* port);

  // ---- wire side ----
  bool rx_room(std::int64_t frame) const { return rx_occupancy_ + frame <= fifo_bytes_; }
  void rx_frame(const NetPacket& p);
  std::function<bool()> link_busy;
  std::function<void(const NetPacket&)> link_send;
  void link_ready();

  // ---- driver side ----
  // Receive: completed descriptors (filled buffers) the driver has not yet taken.
  std::int64_t rx_completed() const { return static_cast<std::int64_t>(rx_done_.size()); }
  NetPacket take_rx();  // the driver takes one and re-posts its descriptor (refill)
  // Transmit: post one packet (its descriptors and a doorbell); false when the ring is full.
  bool tx_post(const NetPacket& p);
  std::int64_t tx_completed() const { return tx_completed_; }
  void reclaim_one() {
    --tx_completed_;
    --tx_in_ring_;
  }
  bool tx_ring_full() const { return tx_in_ring_ >= cfg_.ring_entries; }

  std::function<void()> on_interrupt_cause;         // a receive or transmit completion
  std::function<void(const NetPacket&)> on_placed;  // the DMA wrote a frame to host memory
  std::function<void()> on_rx_space;                // the receive FIFO has room again
  std::uint64_t dmas = 0;

 private:
  void fire(std::uint32_t tag) override;
  void kick_rx();
  void kick_tx();
  Time dma_time(std::int64_t bytes) const;

  SimContext* ctx_;
  CnicConfig cfg_;
  bool on_chip_;
  std::int64_t fifo_bytes_;
  Time cycle_;
  L2Port* port_;
  std::deque<NetPacket> rx_fifo_;
  std::int64_t rx_occupancy_ = 0;
  std::int64_t rx_posted_;  // free receive descriptors (the driver refills as it takes)
  bool rx_dma_busy_ = false;
  std::deque<NetPacket> rx_done_;
  std::deque<NetPacket> tx_ring_;  // posted, not yet read by the NIC
  std::int64_t tx_in_ring_ = 0;    // posted and not reclaimed
  std::int64_t tx_completed_ = 0;  // sent, not reclaimed
  bool tx_dma_busy_ = false;
  std::deque<NetPacket> tx_fifo_;
  NetPacket rx_dma_packet_, tx_dma_packet_;
  std::uint32_t rx_dma_id_ = 0, tx_dma_id_ = 0;  // trace: DmaQueued/DmaDone
};

}  // namespace nicsim
