#include "host/host_bridge.hpp"

namespace nicsim {

HostBridge::HostBridge(SimContext* ctx, IoBus* bus, std::int64_t entries)
    : ctx_(ctx), bus_(bus), entries_(static_cast<std::size_t>(entries)) {}

bool HostBridge::try_post(MailboxTarget* nic, unsigned instance, Mailbox box, std::uint32_t value,
                          PioWaiter* waiter, RecordId cause) {
  if (posted_.size() >= entries_) {
    waiter_ = waiter;
    return false;
  }
  posted_.push_back({nic, instance, box, value});
  ++writes_;
  posted_.back().cause = ctx_->record(
      component_id(Component::Driver, instance),
      rec::MailboxWrite().mailbox(static_cast<std::uint32_t>(box)).value(value), cause);
  pump();
  return true;
}

void HostBridge::read(MailboxTarget* nic, unsigned instance, Register reg, PioWaiter* reader) {
  Pio p{nic, instance, Mailbox::InterruptAck, 0};
  p.is_read = true;
  p.reg = reg;
  p.reader = reader;
  posted_.push_back(p);
  ++reads_;
  pump();
}

void HostBridge::pump() {
  if (active_ || posted_.empty()) return;
  BusTransaction txn;
  txn.master = Component::HostBridge;
  const Pio& next = posted_.front();
  txn.purpose = next.is_read ? Purpose::RegisterRead : Purpose::MailboxPio;
  txn.instance = 0;  // one host bridge; the target NIC is in the request
  txn.bytes = 4;
  txn.read = next.is_read;
  txn.cause = next.cause;  // the tenure names its MailboxWrite, so it shows which mailbox
  if (bus_->try_start(txn, this)) active_ = true;
}

void HostBridge::bus_done(const BusTransaction&) {
  const Pio p = posted_.front();
  posted_.pop_front();
  active_ = false;
  if (p.is_read) {
    const std::uint32_t value = p.nic->register_read(p.reg);
    ctx_->record(component_id(Component::Driver, p.instance),
                 rec::RegisterRead().reg(static_cast<std::uint32_t>(p.reg)).value(value));
    p.reader->pio_read_done(value);
  } else {
    const RecordId arrive = ctx_->record(
        component_id(Component::Nic, p.instance),
        rec::MailboxArrive().mailbox(static_cast<std::uint32_t>(p.box)).value(p.value), p.cause);
    p.nic->mailbox_write(p.box, p.value, arrive);
  }
  if (waiter_ != nullptr && posted_.size() < entries_) {
    PioWaiter* w = waiter_;
    waiter_ = nullptr;
    w->pio_space();
  }
  pump();
}

bool PioQueue::drain(HostBridge* bridge, PioWaiter* waiter) {
  for (; next_ < writes_.size(); ++next_) {
    const PioWrite& w = writes_[next_];
    if (!bridge->try_post(w.nic, w.instance, w.box, w.value, waiter, w.cause)) return false;
  }
  writes_.clear();
  next_ = 0;
  return true;
}

}  // namespace nicsim
