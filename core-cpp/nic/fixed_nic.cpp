#include "nic/fixed_nic.hpp"

#include <algorithm>

namespace nicsim {

namespace {
constexpr std::uint64_t kTimerTrigger = 1ull << 63;
}

FixedFunctionNic::FixedFunctionNic(SimContext* ctx, const NicConfig& cfg, Rings rings, IoBus* bus,
                                   InterruptLine* irq, Tally* tally)
    : ctx_(ctx), cfg_(cfg), rings_(rings), dma_(ctx, bus, cfg.dma_queue_depth, this), irq_(irq), tally_(tally) {}

// ---- ports -------------------------------------------------------------------------------

void FixedFunctionNic::mailbox_write(Mailbox box, std::uint32_t value) {
  mailboxes_.push_back({box, value});
  ctx_->after(cfg_.delays.mailbox, this, kMailbox);
}

void FixedFunctionNic::issue(DmaChannel ch, const DmaRequest& req) {
  auto& backlog = backlog_[static_cast<int>(ch)];
  if (!backlog.empty() || !dma_.enqueue(ch, req)) backlog.push_back(req);
}

void FixedFunctionNic::dma_space(DmaChannel ch) {
  auto& backlog = backlog_[static_cast<int>(ch)];
  while (!backlog.empty() && dma_.enqueue(ch, backlog.front())) backlog.pop_front();
  if (backlog.empty()) kick_all();
}

void FixedFunctionNic::kick_all() {
  kick_send_fetch();
  kick_recv_fetch();
  kick_send_data();
  kick_rx();
}

void FixedFunctionNic::fire(std::uint32_t tag) {
  switch (tag & 0xFF) {
    case kMailbox: {
      const PendingMailbox m = mailboxes_.front();
      mailboxes_.pop_front();
      switch (m.box) {
        case Mailbox::SendProducer:  // S2 seen: new send descriptors exist
          send_notified_ = rings_.send->unwrap(send_notified_, m.value);
          kick_send_fetch();
          break;
        case Mailbox::ReceiveProducer:  // buffers replenished
          recv_notified_ = rings_.receive->unwrap(recv_notified_, m.value);
          kick_recv_fetch();
          break;
        case Mailbox::ReturnConsumer:  // the driver consumed return descriptors
          rings_.ret->set_cons(Copy::Nic, rings_.ret->unwrap(rings_.ret->cons(Copy::Nic), m.value));
          if (return_full_) {
            return_full_ = false;
            kick_rx();
          }
          break;
        case Mailbox::InterruptAck:
          break;
      }
      return;
    }
    case kSendData: {  // S4: fetch the packet data named by the descriptor
      const Descriptor d = rings_.send->desc(Copy::Nic, send_next_data_);
      issue(DmaChannel::Read, {Purpose::SendDataFetch, d.bytes, d.packet, send_next_data_});
      ++send_next_data_;
      send_data_busy_ = false;
      kick_send_data();
      return;
    }
    case kTxFrame:
      mac_queue_.push_back(tx_ready_.front());
      tx_ready_.pop_front();
      kick_mac();
      return;
    case kRxIssue: {  // R2 and R3: write the data, then the return descriptor
      const Frame f = rx_queue_.front();
      rx_queue_.pop_front();
      const std::uint64_t idx = rings_.receive->cons(Copy::Nic);
      rings_.receive->set_cons(Copy::Nic, idx + 1);
      issue(DmaChannel::Write, {Purpose::RecvDataWrite, f.frame_bytes - static_cast<std::uint32_t>(kCrcBytes),
                                f.packet, f.frame_bytes});
      return_pending_.push_back(
          Descriptor{f.packet, f.payload_bytes, static_cast<std::uint32_t>(rings_.receive->slot(idx))});
      issue(DmaChannel::Write, {Purpose::ReturnBdWrite, static_cast<std::uint32_t>(cfg_.return_bd_bytes),
                                f.packet, 0});
      rx_busy_ = false;
      kick_rx();
      return;
    }
    case kInterrupt: {
      const PendingInterrupt p = interrupts_.front();
      interrupts_.pop_front();
      ctx_->record(TraceKind::InterruptRaise, Component::Nic, p.cause, p.trigger);
      irq_->raise_interrupt(p.cause);
      return;
    }
    case kSendTimer:
      if (send_timer_armed_ && (tag >> 8) == (send_timer_gen_ & 0xFFFFFF)) {
        send_timer_armed_ = false;
        ctx_->record(TraceKind::CoalesceTimer, Component::Nic, kCauseSend);
        if (unreported_send_ > 0) write_send_index(1);
      }
      return;
    case kReturnTimer:
      if (return_timer_armed_ && (tag >> 8) == (return_timer_gen_ & 0xFFFFFF)) {
        return_timer_armed_ = false;
        ctx_->record(TraceKind::CoalesceTimer, Component::Nic, kCauseReceive);
        if (unreported_return_ > 0) write_return_index(1);
      }
      return;
    default:
      ctx_->fail("NIC: unknown event tag " + std::to_string(tag));
  }
}

void FixedFunctionNic::dma_done(DmaChannel, const DmaRequest& req) {
  switch (req.purpose) {
    case Purpose::SendBdFetch: {  // S3 done: the descriptors are in NIC memory
      const std::uint64_t p = rings_.send->prod(Copy::Nic);
      for (std::uint64_t i = 0; i < req.cookie; ++i) {
        rings_.send->desc(Copy::Nic, p + i) = rings_.send->desc(Copy::Host, p + i);
      }
      rings_.send->set_prod(Copy::Nic, p + req.cookie);
      send_fetch_inflight_ = false;
      kick_send_fetch();
      kick_send_data();
      return;
    }
    case Purpose::RecvBdFetch: {
      const std::uint64_t p = rings_.receive->prod(Copy::Nic);
      for (std::uint64_t i = 0; i < req.cookie; ++i) {
        rings_.receive->desc(Copy::Nic, p + i) = rings_.receive->desc(Copy::Host, p + i);
      }
      rings_.receive->set_prod(Copy::Nic, p + req.cookie);
      recv_fetch_inflight_ = false;
      kick_recv_fetch();
      kick_rx();
      return;
    }
    case Purpose::SendDataFetch: {  // the frame is in the transmit buffer; the BD is processed
      if (req.cookie != rings_.send->cons(Copy::Nic)) {
        ctx_->fail("NIC: send data completed out of order");
        return;
      }
      rings_.send->set_cons(Copy::Nic, req.cookie + 1);
      const std::uint32_t frame = std::max<std::uint32_t>(req.bytes + kCrcBytes, kMinFrameBytes);
      tx_ready_.push_back(Frame{req.packet, frame, 0});
      ctx_->after(cfg_.delays.tx_frame, this, kTxFrame);
      ++unreported_send_;
      coalesce_send();
      return;
    }
    case Purpose::RecvDataWrite:  // R2 done: the frame is in the host buffer
      rx_used_ -= static_cast<std::int64_t>(req.cookie);
      kick_rx();
      return;
    case Purpose::ReturnBdWrite: {  // R3 done: a return descriptor is in host memory
      const Descriptor d = return_pending_.front();
      return_pending_.pop_front();
      const std::uint64_t p = rings_.ret->prod(Copy::Nic);
      rings_.ret->desc(Copy::Nic, p) = d;
      rings_.ret->desc(Copy::Host, p) = d;  // the DMA wrote the slot; the host index lags
      rings_.ret->set_prod(Copy::Nic, p + 1);
      --return_reserved_;
      ++unreported_return_;
      coalesce_return();
      return;
    }
    case Purpose::SendConsumerWrite: {  // S6: the host now sees the consumer index
      const std::uint64_t value = req.cookie & ~kTimerTrigger;
      rings_.send->set_cons(Copy::Host, value);
      send_index_inflight_ = false;
      interrupt(kCauseSend, (req.cookie & kTimerTrigger) ? 1 : 0);
      if (send_index_again_) {
        send_index_again_ = false;
        if (unreported_send_ > 0) write_send_index(0);
      }
      return;
    }
    case Purpose::ReturnProducerWrite: {  // R4: the host now sees the return producer index
      const std::uint64_t value = req.cookie & ~kTimerTrigger;
      rings_.ret->set_prod(Copy::Host, value);
      return_index_inflight_ = false;
      interrupt(kCauseReceive, (req.cookie & kTimerTrigger) ? 1 : 0);
      if (return_index_again_) {
        return_index_again_ = false;
        if (unreported_return_ > 0) write_return_index(0);
      }
      return;
    }
    case Purpose::MailboxPio:
    case Purpose::Count:
      break;
  }
  ctx_->fail("NIC: unexpected DMA completion");
}

// ---- send: S3, S4, S5 ---------------------------------------------------------------------

void FixedFunctionNic::kick_send_fetch() {
  if (send_fetch_inflight_ || !can_issue(DmaChannel::Read)) return;
  DescriptorRing& ring = *rings_.send;
  const std::uint64_t p = ring.prod(Copy::Nic);
  if (send_notified_ <= p) return;
  const std::uint64_t to_end = static_cast<std::uint64_t>(ring.size() - ring.slot(p));
  const std::uint64_t n = std::min({send_notified_ - p, static_cast<std::uint64_t>(cfg_.bd_fetch_max), to_end});
  send_fetch_inflight_ = true;
  issue(DmaChannel::Read, {Purpose::SendBdFetch, static_cast<std::uint32_t>(n * cfg_.send_bd_bytes),
                           ring.desc(Copy::Host, p).packet, n});
}

void FixedFunctionNic::kick_send_data() {
  if (send_data_busy_ || !can_issue(DmaChannel::Read)) return;
  if (send_next_data_ >= rings_.send->prod(Copy::Nic)) return;
  const Descriptor& d = rings_.send->desc(Copy::Nic, send_next_data_);
  const std::int64_t frame = std::max<std::int64_t>(d.bytes + kCrcBytes, kMinFrameBytes);
  if (tx_used_ + frame > cfg_.tx_buffer_bytes) {
    if (!tx_buffer_wait_) {
      tx_buffer_wait_ = true;
      ++tally_->tx_buffer_full;
      ctx_->record(TraceKind::TxBufferFull, Component::Nic, d.packet);
    }
    return;
  }
  tx_used_ += frame;
  send_data_busy_ = true;
  ctx_->after(cfg_.delays.bd, this, kSendData);
}

void FixedFunctionNic::kick_mac() {
  while (!mac_queue_.empty()) {
    const Frame f = mac_queue_.front();
    if (!tx_link_->try_send(f)) return;  // the wire calls link_ready when free
    mac_queue_.pop_front();
    ctx_->record(TraceKind::MacTxStart, Component::MacTx, f.packet, f.frame_bytes);
  }
}

void FixedFunctionNic::link_sent(const Frame& f) {
  ctx_->record(TraceKind::MacTxEnd, Component::MacTx, f.packet, f.frame_bytes);
  tx_used_ -= f.frame_bytes;
  if (tx_buffer_wait_) {
    tx_buffer_wait_ = false;
    kick_send_data();
  }
}

void FixedFunctionNic::link_ready() { kick_mac(); }

// ---- receive: R1, R2, R3 -------------------------------------------------------------------

void FixedFunctionNic::kick_recv_fetch() {
  if (recv_fetch_inflight_ || !can_issue(DmaChannel::Read)) return;
  DescriptorRing& ring = *rings_.receive;
  const std::uint64_t p = ring.prod(Copy::Nic);
  if (recv_notified_ <= p) return;
  const std::uint64_t to_end = static_cast<std::uint64_t>(ring.size() - ring.slot(p));
  const std::uint64_t n = std::min({recv_notified_ - p, static_cast<std::uint64_t>(cfg_.bd_fetch_max), to_end});
  recv_fetch_inflight_ = true;
  issue(DmaChannel::Read, {Purpose::RecvBdFetch, static_cast<std::uint32_t>(n * cfg_.receive_bd_bytes), 0, n});
}

void FixedFunctionNic::frame_arrived(const Frame& f) {
  ctx_->record(TraceKind::MacRxDone, Component::MacRx, f.packet, f.frame_bytes);
  if (rx_used_ + f.frame_bytes > cfg_.rx_buffer_bytes) {
    drop(f, 1);
    return;
  }
  rx_used_ += f.frame_bytes;
  rx_queue_.push_back(f);
  kick_rx();
}

void FixedFunctionNic::drop(const Frame& f, std::uint32_t reason) {
  ctx_->record(TraceKind::RxDrop, Component::Nic, f.packet, reason);
  if (reason == 0) {
    ++tally_->drops_no_descriptor;
  } else {
    ++tally_->drops_buffer_full;
  }
}

void FixedFunctionNic::kick_rx() {
  while (!rx_busy_ && !rx_queue_.empty() && can_issue(DmaChannel::Write)) {
    if (rings_.receive->pending(Copy::Nic) == 0) {
      // No buffer descriptor on the NIC. If the driver has posted more, wait for the fetch;
      // if it has not, there is no host buffer for this frame: drop it (thesis §2.3).
      if (recv_notified_ > rings_.receive->prod(Copy::Nic)) {
        kick_recv_fetch();
        return;
      }
      const Frame f = rx_queue_.front();
      rx_queue_.pop_front();
      rx_used_ -= f.frame_bytes;
      drop(f, 0);
      continue;
    }
    if (rings_.ret->free_slots() - return_reserved_ <= 0) {
      if (!return_full_) {
        return_full_ = true;
        ctx_->record(TraceKind::RingFull, Component::Nic, static_cast<std::uint32_t>(RingId::Return));
      }
      return;
    }
    ++return_reserved_;
    rx_busy_ = true;
    ctx_->after(cfg_.delays.rx_frame, this, kRxIssue);
  }
}

// ---- notification: S6 and R4, with coalescing ----------------------------------------------

void FixedFunctionNic::coalesce_send() {
  if (unreported_send_ >= static_cast<std::uint64_t>(cfg_.send_coalesce_bds)) {
    write_send_index(0);
  } else if (!send_timer_armed_ && cfg_.send_coalesce_timer > 0) {
    send_timer_armed_ = true;
    ++send_timer_gen_;
    ctx_->after(cfg_.send_coalesce_timer, this, kSendTimer | ((send_timer_gen_ & 0xFFFFFF) << 8));
  }
}

void FixedFunctionNic::coalesce_return() {
  if (unreported_return_ >= static_cast<std::uint64_t>(cfg_.receive_coalesce_bds)) {
    write_return_index(0);
  } else if (!return_timer_armed_ && cfg_.receive_coalesce_timer > 0) {
    return_timer_armed_ = true;
    ++return_timer_gen_;
    ctx_->after(cfg_.receive_coalesce_timer, this, kReturnTimer | ((return_timer_gen_ & 0xFFFFFF) << 8));
  }
}

void FixedFunctionNic::write_send_index(std::uint32_t trigger) {
  if (send_index_inflight_) {
    send_index_again_ = true;
    return;
  }
  send_index_inflight_ = true;
  unreported_send_ = 0;
  send_timer_armed_ = false;
  const std::uint64_t value = rings_.send->cons(Copy::Nic);
  issue(DmaChannel::Write, {Purpose::SendConsumerWrite, static_cast<std::uint32_t>(cfg_.index_bytes), 0,
                            value | (trigger ? kTimerTrigger : 0)});
}

void FixedFunctionNic::write_return_index(std::uint32_t trigger) {
  if (return_index_inflight_) {
    return_index_again_ = true;
    return;
  }
  return_index_inflight_ = true;
  unreported_return_ = 0;
  return_timer_armed_ = false;
  const std::uint64_t value = rings_.ret->prod(Copy::Nic);
  issue(DmaChannel::Write, {Purpose::ReturnProducerWrite, static_cast<std::uint32_t>(cfg_.index_bytes), 0,
                            value | (trigger ? kTimerTrigger : 0)});
}

void FixedFunctionNic::interrupt(std::uint32_t cause, std::uint32_t trigger) {
  interrupts_.push_back({cause, trigger});
  ctx_->after(cfg_.delays.interrupt, this, kInterrupt);
}

}  // namespace nicsim
