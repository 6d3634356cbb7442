#include "host/host.hpp"

namespace nicsim {

namespace {
enum Tag : std::uint32_t { kTaskDone = 1, kStart = 2 };
constexpr std::uint32_t kReceiveBufferBytes = 1518;  // nic_facts §3.4: standard buffers
}  // namespace

Host::Host(SimContext* ctx, const Config& cfg, Rings rings, HostBridge* bridge, Tally* tally)
    : ctx_(ctx),
      host_(cfg.host),
      workload_(cfg.workload),
      rings_(rings),
      bridge_(bridge),
      tally_(tally) {
  posted_ = cfg.driver.receive_buffers_posted;
  warmup_ = cfg.run.warmup;
}

void Host::start() {
  // Driver initialisation: pre-allocate receive buffers and tell the NIC (thesis §2.3.2).
  DescriptorRing& rx = *rings_.receive;
  for (std::int64_t i = 0; i < posted_; ++i) {
    rx.desc(Copy::Host, static_cast<std::uint64_t>(i)) =
        Descriptor{0, kReceiveBufferBytes, static_cast<std::uint32_t>(i)};
  }
  rx.set_prod(Copy::Host, static_cast<std::uint64_t>(posted_));
  pio_.push_back(
      {Mailbox::ReceiveProducer, static_cast<std::uint32_t>(rx.slot(rx.prod(Copy::Host)))});
  flush_pio();
  ctx_->after(workload_.start, this, kStart);
}

bool Host::send_wanted() const {
  if (!started_ || workload_.direction == Direction::Receive) return false;
  if (workload_.packets > 0 && sent_ >= static_cast<std::uint64_t>(workload_.packets)) return false;
  return true;
}

void Host::dispatch() {
  if (task_ != Task::None || stalled_on_pio_) return;
  if (interrupt_pending_) {
    // Enter the handler: everything the NIC has made visible in host memory by now is handled.
    interrupt_pending_ = false;
    task_ = Task::Interrupt;
    ++interrupt_number_;
    ++tally_->interrupts;
    isr_receives_ = rings_.ret->prod(Copy::Host) - rings_.ret->cons(Copy::Host);
    isr_completions_ = rings_.send->cons(Copy::Host) - reclaimed_;
    ctx_->record(TraceKind::IsrStart, Component::HostCpu, interrupt_number_);
    cpu_.set_busy(ctx_->now(), true);
    const Time cost = host_.interrupt_cost + static_cast<Time>(isr_receives_) * host_.receive_cost +
                      static_cast<Time>(isr_completions_) * host_.send_complete_cost;
    record_busy(1, cost);
    ctx_->after(cost, this, kTaskDone);
    return;
  }
  if (!send_wanted()) {
    cpu_.set_busy(ctx_->now(), false);
    return;
  }
  DescriptorRing& tx = *rings_.send;
  const std::int64_t used = static_cast<std::int64_t>(tx.prod(Copy::Host) - reclaimed_);
  if (used >= tx.size() - 1) {
    if (!stalled_on_ring_) {
      stalled_on_ring_ = true;
      ++tally_->send_ring_full;
      ctx_->record(TraceKind::RingFull, Component::Driver,
                   static_cast<std::uint32_t>(RingId::Send));
      ctx_->record(TraceKind::DriverStall, Component::Driver,
                   static_cast<std::uint32_t>(RingId::Send));
    }
    cpu_.set_busy(ctx_->now(), false);
    return;
  }
  task_ = Task::Send;
  cpu_.set_busy(ctx_->now(), true);
  record_busy(0, host_.send_cost);
  ctx_->after(host_.send_cost, this, kTaskDone);
}

void Host::fire(std::uint32_t tag) {
  if (tag == kStart) {
    started_ = true;
    dispatch();
    return;
  }
  if (task_ == Task::Send) {
    finish_send();
  } else {
    finish_interrupt();
  }
  task_ = Task::None;
  flush_pio();
}

void Host::finish_send() {
  // S1: a descriptor naming the packet's buffer; S2: the new producer index to the mailbox.
  DescriptorRing& tx = *rings_.send;
  const std::uint32_t packet = ctx_->new_packet();
  const std::uint64_t p = tx.prod(Copy::Host);
  const std::uint32_t frame = static_cast<std::uint32_t>(frame_bytes(workload_.datagram_bytes));
  tx.desc(Copy::Host, p) = Descriptor{packet, frame - static_cast<std::uint32_t>(kCrcBytes), 0};
  tx.set_prod(Copy::Host, p + 1);
  ++sent_;
  ctx_->record(TraceKind::DriverPostSendBd, Component::Driver, packet,
               static_cast<std::uint32_t>(tx.slot(p)), frame);
  pio_.push_back({Mailbox::SendProducer, static_cast<std::uint32_t>(tx.slot(p + 1))});
}

void Host::finish_interrupt() {
  DescriptorRing& ret = *rings_.ret;
  DescriptorRing& rx = *rings_.receive;
  DescriptorRing& tx = *rings_.send;
  for (std::uint64_t i = 0; i < isr_receives_; ++i) {
    const std::uint64_t c = ret.cons(Copy::Host);
    const Descriptor d = ret.desc(Copy::Host, c);
    ret.set_cons(Copy::Host, c + 1);
    // The buffer the return descriptor names has been consumed by the NIC.
    rx.set_cons(Copy::Host, rx.cons(Copy::Host) + 1);
    ctx_->record(TraceKind::HostDeliver, Component::Driver, d.packet, d.bytes);
    ++tally_->rx_packets;
    tally_->rx_payload += d.bytes;
  }
  if (isr_receives_ > 0) {
    // Replenish: a fresh buffer for each one passed up.
    const std::uint64_t p = rx.prod(Copy::Host);
    for (std::uint64_t i = 0; i < isr_receives_; ++i) {
      rx.desc(Copy::Host, p + i) =
          Descriptor{0, kReceiveBufferBytes, static_cast<std::uint32_t>(rx.slot(p + i))};
    }
    rx.set_prod(Copy::Host, p + isr_receives_);
    pio_.push_back(
        {Mailbox::ReceiveProducer, static_cast<std::uint32_t>(rx.slot(rx.prod(Copy::Host)))});
    pio_.push_back(
        {Mailbox::ReturnConsumer, static_cast<std::uint32_t>(ret.slot(ret.cons(Copy::Host)))});
    if (ctx_->now() >= warmup_) {
      last_ = Epoch{ctx_->now(), tally_->rx_packets, tally_->rx_payload};
      if (epochs_++ == 0) first_ = last_;
    }
  }
  for (std::uint64_t i = 0; i < isr_completions_; ++i) {
    ctx_->record(TraceKind::SendComplete, Component::Driver,
                 tx.desc(Copy::Host, reclaimed_).packet);
    ++reclaimed_;
  }
  pio_.push_back({Mailbox::InterruptAck, 0});
  ctx_->record(TraceKind::IsrEnd, Component::HostCpu, interrupt_number_,
               static_cast<std::uint32_t>(isr_receives_),
               static_cast<std::uint32_t>(isr_completions_));
  if (stalled_on_ring_ && isr_completions_ > 0) {
    stalled_on_ring_ = false;
    ctx_->record(TraceKind::DriverResume, Component::Driver,
                 static_cast<std::uint32_t>(RingId::Send));
  }
}

void Host::record_busy(std::uint32_t task, Time duration) {
  ctx_->record(TraceKind::HostCpuBusy, Component::HostCpu, task,
               static_cast<std::uint32_t>(duration & 0xFFFFFFFF),
               static_cast<std::uint32_t>(static_cast<std::uint64_t>(duration) >> 32));
}

void Host::flush_pio() {
  while (!pio_.empty()) {
    if (!bridge_->try_post(pio_.front().first, pio_.front().second, this)) {
      // The CPU's store cannot retire until the bridge drains: the CPU stalls, busy.
      stalled_on_pio_ = true;
      cpu_.set_busy(ctx_->now(), true);
      return;
    }
    pio_.pop_front();
  }
  stalled_on_pio_ = false;
  dispatch();
}

void Host::raise_interrupt(std::uint32_t) {
  interrupt_pending_ = true;
  dispatch();
}

// ---- peer ----------------------------------------------------------------------------------

Peer::Peer(SimContext* ctx, const Config& cfg, Tally* tally)
    : ctx_(ctx), workload_(cfg.workload), tally_(tally) {}

void Peer::start() {
  if (workload_.direction != Direction::Send) ctx_->after(workload_.start, &sender_, 0);
}

void Peer::send_next() {
  // Infinite demand: offer frames until the wire says busy; it calls link_ready when free.
  while (workload_.packets == 0 || sent_ < static_cast<std::uint64_t>(workload_.packets)) {
    if (!have_frame_) {
      next_ = Frame{ctx_->new_packet(),
                    static_cast<std::uint32_t>(frame_bytes(workload_.datagram_bytes)),
                    static_cast<std::uint32_t>(workload_.datagram_bytes)};
      have_frame_ = true;
    }
    if (!to_nic_->try_send(next_)) return;
    ctx_->record(TraceKind::PeerTxStart, Component::Peer, next_.packet, next_.frame_bytes);
    have_frame_ = false;
    ++sent_;
    ++tally_->peer_sent;
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
  ctx_->record(TraceKind::PeerRxDone, Component::Peer, f.packet, f.frame_bytes);
  ++tally_->tx_packets;
  tally_->tx_payload += static_cast<std::uint64_t>(workload_.datagram_bytes);
}

}  // namespace nicsim
