#include "nic/fixed_nic.hpp"

#include <algorithm>

namespace nicsim {

namespace {
constexpr std::uint64_t kTimerTrigger = 1ull << 63;
}

FixedFunctionNic::FixedFunctionNic(SimContext* ctx, const NicConfig& cfg, unsigned instance,
                                   Rings rings, IoBus* bus, Tally* tally)
    : ctx_(ctx),
      cfg_(cfg),
      instance_(instance),
      rings_(rings),
      dma_(ctx, bus, cfg.dma_queue_depth, cfg.dma_max_burst, instance, this),
      tally_(tally),
      send_fetch_{rings.send, Purpose::SendBdFetch, cfg.send_bd_bytes},
      recv_fetch_{rings.receive, Purpose::RecvBdFetch, cfg.receive_bd_bytes},
      send_report_{rings.send,
                   Copy::Nic,
                   false,
                   Purpose::SendConsumerWrite,
                   kCauseSend,
                   Coalescer(static_cast<std::uint64_t>(cfg.send_coalesce_bds),
                             cfg.send_coalesce_timer, kSendTimer)},
      return_report_{rings.ret,
                     Copy::Nic,
                     true,
                     Purpose::ReturnProducerWrite,
                     kCauseReceive,
                     Coalescer(static_cast<std::uint64_t>(cfg.receive_coalesce_bds),
                               cfg.receive_coalesce_timer, kReturnTimer)} {}

// ---- ports -------------------------------------------------------------------------------

void FixedFunctionNic::mailbox_write(Mailbox box, std::uint32_t value, RecordId cause) {
  mailboxes_.push_back({box, value, cause});
  ctx_->after(cfg_.delays.mailbox, this, kMailbox);
}

std::uint32_t FixedFunctionNic::register_read(Register reg) {
  switch (reg) {
    case Register::SendConsumer:  // the live index of the NIC's copy
      return static_cast<std::uint32_t>(rings_.send->slot(rings_.send->cons(Copy::Nic)));
  }
  return 0;
}

inline bool FixedFunctionNic::issue(DmaChannel ch, const DmaRequest& req, RecordId* queued) {
  auto& backlog = backlog_[static_cast<int>(ch)];
  if (backlog.empty() && dma_.enqueue(ch, req, queued)) return true;
  backlog.push_back(req);
  return false;
}

void FixedFunctionNic::dma_space(DmaChannel ch) {
  auto& backlog = backlog_[static_cast<int>(ch)];
  while (!backlog.empty() && dma_.enqueue(ch, backlog.front())) backlog.pop_front();
  if (backlog.empty()) kick_all();
}

void FixedFunctionNic::kick_all() {
  kick_fetch(send_fetch_);
  kick_fetch(recv_fetch_);
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
          send_fetch_.notified = rings_.send->unwrap(send_fetch_.notified, m.value);
          send_fetch_.cause = m.cause;
          kick_fetch(send_fetch_);
          break;
        case Mailbox::ReceiveProducer:  // buffers replenished
          recv_fetch_.notified = rings_.receive->unwrap(recv_fetch_.notified, m.value);
          recv_fetch_.cause = m.cause;
          kick_fetch(recv_fetch_);
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
      Descriptor& nd = rings_.send->desc(Copy::Nic, send_next_data_);
      const Descriptor d = nd;
      if (d.command == BdCommand::AppendCache) {
        // nic_pkt_append_cache (the thesis Fig 4.11): a copy inside NIC memory, no DMA; its cost
        // is ignored as in the prototype (§4.4.2: unnecessary with gather I/O).
        send_done_.push_back(true);
        tally_->tx_cache_bytes += d.bytes;
        const std::uint64_t fresh = std::min<std::uint64_t>(inserted_to_append_, d.bytes);
        inserted_to_append_ -= fresh;
        tally_->tx_cache_hit_bytes += d.bytes - fresh;
        nd.cause = ctx_->record(me(Component::Nic),
                                rec::NicCacheAppend().packet(d.packet).bytes(d.bytes), d.cause);
      } else {
        // nic_pkt_append_mm, or nic_cache_insert (the same DMA read, into the cache).
        DmaRequest req{Purpose::SendDataFetch, d.bytes,        d.packet,
                       send_next_data_,        d.header_bytes, d.app_header_bytes};
        req.cause = d.cause;  // the descriptor fetch that brought it
        issue(DmaChannel::Read, req);
        send_done_.push_back(false);
        if (d.command == BdCommand::CacheInsert) {
          tally_->cache_insert_bytes += d.bytes;
          inserted_to_append_ += d.bytes;
        }
      }
      ++send_next_data_;
      send_data_busy_ = false;
      retire_send();
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
      ++tally_->rx_accepted;
      const std::uint64_t idx = rings_.receive->cons(Copy::Nic);
      rings_.receive->set_cons(Copy::Nic, idx + 1);
      DmaRequest data{Purpose::RecvDataWrite, f.frame_bytes - static_cast<std::uint32_t>(kCrcBytes),
                      f.packet, f.frame_bytes,
                      f.frame_bytes - static_cast<std::uint32_t>(kCrcBytes) - f.payload_bytes};
      data.cause = f.cause;  // the frame in the receive buffer
      RecordId data_queued = 0;
      const bool data_taken = issue(DmaChannel::Write, data, &data_queued);
      return_pending_.push_back(Descriptor{f.packet, f.payload_bytes,
                                           static_cast<std::uint32_t>(rings_.receive->slot(idx))});
      // The return descriptor announces the data: the in-order write queue lands it after.
      DmaRequest ret{Purpose::ReturnBdWrite, static_cast<std::uint32_t>(cfg_.return_bd_bytes),
                     f.packet, 0};
      ret.cause = data_taken ? data_queued : f.cause;
      issue(DmaChannel::Write, ret);
      rx_busy_ = false;
      kick_rx();
      return;
    }
    case kInterrupt: {
      const PendingInterrupt p = interrupts_.front();
      interrupts_.pop_front();
      const RecordId raised = ctx_->record(
          me(Component::Nic), rec::InterruptRaise().causes(p.cause).trigger(p.trigger), p.why);
      irq_->raise_interrupt(p.cause, raised);
      return;
    }
    case kSendTimer:
      timer_fired(send_report_, tag >> 8);
      return;
    case kReturnTimer:
      timer_fired(return_report_, tag >> 8);
      return;
    default:
      ctx_->fail("NIC: unknown event tag " + std::to_string(tag));
  }
}

void FixedFunctionNic::dma_done(DmaChannel, const DmaRequest& req) {
  switch (req.purpose) {
    case Purpose::SendBdFetch:  // S3 done: the descriptors are in NIC memory
      fetched(send_fetch_, req.cookie, req.done);
      kick_send_data();
      return;
    case Purpose::RecvBdFetch:
      fetched(recv_fetch_, req.cookie, req.done);
      kick_rx();
      return;
    case Purpose::SendDataFetch: {  // the data is in the transmit buffer (or the cache)
      const std::uint64_t cons = rings_.send->cons(Copy::Nic);
      if (req.cookie < cons || req.cookie - cons >= send_done_.size() ||
          send_done_[static_cast<std::size_t>(req.cookie - cons)]) {
        ctx_->fail("NIC: send data completed out of order");
        return;
      }
      send_done_[static_cast<std::size_t>(req.cookie - cons)] = true;
      rings_.send->desc(Copy::Nic, req.cookie).cause = req.done;  // its data is here
      retire_send();
      return;
    }
    case Purpose::RecvDataWrite:  // R2 done: the frame is in the host buffer
      rx_used_ -= static_cast<std::int64_t>(req.cookie);
      kick_rx();
      return;
    case Purpose::ReturnBdWrite: {  // R3 done: a return descriptor is in host memory
      Descriptor d = return_pending_.front();
      return_pending_.pop_front();
      d.cause = req.done;
      const std::uint64_t p = rings_.ret->prod(Copy::Nic);
      rings_.ret->desc(Copy::Nic, p) = d;
      rings_.ret->desc(Copy::Host, p) = d;  // the DMA wrote the slot; the host index lags
      rings_.ret->set_prod(Copy::Nic, p + 1);
      --return_reserved_;
      coalesce(return_report_, req.done);
      return;
    }
    case Purpose::SendConsumerWrite:  // S6: the host now sees the consumer index
      index_written(send_report_, req.cookie, req.done);
      return;
    case Purpose::ReturnProducerWrite:  // R4: the host now sees the return producer index
      index_written(return_report_, req.cookie, req.done);
      return;
    case Purpose::MailboxPio:
    case Purpose::DiskTransfer:
    case Purpose::RegisterRead:
    case Purpose::Count:
      break;
  }
  ctx_->fail("NIC: unexpected DMA completion");
}

// ---- send: S3, S4, S5 ---------------------------------------------------------------------

void FixedFunctionNic::kick_fetch(DescriptorFetch& f) {
  if (f.inflight || !can_issue(DmaChannel::Read)) return;
  DescriptorRing& ring = *f.ring;
  const std::uint64_t p = ring.prod(Copy::Nic);
  if (f.notified <= p) return;
  const std::uint64_t to_end = static_cast<std::uint64_t>(ring.size() - ring.slot(p));
  const std::uint64_t n =
      std::min({f.notified - p, static_cast<std::uint64_t>(cfg_.bd_fetch_max), to_end});
  f.inflight = true;
  DmaRequest req{f.purpose, static_cast<std::uint32_t>(n * static_cast<std::uint64_t>(f.bd_bytes)),
                 ring.desc(Copy::Host, p).packet, n};
  req.cause = f.cause;  // the mailbox write that announced them
  issue(DmaChannel::Read, req);
}

void FixedFunctionNic::fetched(DescriptorFetch& f, std::uint64_t n, RecordId done) {
  DescriptorRing& ring = *f.ring;
  const std::uint64_t p = ring.prod(Copy::Nic);
  for (std::uint64_t i = 0; i < n; ++i) {
    ring.desc(Copy::Nic, p + i) = ring.desc(Copy::Host, p + i);
    ring.desc(Copy::Nic, p + i).cause = done;
  }
  ring.set_prod(Copy::Nic, p + n);
  f.inflight = false;
  kick_fetch(f);
}

void FixedFunctionNic::kick_send_data() {
  if (send_data_busy_ || !can_issue(DmaChannel::Read)) return;
  if (send_next_data_ >= rings_.send->prod(Copy::Nic)) return;
  const Descriptor& d = rings_.send->desc(Copy::Nic, send_next_data_);
  // Transmit buffer space for this buffer's bytes (and the CRC with the last one); an insert
  // goes into the cache, not the transmit buffer.
  const std::int64_t frame = d.command == BdCommand::CacheInsert ? 0
                             : d.end                             ? d.bytes + kCrcBytes
                                                                 : d.bytes;
  if (tx_used_ + frame > cfg_.tx_buffer_bytes) {
    if (!tx_buffer_wait_) {
      tx_buffer_wait_ = true;
      ++tally_->tx_buffer_full;
      ctx_->record(me(Component::Nic), rec::TxBufferFull().packet(d.packet));
    }
    return;
  }
  tx_used_ += frame;
  send_data_busy_ = true;
  ctx_->after(cfg_.delays.bd, this, kSendData);
}

void FixedFunctionNic::retire_send() {
  // Descriptors are processed in ring order (the thesis §4.3.3: in-order processing concatenates
  // headers and data): each is retired once it and every one before it is done.
  while (!send_done_.empty() && send_done_.front()) {
    send_done_.pop_front();
    const std::uint64_t idx = rings_.send->cons(Copy::Nic);
    rings_.send->set_cons(Copy::Nic, idx + 1);
    // A packet may span several buffers (header and content); the frame is complete with
    // the buffer marked END, and the MAC adds the CRC.
    const Descriptor& d = rings_.send->desc(Copy::Nic, idx);
    if (d.command != BdCommand::CacheInsert) {
      frame_so_far_ += d.bytes;
      payload_so_far_ += d.payload;
    }
    if (d.end) {
      const std::uint32_t frame =
          std::max<std::uint32_t>(frame_so_far_ + kCrcBytes, kMinFrameBytes);
      tx_ready_.push_back(Frame{d.packet, frame, payload_so_far_, d.cause});
      ctx_->after(cfg_.delays.tx_frame, this, kTxFrame);
      frame_so_far_ = payload_so_far_ = 0;
    }
    coalesce(send_report_, d.cause);
  }
}

void FixedFunctionNic::kick_mac() {
  while (!mac_queue_.empty()) {
    if (!tx_link_->ready()) return;  // the wire calls link_ready when free
    Frame out = mac_queue_.front();
    mac_queue_.pop_front();
    // The frame on the wire follows from its MacTxStart.
    out.cause =
        ctx_->record(me(Component::MacTx),
                     rec::MacTxStart().packet(out.packet).frame_bytes(out.frame_bytes), out.cause);
    tx_link_->send(out);
  }
}

void FixedFunctionNic::link_sent(const Frame& f) {
  ctx_->record(me(Component::MacTx), rec::MacTxEnd().packet(f.packet).frame_bytes(f.frame_bytes),
               f.cause);
  tx_used_ -= f.frame_bytes;
  if (tx_buffer_wait_) {
    tx_buffer_wait_ = false;
    kick_send_data();
  }
}

void FixedFunctionNic::link_ready() { kick_mac(); }

// ---- receive: R1, R2, R3 -------------------------------------------------------------------

void FixedFunctionNic::frame_arrived(const Frame& f) {
  Frame in = f;
  in.cause = ctx_->record(me(Component::MacRx),
                          rec::MacRxDone().packet(f.packet).frame_bytes(f.frame_bytes), f.cause);
  if (rx_used_ + f.frame_bytes > cfg_.rx_buffer_bytes) {
    drop(in, 1);
    return;
  }
  rx_used_ += f.frame_bytes;
  rx_queue_.push_back(in);
  kick_rx();
}

void FixedFunctionNic::drop(const Frame& f, std::uint32_t reason) {
  ctx_->record(me(Component::Nic), rec::RxDrop().packet(f.packet).reason(reason), f.cause);
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
      if (recv_fetch_.notified > rings_.receive->prod(Copy::Nic)) {
        kick_fetch(recv_fetch_);
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
        ctx_->record(me(Component::Nic),
                     rec::RingFull().ring(static_cast<std::uint32_t>(RingId::Return)));
      }
      return;
    }
    ++return_reserved_;
    rx_busy_ = true;
    ctx_->after(cfg_.delays.rx_frame, this, kRxIssue);
  }
}

// ---- notification: S6 and R4, with coalescing ----------------------------------------------

void FixedFunctionNic::coalesce(IndexReport& r, RecordId why) {
  r.last = why;
  if (r.coalescer.add(ctx_, this)) write_index(r, 0, why);
}

void FixedFunctionNic::timer_fired(IndexReport& r, std::uint32_t generation) {
  if (!r.coalescer.expire(generation)) return;  // a stale timer
  const RecordId timer =
      ctx_->record(me(Component::Nic), rec::CoalesceTimer().causes(r.cause), r.last);
  if (r.coalescer.unreported() > 0) write_index(r, 1, timer);
}

void FixedFunctionNic::write_index(IndexReport& r, std::uint32_t trigger, RecordId why) {
  if (r.inflight) {  // one index write at a time; another follows this one
    r.again = true;
    return;
  }
  if (!r.producer_index && cfg_.send_consumer_by_pio) {
    // The driver reads the index itself (PIO): no DMA write, only the interrupt.
    r.coalescer.reported();
    interrupt(r.cause, trigger, why);
    return;
  }
  r.inflight = true;
  r.coalescer.reported();
  const std::uint64_t value = r.producer_index ? r.ring->prod(r.side) : r.ring->cons(r.side);
  DmaRequest req{r.purpose, static_cast<std::uint32_t>(cfg_.index_bytes), 0,
                 value | (trigger ? kTimerTrigger : 0)};
  req.cause = why;
  issue(DmaChannel::Write, req);
}

void FixedFunctionNic::index_written(IndexReport& r, std::uint64_t cookie, RecordId done) {
  const std::uint64_t value = cookie & ~kTimerTrigger;
  if (r.producer_index) {
    r.ring->set_prod(Copy::Host, value);
  } else {
    r.ring->set_cons(Copy::Host, value);
  }
  r.inflight = false;
  interrupt(r.cause, (cookie & kTimerTrigger) ? 1 : 0, done);
  if (r.again) {
    r.again = false;
    if (r.coalescer.unreported() > 0) write_index(r, 0, r.last);
  }
}

void FixedFunctionNic::interrupt(std::uint32_t cause, std::uint32_t trigger, RecordId why) {
  interrupts_.push_back({cause, trigger, why});
  ctx_->after(cfg_.delays.interrupt, this, kInterrupt);
}

}  // namespace nicsim
