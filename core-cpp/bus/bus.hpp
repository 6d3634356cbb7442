// The I/O bus seen through narrow ports, gem5-style (src/mem/port.hh): a master asks to start
// a transaction; a busy bus says no and calls the master back (bus_retry) when it is free.
// The simple bus below and the PCI-phase model both sit behind IoBus.
#pragma once
#include <array>
#include <cstdint>

#include "sim/time.hpp"
#include "trace/trace.hpp"

namespace nicsim {

struct BusTransaction {
  Component master = Component::Bus;
  unsigned instance = 0;  // which device of that kind (the second NIC is 1)
  Purpose purpose = Purpose::MailboxPio;
  std::uint32_t bytes = 0;
  std::uint32_t packet = 0;
  std::uint32_t header_bytes = 0;      // the first bytes are network headers (the rest content)
  std::uint32_t app_header_bytes = 0;  // then application headers (HTTP), then content
  bool read = false;                   // DMA read (host memory → device) or a write
  std::uint64_t cookie = 0;            // the master's own reference
  RecordId cause = 0;                  // the record that asked for it (its DmaQueued)
  RecordId end = 0;                    // set by the bus for bus_done: its last BusTxnEnd
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
  // True: bus_done follows when every byte has moved. False: busy; bus_retry follows.
  virtual bool try_start(const BusTransaction& txn, BusMaster* master) = 0;
  virtual Time busy_total(Time now) const = 0;
  virtual Time data_total(Time now) const = 0;
  virtual std::uint64_t transactions() const = 0;  // bus tenures
  virtual std::uint64_t refusals() const = 0;      // requests that found the bus owned
  // Cycles in each category from time 0 to t (they sum to the elapsed cycles); t must not be
  // before the current transaction's start (ask at the time, as the sampler does).
  virtual std::array<std::uint64_t, static_cast<std::size_t>(BusCategory::Count)> cycles_at(
      Time t) const = 0;
  virtual Time cycle() const = 0;
};

}  // namespace nicsim
