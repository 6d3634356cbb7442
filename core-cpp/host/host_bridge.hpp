// The host bridge as a bus master for programmed I/O: the CPU's mailbox writes are posted into
// a small buffer and cross the bus one by one (thesis §2.3: memory-mapped registers written
// through PIO). A full buffer refuses the next write and calls the CPU back.
#pragma once
#include <cstdint>
#include <deque>

#include "bus/bus.hpp"
#include "sim/context.hpp"

namespace nicsim {

enum class Mailbox : std::uint32_t {
  SendProducer = 0,
  ReceiveProducer = 1,
  ReturnConsumer = 2,
  InterruptAck = 3
};

class MailboxTarget {
 public:
  virtual void mailbox_write(Mailbox box, std::uint32_t value) = 0;

 protected:
  ~MailboxTarget() = default;
};

class PioWaiter {
 public:
  virtual void pio_space() = 0;

 protected:
  ~PioWaiter() = default;
};

class HostBridge final : private BusMaster {
 public:
  HostBridge(SimContext* ctx, IoBus* bus, std::int64_t entries);
  // A mailbox write to NIC `instance` (its register target); false when the buffer is full.
  bool try_post(MailboxTarget* nic, unsigned instance, Mailbox box, std::uint32_t value,
                PioWaiter* waiter);
  std::uint64_t writes() const { return writes_; }

 private:
  struct Pio {
    MailboxTarget* nic;
    unsigned instance;
    Mailbox box;
    std::uint32_t value;
  };
  void pump();
  void bus_done(const BusTransaction& txn) override;
  void bus_retry() override { pump(); }

  SimContext* ctx_;
  IoBus* bus_;
  std::size_t entries_;
  std::deque<Pio> posted_;
  bool active_ = false;
  PioWaiter* waiter_ = nullptr;
  std::uint64_t writes_ = 0;
};

}  // namespace nicsim
