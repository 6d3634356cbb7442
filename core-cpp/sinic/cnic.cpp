#include "sinic/cnic.hpp"

#include "trace/trace_kinds.hpp"

namespace nicsim {

namespace {
enum Tag : std::uint32_t { kRxDmaDone = 1, kTxDmaDone = 2 };
// Table 1: HyperTransport 8 bytes at 800 MHz = 6.4 GB/s: 5/32 ns per byte = 156.25 ps.
constexpr Time kOffChipPsPer32Bytes = 5000;
}  // namespace

Cnic::Cnic(SimContext* ctx, const CnicConfig& cfg, bool on_chip, std::int64_t fifo_bytes,
           Time cycle, L2Port* port)
    : ctx_(ctx),
      cfg_(cfg),
      on_chip_(on_chip),
      fifo_bytes_(fifo_bytes),
      cycle_(cycle),
      port_(port),
      rx_posted_(cfg.ring_entries) {}

// Off chip: the bridge's latency (descriptor fetch, data, write-back pipelined behind one
// round trip, chosen) plus the bytes at the interconnect's rate. On chip: the L2 port, 64 bytes
// per CPU cycle (Table 1), like the SINIC copy engines.
Time Cnic::dma_time(std::int64_t bytes) const {
  if (on_chip_) return cfg_.register_on_chip + (bytes + 63) / 64 * cycle_;
  return cfg_.dma_latency_off_chip + (bytes * kOffChipPsPer32Bytes + 31) / 32;
}

void Cnic::rx_frame(const NetPacket& p) {
  rx_fifo_.push_back(p);
  rx_occupancy_ += p.frame();
  kick_rx();
}

void Cnic::kick_rx() {
  // §2.2 receive steps 2-3: fill a pre-posted buffer, mark its descriptor.
  if (rx_dma_busy_ || rx_fifo_.empty() || rx_posted_ == 0) return;
  rx_dma_busy_ = true;
  --rx_posted_;
  rx_dma_packet_ = rx_fifo_.front();
  ++dmas;
  // Trace: the frame's DMA into a posted buffer (DRAM off chip, the L2 on chip, §6).
  rx_dma_id_ = ctx_->new_dma();
  // The frame (or the posted packet) asked for it; the DMA moves it on.
  rx_dma_packet_.cause = ctx_->record(Component::DmaWrite,
                                      rec::DmaQueued()
                                          .dma(rx_dma_id_)
                                          .purpose(Purpose::RecvDataWrite)
                                          .bytes(static_cast<std::uint32_t>(rx_dma_packet_.frame()))
                                          .packet(rx_dma_packet_.id)
                                          .queue_depth(1),
                                      rx_dma_packet_.cause);
  if (on_chip_) {
    port_->request(dma_time(rx_dma_packet_.frame()), [this] { fire(kRxDmaDone); });
  } else {
    ctx_->after(dma_time(rx_dma_packet_.frame()), this, kRxDmaDone);
  }
}

NetPacket Cnic::take_rx() {
  NetPacket p = rx_done_.front();
  rx_done_.pop_front();
  ++rx_posted_;  // the driver refills the descriptor with a fresh buffer
  kick_rx();
  return p;
}

bool Cnic::tx_post(const NetPacket& p) {
  if (tx_ring_full()) return false;
  tx_ring_.push_back(p);
  ++tx_in_ring_;
  kick_tx();
  return true;
}

void Cnic::kick_tx() {
  // §2.2 transmit steps 4-5: read the descriptors, then the buffers, into the FIFO.
  if (tx_dma_busy_ || tx_ring_.empty()) return;
  std::int64_t queued = 0;
  for (const NetPacket& q : tx_fifo_) queued += q.frame();
  if (queued + tx_ring_.front().frame() > fifo_bytes_) return;
  tx_dma_busy_ = true;
  tx_dma_packet_ = tx_ring_.front();
  tx_ring_.pop_front();
  ++dmas;
  tx_dma_id_ = ctx_->new_dma();
  // The frame (or the posted packet) asked for it; the DMA moves it on.
  tx_dma_packet_.cause = ctx_->record(Component::DmaRead,
                                      rec::DmaQueued()
                                          .dma(tx_dma_id_)
                                          .purpose(Purpose::SendDataFetch)
                                          .bytes(static_cast<std::uint32_t>(tx_dma_packet_.frame()))
                                          .packet(tx_dma_packet_.id)
                                          .queue_depth(1),
                                      tx_dma_packet_.cause);
  if (on_chip_) {
    port_->request(dma_time(tx_dma_packet_.frame()), [this] { fire(kTxDmaDone); });
  } else {
    ctx_->after(dma_time(tx_dma_packet_.frame()), this, kTxDmaDone);
  }
}

void Cnic::fire(std::uint32_t tag) {
  if (tag == kRxDmaDone) {
    rx_dma_busy_ = false;
    rx_dma_packet_.cause =
        ctx_->record(Component::DmaWrite,
                     rec::DmaDone()
                         .dma(rx_dma_id_)
                         .purpose(Purpose::RecvDataWrite)
                         .bytes(static_cast<std::uint32_t>(rx_dma_packet_.frame()))
                         .packet(rx_dma_packet_.id),
                     rx_dma_packet_.cause);
    rx_fifo_.pop_front();
    rx_occupancy_ -= rx_dma_packet_.frame();
    rx_done_.push_back(rx_dma_packet_);
    if (on_placed) on_placed(rx_dma_packet_);
    if (on_interrupt_cause) on_interrupt_cause();  // §5.1: bounded by the host's 10 µs rule
    if (on_rx_space) on_rx_space();
    kick_rx();
  } else if (tag == kTxDmaDone) {
    tx_dma_busy_ = false;
    tx_dma_packet_.cause =
        ctx_->record(Component::DmaRead,
                     rec::DmaDone()
                         .dma(tx_dma_id_)
                         .purpose(Purpose::SendDataFetch)
                         .bytes(static_cast<std::uint32_t>(tx_dma_packet_.frame()))
                         .packet(tx_dma_packet_.id),
                     tx_dma_packet_.cause);
    tx_fifo_.push_back(tx_dma_packet_);
    link_ready();
    kick_tx();
  }
}

void Cnic::link_ready() {
  if (tx_fifo_.empty() || (link_busy && link_busy())) return;
  const NetPacket p = tx_fifo_.front();
  tx_fifo_.pop_front();
  if (link_send) link_send(p);
  // §2.2 transmit step 6: the descriptor is written back as done; the driver reclaims it.
  ++tx_completed_;
  if (on_interrupt_cause) on_interrupt_cause();
  kick_tx();
}

}  // namespace nicsim
