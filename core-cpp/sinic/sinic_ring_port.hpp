// SINIC behind the ring protocol (the SINIC paper §3.1), so a driver written for a PCI NIC's
// descriptor rings (the thesis's web server) runs over it. SINIC has no rings and no DMA: its
// driver writes TxData and RxData registers and the on-die copy engines move the bytes through
// the L2 port. Here the driver's descriptor posts become those register writes: each send BD
// one TxData copy (Data Ready), each received frame one RxData copy into the next posted
// receive buffer, the return descriptor then written on die (no bus crossing). Interrupts are
// at most one per cnic.interrupt_interval (the SINIC paper §5.1). The PCI bus carries nothing.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>

#include "nic/fixed_nic.hpp"
#include "nic/nic_device.hpp"
#include "sinic/net.hpp"
#include "sinic/sinic_device.hpp"

namespace nicsim {

class SinicRingPort final : public NicDevice, private EventHandler {
 public:
  SinicRingPort(SimContext* ctx, const Config& cfg, unsigned instance, Rings rings, IoBus* bus,
                Tally* tally);
  void attach_interrupt(InterruptLine* irq) override { irq_ = irq; }
  void attach_tx_link(LinkDirection* tx) override { tx_link_ = tx; }
  void mailbox_write(Mailbox box, std::uint32_t value, RecordId cause) override;
  std::uint32_t register_read(Register) override {
    return static_cast<std::uint32_t>(send_->slot(send_->cons(Copy::Host)));
  }
  void dma_done(DmaChannel, const DmaRequest&) override {}
  void dma_space(DmaChannel) override {}
  void frame_arrived(const Frame& f) override;
  void link_sent(const Frame&) override {}
  void link_ready() override { sinic_->link_ready(); }
  std::int64_t tx_buffer_used() const override { return sinic_->tx_occupancy(); }
  std::int64_t rx_buffer_used() const override { return sinic_->rx_occupancy(); }
  const DmaEngine& dma() const override { return dma_; }
  Time copy_busy() const { return port_.busy_time; }  // the L2 port's busy time so far

 private:
  void fire(std::uint32_t) override;
  void kick_tx();
  void kick_rx();
  void interrupt();

  SimContext* ctx_;
  unsigned instance_;
  Time interval_;
  Tally* tally_;
  DescriptorRing* send_;
  DescriptorRing* receive_;
  DescriptorRing* ret_;
  DmaEngine dma_;  // never used: SINIC does not master the bus
  L2Port port_;
  std::unique_ptr<SinicDevice> sinic_;
  InterruptLine* irq_ = nullptr;
  LinkDirection* tx_link_ = nullptr;
  bool tx_busy_ = false, rx_busy_ = false;
  std::uint32_t tx_frame_ = 0, tx_content_ = 0;  // the frame being gathered from its BDs
  std::deque<Frame> tx_frames_;                  // frames in the transmit FIFO, in order
  std::deque<Frame> rx_frames_;                  // frames in the receive FIFO, in order
  bool irq_scheduled_ = false;
  Time last_irq_ = -1;
};

}  // namespace nicsim
