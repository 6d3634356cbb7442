// The I/O bus seen through narrow ports, gem5-style (src/mem/port.hh): a master asks to start
// a transaction; a busy bus says no and calls the master back (bus_retry) when it is free.
// The simple bus below and the PCI-phase model both sit behind IoBus.
#pragma once
#include <cstdint>

#include "sim/time.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {

struct BusTransaction {
  Component master = Component::Bus;
  Purpose purpose = Purpose::MailboxPio;
  std::uint32_t bytes = 0;
  std::uint32_t packet = 0;
  bool read = false;         // DMA read (host memory → device) or a write
  std::uint64_t cookie = 0;  // the master's own reference
};

class BusMaster {
 public:
  virtual void bus_done(const BusTransaction& txn) = 0;
  virtual void bus_retry() = 0;

 protected:
  ~BusMaster() = default;
};

class IoBus {
 public:
  virtual ~IoBus() = default;
  // True: the transaction owns the bus and bus_done follows. False: busy; bus_retry follows.
  virtual bool try_start(const BusTransaction& txn, BusMaster* master) = 0;
  virtual Time busy_total(Time now) const = 0;
  virtual Time data_total() const = 0;
  virtual std::uint64_t transactions() const = 0;
  virtual std::uint64_t refusals() const = 0;
};

}  // namespace nicsim
