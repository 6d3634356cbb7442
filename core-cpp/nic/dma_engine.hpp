// The NIC's DMA engine (thesis §2.1, Table 3.3): a read channel and a write channel, each a
// bounded queue of DMA requests, both served in turn by one bus master on the half-duplex bus.
// A full channel refuses a request and calls the client back when a slot frees.
#pragma once
#include <cstdint>
#include <vector>

#include "bus/bus.hpp"
#include "sim/context.hpp"
#include "sim/fifo.hpp"

namespace nicsim {

enum class DmaChannel : std::uint8_t { Read = 0, Write = 1 };

struct DmaRequest {
  Purpose purpose = Purpose::SendBdFetch;
  std::uint32_t bytes = 0;
  std::uint32_t packet = 0;
  std::uint64_t cookie = 0;
  std::uint32_t header_bytes = 0;      // the first bytes are network headers (bus accounting)
  std::uint32_t app_header_bytes = 0;  // then application headers (HTTP), then content
  std::uint32_t id = 0;                // assigned by the engine when queued (trace records name it)
  RecordId cause = 0;                  // the record that asked for this DMA (a handler, a frame)
  RecordId queued = 0;                 // set by the engine: its DmaQueued record
  RecordId done = 0;                   // set by the engine for dma_done: its DmaDone record
};

class DmaClient {
 public:
  virtual void dma_done(DmaChannel ch, const DmaRequest& req) = 0;
  virtual void dma_space(DmaChannel ch) = 0;

 protected:
  ~DmaClient() = default;
};

class DmaEngine final : private BusMaster {
 public:
  // max_burst: longest bus transaction the engine asks for (0 = unlimited); longer DMAs are
  // split into bursts, each its own bus transaction (nic_facts §3.8).
  DmaEngine(SimContext* ctx, IoBus* bus, std::int64_t depth, std::int64_t max_burst,
            unsigned instance, DmaClient* client);
  // Inline: the Tigon's dispatch asks it of both channels at every wake.
  bool has_space(DmaChannel ch, std::size_t n = 1) const { return queue(ch).size() + n <= depth_; }
  // False when the channel's queue is full (the client hears dma_space later). Taken:
  // `queued`, if given, gets the request's DmaQueued record.
  bool enqueue(DmaChannel ch, const DmaRequest& req, RecordId* queued = nullptr) {
    // The test is inline and each outcome out of line: a refusal (common while the bus is
    // saturated) does not pay for the register saves of the path that starts a transaction.
    if (queue(ch).size() >= depth_) {
      refuse(ch, req);
      return false;
    }
    take(ch, req, queued);
    return true;
  }
  std::size_t queued(DmaChannel ch) const { return queue(ch).size(); }
  std::uint64_t refusals() const { return refusals_; }

 private:
  Fifo<DmaRequest>& queue(DmaChannel ch) { return ch == DmaChannel::Read ? reads_ : writes_; }
  const Fifo<DmaRequest>& queue(DmaChannel ch) const {
    return ch == DmaChannel::Read ? reads_ : writes_;
  }
  [[gnu::noinline]] void refuse(DmaChannel ch, const DmaRequest& req);
  [[gnu::noinline]] void take(DmaChannel ch, const DmaRequest& req, RecordId* queued);
  // Inlined into its callers: it runs for every DMA and every burst.
  [[gnu::always_inline]] void pump();
  void bus_done(const BusTransaction& txn) override;
  void bus_retry() override;

  SimContext* ctx_;
  IoBus* bus_;
  std::size_t depth_;
  std::uint32_t max_burst_;
  unsigned instance_;
  DmaClient* client_;
  std::uint32_t offset_ = 0;  // bytes of the active request already moved
  Fifo<DmaRequest> reads_, writes_;
  bool active_ = false;  // a transaction owns the bus
  DmaChannel last_ = DmaChannel::Write;
  bool space_wanted_[2] = {false, false};
  // A channel's last DmaQueueFull: the next request it takes is the one held back (clients
  // retry in order), and its DmaQueued follows from it.
  RecordId refused_[2] = {0, 0};
  std::uint64_t refusals_ = 0;
};

}  // namespace nicsim
