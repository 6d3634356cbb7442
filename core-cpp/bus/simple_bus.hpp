// The foundation's bus: one transaction at a time, width × clock, a fixed overhead in cycles
// per transaction. Waiting masters are granted in the order they asked (round-robin among
// requesters, as PCI arbitration is).
#pragma once
#include <deque>

#include "bus/bus.hpp"
#include "scenario/config.hpp"
#include "sim/context.hpp"
#include "sim/stats.hpp"

namespace nicsim {

class SimpleBus final : public IoBus, private EventHandler {
 public:
  SimpleBus(SimContext* ctx, const BusConfig& cfg);
  bool try_start(const BusTransaction& txn, BusMaster* master) override;
  Time busy_total(Time now) const override { return busy_.total(now); }
  Time data_total() const override { return data_; }
  std::uint64_t transactions() const override { return transactions_; }
  std::uint64_t refusals() const override { return refusals_; }

  // Cycles a transaction of `bytes` holds the bus (overhead + one per bus-width of data).
  std::int64_t cycles(std::uint32_t bytes) const;

 private:
  void fire(std::uint32_t tag) override;

  SimContext* ctx_;
  Time cycle_;
  std::int64_t width_bytes_;
  std::int64_t overhead_;
  bool busy_now_ = false;
  BusTransaction current_;
  BusMaster* owner_ = nullptr;
  std::deque<BusMaster*> waiting_;
  BusyTime busy_;
  Time data_ = 0;
  std::uint64_t transactions_ = 0;
  std::uint64_t refusals_ = 0;
  std::uint32_t next_txn_ = 1;
};

}  // namespace nicsim
