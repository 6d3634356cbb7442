#include "sinic/sinic_ring_port.hpp"

#include <algorithm>

namespace nicsim {

SinicRingPort::SinicRingPort(SimContext* ctx, const Config& cfg, unsigned instance, Rings rings,
                             IoBus* bus, Tally* tally)
    : ctx_(ctx),
      instance_(instance),
      interval_(cfg.sinic.cnic.interrupt_interval),
      tally_(tally),
      send_(rings.send),
      receive_(rings.receive),
      ret_(rings.ret),
      dma_(ctx, bus, 1, 0, instance, this),
      port_(ctx),
      sinic_(std::make_unique<SinicDevice>(ctx, cfg.sinic.sinic, 1, 1000 / cfg.sinic.cpu.ghz,
                                           &port_)) {
  // ready() also asks the wire to call link_ready when it frees.
  sinic_->link_busy = [this] { return tx_link_ == nullptr || !tx_link_->ready(); };
  sinic_->link_send = [this](const NetPacket&) {
    const Frame f = tx_frames_.front();
    tx_frames_.pop_front();
    tx_link_->send(f);
    tx_link_->ready();  // busy now: asks the wire for link_ready when it frees
  };
  sinic_->on_rx_packet = [this] { kick_rx(); };
  sinic_->on_tx_space = [this] { kick_tx(); };
}

void SinicRingPort::mailbox_write(Mailbox box, std::uint32_t value, RecordId) {
  switch (box) {
    case Mailbox::SendProducer:
      // The driver's BDs are in host memory and the NIC is on die: it sees them at once.
      for (std::uint64_t i = send_->prod(Copy::Nic),
                         end = send_->unwrap(send_->prod(Copy::Nic), value);
           i < end; ++i)
        send_->desc(Copy::Nic, i) = send_->desc(Copy::Host, i);
      send_->set_prod(Copy::Nic, send_->unwrap(send_->prod(Copy::Nic), value));
      kick_tx();
      break;
    case Mailbox::ReceiveProducer:
      for (std::uint64_t i = receive_->prod(Copy::Nic),
                         end = receive_->unwrap(receive_->prod(Copy::Nic), value);
           i < end; ++i)
        receive_->desc(Copy::Nic, i) = receive_->desc(Copy::Host, i);
      receive_->set_prod(Copy::Nic, receive_->unwrap(receive_->prod(Copy::Nic), value));
      kick_rx();
      break;
    case Mailbox::ReturnConsumer:
      ret_->set_cons(Copy::Nic, ret_->unwrap(ret_->cons(Copy::Nic), value));
      break;
    case Mailbox::InterruptAck:
      break;
  }
}

void SinicRingPort::kick_tx() {
  // One TxData copy per send BD, in ring order (the SINIC paper §3.1: one outstanding copy per
  // VNIC); the last BD of a frame completes it into the transmit FIFO.
  if (tx_busy_ || send_->pending(Copy::Nic) == 0) return;
  const std::uint64_t i = send_->cons(Copy::Nic);
  const Descriptor d = send_->desc(Copy::Nic, i);
  tx_frame_ += d.bytes;
  tx_content_ += d.payload;
  NetPacket p;
  p.id = d.packet;
  p.payload =
      std::max<std::int64_t>(0, static_cast<std::int64_t>(tx_frame_) - kTcpIpEthHeaderBytes);
  const Status s = sinic_->write_tx_data(0, d.bytes, !d.end, true, p);
  if (!s.is_ok()) {  // the transmit FIFO is full: on_tx_space calls again
    tx_frame_ -= d.bytes;
    tx_content_ -= d.payload;
    return;
  }
  tx_busy_ = true;
  if (d.end) {
    tx_frames_.push_back(Frame{
        d.packet, std::max<std::uint32_t>(tx_frame_ + kCrcBytes, kMinFrameBytes), tx_content_});
    tx_frame_ = tx_content_ = 0;
  }
  sinic_->tx_wait(0, [this, i](const TxDoneReg&) {
    tx_busy_ = false;
    send_->set_cons(Copy::Nic, i + 1);
    send_->set_cons(Copy::Host, i + 1);  // TxDone is read on die: the driver knows at once
    interrupt();
    kick_tx();
  });
}

void SinicRingPort::frame_arrived(const Frame& f) {
  NetPacket p;
  p.id = f.packet;
  p.payload = std::max<std::int64_t>(0, f.frame_bytes - kCrcBytes - kTcpIpEthHeaderBytes);
  if (!sinic_->rx_room(p.frame())) {
    ++tally_->drops_buffer_full;
    return;
  }
  rx_frames_.push_back(f);
  sinic_->rx_frame(p);
}

void SinicRingPort::kick_rx() {
  // RxData for the oldest frame into the next posted buffer; its return descriptor follows.
  if (rx_busy_ || rx_frames_.empty() || receive_->pending(Copy::Nic) == 0 ||
      ret_->free_slots() == 0)
    return;
  const Frame f = rx_frames_.front();
  const std::int64_t len = std::max<std::int64_t>(
      kTcpIpEthHeaderBytes, static_cast<std::int64_t>(f.frame_bytes) - kCrcBytes);
  const Status s = sinic_->write_rx_data(0, len, true);
  if (!s.is_ok()) return;
  rx_busy_ = true;
  rx_frames_.pop_front();
  sinic_->rx_wait(0, [this, f](const RxDoneReg&) {
    rx_busy_ = false;
    const std::uint64_t b = receive_->cons(Copy::Nic);
    receive_->set_cons(Copy::Nic, b + 1);
    ++tally_->rx_accepted;
    const std::uint64_t p = ret_->prod(Copy::Nic);
    const Descriptor d{f.packet, f.payload_bytes, static_cast<std::uint32_t>(receive_->slot(b))};
    ret_->desc(Copy::Nic, p) = d;
    ret_->desc(Copy::Host, p) = d;
    ret_->set_prod(Copy::Nic, p + 1);
    ret_->set_prod(Copy::Host, p + 1);
    interrupt();
    kick_rx();
  });
}

void SinicRingPort::interrupt() {
  // At most one interrupt per interval (the SINIC paper §5.1).
  if (irq_scheduled_) return;
  irq_scheduled_ = true;
  const Time at = last_irq_ < 0 ? ctx_->now() : std::max(ctx_->now(), last_irq_ + interval_);
  ctx_->at(at, this, 0);
}

void SinicRingPort::fire(std::uint32_t) {
  irq_scheduled_ = false;
  last_irq_ = ctx_->now();
  ++tally_->interrupts;
  const RecordId r = ctx_->record(component_id(Component::Nic, instance_),
                                  rec::InterruptRaise().causes(kCauseSend | kCauseReceive));
  if (irq_) irq_->raise_interrupt(kCauseSend | kCauseReceive, r);
}

}  // namespace nicsim
