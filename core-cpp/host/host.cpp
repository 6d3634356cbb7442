#include "host/host.hpp"

#include <algorithm>

namespace nicsim {

namespace {}  // namespace

// ---- driver --------------------------------------------------------------------------------

Driver::Driver(SimContext* ctx, const Config& cfg, unsigned instance, Rings rings,
               MailboxTarget* nic, HostCpu* cpu, Tally* tally)
    : ctx_(ctx),
      host_(cfg.host),
      workload_(cfg.workload),
      instance_(instance),
      rings_(rings),
      nic_(nic),
      cpu_(cpu),
      tally_(tally),
      consumer_by_pio_(cfg.driver.send_consumer_by_pio),
      posted_(cfg.driver.receive_buffers_posted) {}

void Driver::start(PioQueue* pio) {
  DescriptorRing& rx = *rings_.receive;
  rx.post_receive_buffers(static_cast<std::uint64_t>(posted_), kReceiveBufferBytes);
  pio->push_back({nic_, instance_, Mailbox::ReceiveProducer,
                  static_cast<std::uint32_t>(rx.slot(rx.prod(Copy::Host)))});
}

void Driver::raise_interrupt(std::uint32_t, RecordId raised) {
  raised_ = raised;
  cpu_->interrupt(this);
}

void Driver::consumer_read(std::uint32_t value) {
  DescriptorRing& tx = *rings_.send;
  tx.set_cons(Copy::Host, tx.unwrap(tx.cons(Copy::Host), value));
}

bool Driver::send_ready() {
  if (workload_.direction == Direction::Receive) return false;
  if (workload_.packets > 0 && sent_ >= static_cast<std::uint64_t>(workload_.packets)) return false;
  if (ctx_->now() < next_send_) {
    cpu_->wake_at(next_send_);
    return false;
  }
  DescriptorRing& tx = *rings_.send;
  const std::int64_t used = static_cast<std::int64_t>(tx.prod(Copy::Host) - reclaimed_);
  if (used + static_cast<std::int64_t>(descriptors_per_packet()) > tx.size() - 1) {
    if (!stalled_on_ring_) {
      stalled_on_ring_ = true;
      ++tally_->send_ring_full;
      ctx_->record(me(Component::Driver),
                   rec::RingFull().ring(static_cast<std::uint32_t>(RingId::Send)));
      ctx_->record(me(Component::Driver),
                   rec::DriverStall().ring(static_cast<std::uint32_t>(RingId::Send)));
    }
    return false;
  }
  return true;
}

void Driver::send_done(PioQueue* pio) {
  // S1: descriptors naming the packet's buffers; S2: the new producer index to the mailbox.
  if (workload_.packet_interval > 0)
    next_send_ = std::max(next_send_, ctx_->now() - host_.send_cost) + workload_.packet_interval;
  DescriptorRing& tx = *rings_.send;
  const std::uint32_t packet = ctx_->new_packet();
  const std::uint64_t p = tx.prod(Copy::Host);
  std::uint32_t frame = 0;
  if (workload_.kind == WorkloadKind::TcpSegments) {
    // Zero-copy sendfile (thesis §4.1.1): the headers in one buffer, the file data in another.
    Descriptor header;
    header.packet = packet;
    header.bytes = static_cast<std::uint32_t>(workload_.segment_header_bytes);
    header.header_bytes = header.bytes;
    header.end = false;
    Descriptor content;
    content.packet = packet;
    content.bytes = static_cast<std::uint32_t>(workload_.segment_bytes);
    content.payload = content.bytes;
    tx.desc(Copy::Host, p) = header;
    tx.desc(Copy::Host, p + 1) = content;
    frame = header.bytes + content.bytes + static_cast<std::uint32_t>(kCrcBytes);
  } else {
    frame = static_cast<std::uint32_t>(frame_bytes(workload_.datagram_bytes));
    Descriptor d;
    d.packet = packet;
    d.bytes = frame - static_cast<std::uint32_t>(kCrcBytes);
    d.payload = static_cast<std::uint32_t>(workload_.datagram_bytes);
    d.header_bytes = kUdpFrameHeaderBytes;
    tx.desc(Copy::Host, p) = d;
  }
  tx.set_prod(Copy::Host, p + descriptors_per_packet());
  ++sent_;
  const RecordId posted =
      ctx_->record(me(Component::Driver), rec::DriverPostSendBd()
                                              .packet(packet)
                                              .slot(static_cast<std::uint32_t>(tx.slot(p)))
                                              .frame_bytes(frame));
  for (std::uint64_t i = 0; i < descriptors_per_packet(); ++i)
    tx.desc(Copy::Host, p + i).cause = posted;
  pio->push_back({nic_, instance_, Mailbox::SendProducer,
                  static_cast<std::uint32_t>(tx.slot(tx.prod(Copy::Host))), posted});
}

Time Driver::interrupt_begin() {
  // Everything the NIC has made visible in host memory by now is handled.
  ++interrupt_number_;
  ++tally_->interrupts;
  isr_receives_ = rings_.ret->prod(Copy::Host) - rings_.ret->cons(Copy::Host);
  isr_completions_ = rings_.send->cons(Copy::Host) - reclaimed_;
  isr_ =
      ctx_->record(me(Component::HostCpu), rec::IsrStart().interrupt(interrupt_number_), raised_);
  return host_.interrupt_cost + static_cast<Time>(isr_receives_) * host_.receive_cost +
         static_cast<Time>(isr_completions_) * host_.send_complete_cost;
}

void Driver::interrupt_done(PioQueue* pio) {
  DescriptorRing& ret = *rings_.ret;
  DescriptorRing& rx = *rings_.receive;
  DescriptorRing& tx = *rings_.send;
  for (std::uint64_t i = 0; i < isr_receives_; ++i) {
    const std::uint64_t c = ret.cons(Copy::Host);
    const Descriptor d = ret.desc(Copy::Host, c);
    ret.set_cons(Copy::Host, c + 1);
    // The buffer the return descriptor names has been consumed by the NIC.
    rx.set_cons(Copy::Host, rx.cons(Copy::Host) + 1);
    ctx_->record(me(Component::Driver), rec::HostDeliver().packet(d.packet).payload_bytes(d.bytes),
                 d.cause);
    ++tally_->rx_packets;
    tally_->rx_payload += d.bytes;
  }
  if (isr_receives_ > 0) {
    // Replenish: a fresh buffer for each one passed up.
    rx.post_receive_buffers(isr_receives_, kReceiveBufferBytes);
    pio->push_back({nic_, instance_, Mailbox::ReceiveProducer,
                    static_cast<std::uint32_t>(rx.slot(rx.prod(Copy::Host)))});
    pio->push_back({nic_, instance_, Mailbox::ReturnConsumer,
                    static_cast<std::uint32_t>(ret.slot(ret.cons(Copy::Host)))});
  }
  for (std::uint64_t i = 0; i < isr_completions_; ++i) {
    const Descriptor& d = tx.desc(Copy::Host, reclaimed_);
    if (d.end) ctx_->record(me(Component::Driver), rec::SendComplete().packet(d.packet));
    ++reclaimed_;
  }
  pio->push_back({nic_, instance_, Mailbox::InterruptAck, 0});
  ctx_->record(me(Component::HostCpu),
               rec::IsrEnd()
                   .interrupt(interrupt_number_)
                   .packets_received(static_cast<std::uint32_t>(isr_receives_))
                   .sends_completed(static_cast<std::uint32_t>(isr_completions_)),
               isr_);
  if (stalled_on_ring_ && isr_completions_ > 0) {
    stalled_on_ring_ = false;
    ctx_->record(me(Component::Driver),
                 rec::DriverResume().ring(static_cast<std::uint32_t>(RingId::Send)));
  }
}

// ---- CPU -----------------------------------------------------------------------------------

HostCpu::HostCpu(SimContext* ctx, const Config& cfg, HostBridge* bridge, Tally* tally)
    : ctx_(ctx), host_(cfg.host), start_(cfg.workload.start), bridge_(bridge), tally_(tally) {}

void HostCpu::start() {
  for (Driver* d : drivers_) d->start(&pio_);
  flush_pio();
  ctx_->after(start_, this, kStart);
}

void HostCpu::interrupt(Driver* d) {
  if (std::find(interrupts_.begin(), interrupts_.end(), d) == interrupts_.end())
    interrupts_.push_back(d);
  dispatch();
}

void HostCpu::wake_at(Time when) {
  if (wake_ >= 0 && wake_ <= when) return;
  wake_ = when;
  ctx_->at(when, this, kWake);
}

void HostCpu::dispatch() {
  if (task_ != Task::None || stalled_on_pio_) return;
  if (!interrupts_.empty()) {
    Driver* d = interrupts_.front();
    interrupts_.pop_front();
    task_ = Task::Interrupt;
    task_driver_ = d;
    cpu_.set_busy(ctx_->now(), true);
    if (d->reads_consumer_by_pio()) {
      // An uncached read: the CPU stalls until the NIC's answer crosses the bus.
      bridge_->read(d->nic(), d->instance(), Register::SendConsumer, this);
      return;
    }
    begin_interrupt(d);
    return;
  }
  if (started_) {
    // Round robin without `%` (a 64-bit divide costs tens of cycles, and this runs for every
    // task): next_sender_ < n, so the index wraps by a comparison.
    const std::size_t n = drivers_.size();
    std::size_t i = next_sender_;
    for (std::size_t k = 0; k < n; ++k, i = i + 1 == n ? 0 : i + 1) {
      Driver* d = drivers_[i];
      if (!d->send_ready()) continue;
      next_sender_ = i + 1 == n ? 0 : i + 1;
      task_ = Task::Send;
      task_driver_ = d;
      cpu_.set_busy(ctx_->now(), true);
      record_busy(0, host_.send_cost, d->instance());
      ctx_->after(host_.send_cost, this, kTaskDone);
      return;
    }
  }
  cpu_.set_busy(ctx_->now(), false);
}

void HostCpu::begin_interrupt(Driver* d) {
  const Time cost = d->interrupt_begin();
  record_busy(1, cost, d->instance());
  ctx_->after(cost, this, kTaskDone);
}

void HostCpu::pio_read_done(std::uint32_t value) {
  task_driver_->consumer_read(value);
  begin_interrupt(task_driver_);
}

void HostCpu::fire(std::uint32_t tag) {
  if (tag == kWake) {
    if (ctx_->now() < wake_) return;  // superseded by an earlier wake
    wake_ = -1;
    dispatch();
    return;
  }
  if (tag == kStart) {
    started_ = true;
    dispatch();
    return;
  }
  if (task_ == Task::Send) {
    task_driver_->send_done(&pio_);
  } else {
    task_driver_->interrupt_done(&pio_);
  }
  task_ = Task::None;
  task_driver_ = nullptr;
  flush_pio();
}

void HostCpu::record_busy(std::uint32_t task, Time duration, unsigned instance) {
  ctx_->record(Component::HostCpu, rec::HostCpuBusy()
                                       .task(task)
                                       .duration_ps(static_cast<std::uint64_t>(duration))
                                       .nic(instance));
}

void HostCpu::flush_pio() {
  if (!pio_.drain(bridge_, this)) {
    stalled_on_pio_ = true;  // the CPU stalls, busy, until the bridge drains
    cpu_.set_busy(ctx_->now(), true);
    return;
  }
  stalled_on_pio_ = false;
  dispatch();
}

// ---- peer ----------------------------------------------------------------------------------

Peer::Peer(SimContext* ctx, const Config& cfg, unsigned instance, Tally* tally)
    : ctx_(ctx), workload_(cfg.workload), instance_(instance), tally_(tally) {}

void Peer::start() {
  if (workload_.direction != Direction::Send) ctx_->after(workload_.start, &sender_, 0);
}

void Peer::send_next() {
  waiting_ = false;
  // Offer frames until the wire says busy; it calls link_ready when free. ACKs go first.
  while (true) {
    if (!have_frame_) {
      if (acks_due_ > 0) {
        --acks_due_;
        const std::uint32_t ack = static_cast<std::uint32_t>(
            std::max<std::int64_t>(kMinFrameBytes, workload_.segment_header_bytes + kCrcBytes));
        next_ = Frame{ctx_->new_packet(), ack, 0};
      } else if (workload_.kind == WorkloadKind::Udp && workload_.direction != Direction::Send &&
                 (workload_.packets == 0 ||
                  sent_ < static_cast<std::uint64_t>(workload_.packets))) {
        if (ctx_->now() < next_send_) {  // the offered rate is not due yet
          if (!waiting_) {
            waiting_ = true;
            ctx_->at(next_send_, &sender_, 0);
          }
          return;
        }
        if (workload_.packet_interval > 0)
          next_send_ = std::max(next_send_, ctx_->now()) + workload_.packet_interval;
        next_ = Frame{ctx_->new_packet(),
                      static_cast<std::uint32_t>(frame_bytes(workload_.datagram_bytes)),
                      static_cast<std::uint32_t>(workload_.datagram_bytes)};
        ++sent_;
        ++tally_->peer_sent;
      } else {
        return;
      }
      have_frame_ = true;
    }
    if (!to_nic_->ready()) return;  // the wire calls link_ready when free
    // The frame follows from its PeerTxStart.
    next_.cause =
        ctx_->record(component_id(Component::Peer, instance_),
                     rec::PeerTxStart().packet(next_.packet).frame_bytes(next_.frame_bytes));
    to_nic_->send(next_);
    have_frame_ = false;
  }
}

void Peer::link_ready() {
  // Optional seeded jitter widens the gap between the peer's frames.
  if (workload_.peer_jitter > 0) {
    ctx_->after(
        static_cast<Time>(ctx_->rng.below(static_cast<std::uint64_t>(workload_.peer_jitter) + 1)),
        &sender_, 0);
  } else {
    send_next();
  }
}

void Peer::frame_arrived(const Frame& f) {
  ctx_->record(component_id(Component::Peer, instance_),
               rec::PeerRxDone().packet(f.packet).frame_bytes(f.frame_bytes), f.cause);
  ++tally_->tx_packets;
  tally_->tx_payload += f.payload_bytes;
  if (workload_.kind == WorkloadKind::TcpSegments && workload_.ack_every > 0 &&
      ++unacked_ >= static_cast<std::uint64_t>(workload_.ack_every)) {
    unacked_ = 0;
    ++acks_due_;
    send_next();
  }
}

// ---- disk ----------------------------------------------------------------------------------

DiskController::DiskController(SimContext* ctx, const DiskConfig& cfg, IoBus* bus)
    : ctx_(ctx), cfg_(cfg), bus_(bus) {
  if (cfg.rate_mbps > 0) interval_ = cfg.burst_bytes * 8 * 1000000 / cfg.rate_mbps;
}

void DiskController::start() {
  if (interval_ > 0) ctx_->after(interval_, this, 0);
}

void DiskController::fire(std::uint32_t) {
  ++pending_;
  pump();
  ctx_->after(interval_, this, 0);
}

void DiskController::pump() {
  if (active_ || pending_ == 0) return;
  BusTransaction txn;
  txn.master = Component::Disk;
  txn.purpose = Purpose::DiskTransfer;
  txn.bytes = static_cast<std::uint32_t>(cfg_.burst_bytes);
  txn.read = false;  // a disk read lands in memory: a DMA write
  if (bus_->try_start(txn, this)) active_ = true;
}

void DiskController::bus_done(const BusTransaction&) {
  active_ = false;
  --pending_;
  pump();
}

}  // namespace nicsim
