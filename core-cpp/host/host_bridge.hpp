// The host bridge as a bus master for programmed I/O: the CPU's mailbox writes are posted into
// a small buffer and cross the bus one by one (thesis §2.3: memory-mapped registers written
// through PIO). A full buffer refuses the next write and calls the CPU back.
#pragma once
#include <cstdint>
#include <vector>

#include "bus/bus.hpp"
#include "sim/context.hpp"
#include "sim/fifo.hpp"

namespace nicsim {

enum class Mailbox : std::uint32_t {
  SendProducer = 0,
  ReceiveProducer = 1,
  ReturnConsumer = 2,
  InterruptAck = 3
};

enum class Register : std::uint32_t { SendConsumer = 0 };

// A NIC as a PCI target: mailbox registers written by PIO, status registers read by PIO.
class MailboxTarget {
 public:
  // cause: the MailboxArrive record (trace flows follow it into the NIC).
  virtual void mailbox_write(Mailbox box, std::uint32_t value, RecordId cause) = 0;
  virtual std::uint32_t register_read(Register reg) = 0;

 protected:
  ~MailboxTarget() = default;
};

class PioWaiter {
 public:
  virtual void pio_space() = 0;
  virtual void pio_read_done(std::uint32_t value) = 0;  // a register read returned

 protected:
  ~PioWaiter() = default;
};

class HostBridge final : private BusMaster {
 public:
  HostBridge(SimContext* ctx, IoBus* bus, std::int64_t entries);
  // A mailbox write to NIC `instance` (its register target); false when the buffer is full.
  bool try_post(MailboxTarget* nic, unsigned instance, Mailbox box, std::uint32_t value,
                PioWaiter* waiter, RecordId cause = 0);
  // A register read is not posted: it crosses the bus after the writes posted before it
  // (PCI ordering), and the CPU waits for the data (pio_read_done).
  void read(MailboxTarget* nic, unsigned instance, Register reg, PioWaiter* reader);
  std::uint64_t reads() const { return reads_; }
  std::uint64_t writes() const { return writes_; }

 private:
  struct Pio {
    MailboxTarget* nic;
    unsigned instance;
    Mailbox box;
    std::uint32_t value;
    bool is_read = false;
    Register reg = Register::SendConsumer;
    PioWaiter* reader = nullptr;
    RecordId cause = 0;  // its MailboxWrite record
  };
  void pump();
  void bus_done(const BusTransaction& txn) override;
  void bus_retry() override { pump(); }

  SimContext* ctx_;
  IoBus* bus_;
  std::size_t entries_;
  Fifo<Pio> posted_;
  bool active_ = false;
  PioWaiter* waiter_ = nullptr;
  std::uint64_t writes_ = 0;
  std::uint64_t reads_ = 0;
};

// Mailbox writes a CPU task leaves to post once it ends, in order. When the bridge's posted-write
// buffer is full the CPU's store cannot retire: the owner stalls until pio_space().
struct PioWrite {
  MailboxTarget* nic;
  unsigned instance;
  Mailbox box;
  std::uint32_t value;
  RecordId cause = 0;  // what the write announces (the last descriptor posted)
};

class PioQueue {
 public:
  void push_back(const PioWrite& w) { writes_.push_back(w); }
  // Posts what the bridge takes; true when every write is posted (the queue is then empty).
  bool drain(HostBridge* bridge, PioWaiter* waiter);

 private:
  std::vector<PioWrite> writes_;
  std::size_t next_ = 0;
};

}  // namespace nicsim
