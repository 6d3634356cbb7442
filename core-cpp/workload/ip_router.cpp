#include "workload/ip_router.hpp"

#include <algorithm>

#include "trace/trace_kinds.hpp"

namespace nicsim {

// ---- clients ---------------------------------------------------------------------------------

RouterClient::RouterClient(SimContext* ctx, const Config& cfg, unsigned instance)
    : ctx_(ctx), workload_(cfg.workload), instance_(instance) {}

void RouterClient::send_next() {
  // Offer frames until the wire says busy; it calls link_ready when free.
  while (to_nic_ != nullptr && to_nic_->ready()) {
    const std::uint32_t frame =
        workload_.frame_mix == FrameMix::Imix
            ? kImixFrames[sent_ % (sizeof(kImixFrames) / sizeof(kImixFrames[0]))]
            : static_cast<std::uint32_t>(frame_bytes(workload_.datagram_bytes));
    const std::uint32_t payload = frame - static_cast<std::uint32_t>(kUdpFrameHeaderBytes) -
                                  static_cast<std::uint32_t>(kCrcBytes);
    ++sent_;
    to_nic_->send(Frame{ctx_->new_packet(), frame, payload});
  }
}

void RouterClient::frame_arrived(const Frame& f) {
  ctx_->record(component_id(Component::Peer, instance_),
               rec::PeerRxDone().packet(f.packet).frame_bytes(f.frame_bytes), f.cause);
  ++received_;
  received_bytes_ += f.frame_bytes;
}

// ---- the router ------------------------------------------------------------------------------

IpRouter::IpRouter(SimContext* ctx, const Config& cfg, HostBridge* bridge)
    : ctx_(ctx),
      host_(cfg.host),
      bridge_(bridge),
      consumer_by_pio_(cfg.driver.send_consumer_by_pio) {}

InterruptLine* IpRouter::attach(Rings rings, MailboxTarget* nic) {
  ports_.push_back(Port{rings, nic, 0});
  auto irq = std::make_unique<Irq>();
  irq->router = this;
  irq->nic = static_cast<unsigned>(ports_.size() - 1);
  irqs_.push_back(std::move(irq));
  return irqs_.back().get();
}

void IpRouter::start() {
  // Pre-allocate receive buffers on every NIC (thesis §2.3.2).
  for (unsigned i = 0; i < ports_.size(); ++i) {
    DescriptorRing& rx = *ports_[i].rings.receive;
    rx.post_receive_buffers(static_cast<std::uint64_t>(rx.size() - 1), kReceiveBufferBytes);
    post(i, Mailbox::ReceiveProducer, rx.slot(rx.prod(Copy::Host)));
  }
  flush_pio();
}

void IpRouter::post(unsigned nic, Mailbox box, std::uint64_t value, RecordId cause) {
  pio_.push_back({ports_[nic].nic, nic, box, static_cast<std::uint32_t>(value), cause});
}

void IpRouter::flush_pio() {
  if (!pio_.drain(bridge_, this)) {
    stalled_on_pio_ = true;  // the CPU stalls, busy, until the bridge drains
    cpu_.set_busy(ctx_->now(), true);
    return;
  }
  stalled_on_pio_ = false;
  dispatch();
}

void IpRouter::interrupt(unsigned nic) {
  if (std::find(interrupts_.begin(), interrupts_.end(), nic) == interrupts_.end())
    interrupts_.push_back(nic);
  dispatch();
}

void IpRouter::dispatch() {
  if (busy_ || stalled_on_pio_) return;
  if (interrupts_.empty()) {
    cpu_.set_busy(ctx_->now(), false);
    return;
  }
  task_nic_ = interrupts_.front();
  interrupts_.pop_front();
  busy_ = true;
  cpu_.set_busy(ctx_->now(), true);
  if (consumer_by_pio_) {
    // PARALLEL (the thesis §3.2.2): the send consumer index is a register read; the CPU
    // stalls until the NIC's answer crosses the bus.
    bridge_->read(ports_[task_nic_].nic, task_nic_, Register::SendConsumer, this);
    return;
  }
  begin_interrupt();
}

void IpRouter::pio_read_done(std::uint32_t value) {
  DescriptorRing& tx = *ports_[task_nic_].rings.send;
  tx.set_cons(Copy::Host, tx.unwrap(tx.cons(Copy::Host), value));
  begin_interrupt();
}

void IpRouter::begin_interrupt() {
  Port& p = ports_[task_nic_];
  ++c_.interrupts;
  isr_receives_ = p.rings.ret->prod(Copy::Host) - p.rings.ret->cons(Copy::Host);
  isr_completions_ = p.rings.send->cons(Copy::Host) - p.reclaimed;
  isr_ = ctx_->record(component_id(Component::HostCpu, task_nic_),
                      rec::IsrStart().interrupt(static_cast<std::uint32_t>(c_.interrupts)),
                      irqs_[task_nic_]->raised);
  // Click's path per packet is a driver receive and a driver send (chosen: the host's UDP
  // costs, nothing fitted to Table 3.6).
  const Time cost = host_.interrupt_cost +
                    static_cast<Time>(isr_receives_) * (host_.receive_cost + host_.send_cost) +
                    static_cast<Time>(isr_completions_) * host_.send_complete_cost;
  ctx_->record(
      Component::HostCpu,
      rec::HostCpuBusy().task(1).duration_ps(static_cast<std::uint64_t>(cost)).nic(task_nic_));
  ctx_->after(cost, this, kTaskDone);
}

void IpRouter::fire(std::uint32_t) {
  const unsigned nic = task_nic_;
  const unsigned out = static_cast<unsigned>((nic + 1) % ports_.size());
  Port& p = ports_[nic];
  DescriptorRing& ret = *p.rings.ret;
  DescriptorRing& rx = *p.rings.receive;
  DescriptorRing& tx = *ports_[out].rings.send;
  const std::uint64_t first = tx.prod(Copy::Host);
  std::uint64_t idx = first;
  RecordId last = 0;
  for (std::uint64_t i = 0; i < isr_receives_; ++i) {
    const std::uint64_t c = ret.cons(Copy::Host);
    const Descriptor d = ret.desc(Copy::Host, c);
    ret.set_cons(Copy::Host, c + 1);
    rx.set_cons(Copy::Host, rx.cons(Copy::Host) + 1);
    const RecordId delivered =
        ctx_->record(component_id(Component::Driver, nic),
                     rec::HostDeliver().packet(d.packet).payload_bytes(d.bytes), d.cause);
    // Forward out the other NIC, zero-copy: the received buffer becomes the send buffer (a
    // fresh one replaces it on the receive ring). A full send ring drops the packet, as
    // Click's queue in front of the device does.
    const std::int64_t used = static_cast<std::int64_t>(idx - ports_[out].reclaimed);
    if (used + 1 > tx.size() - 1) {
      ++c_.queue_drops;
      continue;
    }
    Descriptor s;
    s.packet = d.packet;
    s.payload = d.bytes;
    s.bytes =
        static_cast<std::uint32_t>(frame_bytes(d.bytes)) - static_cast<std::uint32_t>(kCrcBytes);
    s.header_bytes = kUdpFrameHeaderBytes;
    last = s.cause = ctx_->record(component_id(Component::Driver, out),
                                  rec::DriverPostSendBd()
                                      .packet(d.packet)
                                      .slot(static_cast<std::uint32_t>(tx.slot(idx)))
                                      .frame_bytes(s.bytes + static_cast<std::uint32_t>(kCrcBytes)),
                                  delivered);
    tx.desc(Copy::Host, idx++) = s;
    ++c_.forwarded;
  }
  if (isr_receives_ > 0) {
    rx.post_receive_buffers(isr_receives_, kReceiveBufferBytes);
    post(nic, Mailbox::ReceiveProducer, rx.slot(rx.prod(Copy::Host)));
    post(nic, Mailbox::ReturnConsumer, ret.slot(ret.cons(Copy::Host)));
  }
  if (idx > first) {
    tx.set_prod(Copy::Host, idx);
    post(out, Mailbox::SendProducer, tx.slot(idx), last);
  }
  p.reclaimed += isr_completions_;
  post(nic, Mailbox::InterruptAck, 0);
  ctx_->record(component_id(Component::HostCpu, nic),
               rec::IsrEnd()
                   .interrupt(static_cast<std::uint32_t>(c_.interrupts))
                   .packets_received(static_cast<std::uint32_t>(isr_receives_))
                   .sends_completed(static_cast<std::uint32_t>(isr_completions_)),
               isr_);
  busy_ = false;
  flush_pio();
}

}  // namespace nicsim
