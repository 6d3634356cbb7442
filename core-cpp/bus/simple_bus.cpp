#include "bus/simple_bus.hpp"

#include <algorithm>

namespace nicsim {

Time BusConfig::cycle() const {
  // Nominal PCI/PCI-X clocks are 33.33, 66.67, 100 and 133.33 MHz (pci_facts §1).
  switch (clock_mhz) {
    case 33:
      return 30000;
    case 66:
      return 15000;
    case 100:
      return 10000;
    case 133:
      return 7500;
    default:
      return 1000000 / clock_mhz;
  }
}

SimpleBus::SimpleBus(SimContext* ctx, const BusConfig& cfg)
    : ctx_(ctx),
      cycle_(cfg.cycle()),
      width_bytes_(cfg.width_bits / 8),
      overhead_(cfg.overhead_cycles) {}

std::int64_t SimpleBus::cycles(std::uint32_t bytes) const {
  return overhead_ + (static_cast<std::int64_t>(bytes) + width_bytes_ - 1) / width_bytes_;
}

bool SimpleBus::try_start(const BusTransaction& txn, BusMaster* master) {
  if (busy_now_) {
    ++refusals_;
    if (std::find(waiting_.begin(), waiting_.end(), master) == waiting_.end()) {
      waiting_.push_back(master);
    }
    ctx_->record(TraceKind::BusRefused, Component::Bus, static_cast<std::uint32_t>(txn.master));
    return false;
  }
  busy_now_ = true;
  current_ = txn;
  owner_ = master;
  busy_.set_busy(ctx_->now(), true);
  ++transactions_;
  const std::int64_t data_cycles = cycles(txn.bytes) - overhead_;
  data_ += data_cycles * cycle_;
  ctx_->record(TraceKind::BusTxnStart, Component::Bus, next_txn_,
               static_cast<std::uint32_t>(txn.master), txn.bytes,
               static_cast<std::uint32_t>(txn.purpose), txn.packet);
  ctx_->after(cycles(txn.bytes) * cycle_, this, next_txn_);
  ++next_txn_;
  return true;
}

void SimpleBus::fire(std::uint32_t tag) {
  const BusTransaction done = current_;
  BusMaster* owner = owner_;
  ctx_->record(TraceKind::BusTxnEnd, Component::Bus, tag, static_cast<std::uint32_t>(done.master),
               done.bytes, static_cast<std::uint32_t>(done.purpose), done.packet);
  busy_now_ = false;
  owner_ = nullptr;
  busy_.set_busy(ctx_->now(), false);
  // Grant the longest-waiting master first, then tell the owner its transaction is done (it
  // may ask again and queue behind): no master can starve another.
  while (!busy_now_ && !waiting_.empty()) {
    BusMaster* next = waiting_.front();
    waiting_.pop_front();
    next->bus_retry();
  }
  owner->bus_done(done);
}

}  // namespace nicsim
