// A descriptor ring as in thesis §2.3 (Fig 2.3): one global ring implemented as two copies,
// one in host memory (the driver's) and one in NIC memory, each with its own producer and
// consumer index. Notification may lag, so the copies differ; the four consistency conditions
// must hold after every index update, and a violation is a model bug that stops the run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/context.hpp"
#include "sim/stats.hpp"

namespace nicsim {

enum class RingId : std::uint32_t { Send = 0, Receive = 1, Return = 2 };
enum class Copy : std::uint32_t { Host = 0, Nic = 1 };

// The NIC data cache commands of the thesis Fig 4.11, carried by flags in a send descriptor.
// Every other descriptor is a plain buffer: nic_pkt_append_mm.
enum class BdCommand : std::uint8_t {
  AppendMm = 0,     // nic_pkt_append_mm: DMA the buffer from main memory into the transmit buffer
  AppendCache = 1,  // nic_pkt_append_cache: copy `bytes` from the cache (no DMA)
  CacheInsert = 2,  // nic_cache_insert: DMA `bytes` from main memory into the cache
};

// What a descriptor says (the address is implied by the slot; the model tracks the packet).
struct Descriptor {
  std::uint32_t packet = 0;
  std::uint32_t bytes = 0;
  std::uint32_t buffer_slot = 0;       // return descriptors echo the receive-ring slot they used
  std::uint32_t payload = 0;           // application payload in this buffer (UDP data, TCP content)
  std::uint32_t header_bytes = 0;      // network headers at the start of this buffer
  std::uint32_t app_header_bytes = 0;  // then application (HTTP response) headers
  bool end = true;                     // last buffer of its packet (the Tigon's END flag)
  BdCommand command = BdCommand::AppendMm;  // web full-system mode with a NIC cache (Fig 4.12)
  RecordId cause = 0;  // the record of its last step: posted, fetched, data moved (trace flows)
};

// nic_facts §3.4: the drivers post standard 1518-byte receive buffers.
constexpr std::uint32_t kReceiveBufferBytes = 1518;

class DescriptorRing {
 public:
  // `producer` is the side that creates descriptors: the driver (Host) for the send and receive
  // rings, the NIC for the receive return ring.
  DescriptorRing(SimContext* ctx, RingId id, std::int64_t size, Copy producer, Time measure_from,
                 unsigned instance = 0);

  RingId id() const { return id_; }
  std::int64_t size() const { return size_; }
  Copy producer_side() const { return producer_; }

  // Indices are kept unwrapped (monotone counts) so conditions are exact; slots and the
  // values carried by mailboxes and index words are these modulo the ring size.
  std::uint64_t prod(Copy c) const { return copy(c).prod; }
  std::uint64_t cons(Copy c) const { return copy(c).cons; }
  std::int64_t slot(std::uint64_t index) const {
    // A mask when the size is a power of two (the usual ring), else a division.
    return static_cast<std::int64_t>(mask_ != 0 ? index & mask_
                                                : index % static_cast<std::uint64_t>(size_));
  }
  // Produced and not yet consumed, as a copy sees it.
  std::int64_t pending(Copy c) const {
    return static_cast<std::int64_t>(copy(c).prod - copy(c).cons);
  }
  // Free slots as the producer sees them; one slot is kept empty (nic_facts §3.4: "full" is
  // producer + 1 = consumer).
  std::int64_t free_slots() const { return size_ - 1 - pending(producer_); }

  Descriptor& desc(Copy c, std::uint64_t index) { return copy(c).slots[slot(index)]; }

  // Index updates; each is checked against the four conditions and traced. Inline: they run
  // on every index update, and the copy is usually known where they are called.
  void set_prod(Copy c, std::uint64_t value) {
    copy(c).prod = value;
    updated(c);
  }
  void set_cons(Copy c, std::uint64_t value) {
    copy(c).cons = value;
    updated(c);
  }

  // The driver posts `count` empty receive buffers of `bytes` after its producer index and
  // moves the index past them (thesis §2.3.2: pre-allocated, replenished as packets go up).
  void post_receive_buffers(std::uint64_t count, std::uint32_t bytes);

  // Rebuilds an unwrapped index from a modular value known to be at or ahead of `base`.
  std::uint64_t unwrap(std::uint64_t base, std::uint64_t modular) const {
    const std::uint64_t s = static_cast<std::uint64_t>(size_);
    if (mask_ != 0) return base + ((modular + s - (base & mask_)) & mask_);
    return base + ((modular + s - base % s) % s);
  }

  // Records both copies' indices, so a trace window that opens mid-run starts from the state.
  void record_state() {
    trace_copy(Copy::Host);
    trace_copy(Copy::Nic);
  }

  // The four consistency conditions (thesis §2.3); "" when they hold.
  std::string check() const;
  // check() == "", faster: this runs after every index update, so it is inline and without
  // branches (unsigned differences: an index behind its partner wraps past `room`).
  bool holds() const {
    const RingCopy& p = copy(producer_);
    const RingCopy& q = copy(producer_ == Copy::Host ? Copy::Nic : Copy::Host);
    const std::uint64_t room = static_cast<std::uint64_t>(size_ - 1);
    return (p.prod >= p.cons) & (p.prod - p.cons <= room) & (q.prod >= q.cons) &
           (q.prod - q.cons <= room) & (p.prod >= q.prod) & (q.cons >= p.cons);
  }

  LevelHistogram& occupancy() { return occupancy_; }

 private:
  struct RingCopy {
    std::uint64_t prod = 0;
    std::uint64_t cons = 0;
    std::vector<Descriptor> slots;
  };
  const RingCopy& copy(Copy c) const { return c == Copy::Host ? host_ : nic_; }
  RingCopy& copy(Copy c) { return c == Copy::Host ? host_ : nic_; }
  // After an index update: traced, the occupancy sampled, the conditions checked. Inline: it
  // runs on every update, and outside the trace window (or with the trace off) it only takes the
  // record's id, as the recorder would keep nothing there.
  void updated(Copy c) {
    if (ctx_->trace.keeps(ctx_->now())) {
      trace_copy(c);
    } else {
      ctx_->trace.skip(ctx_->now());
    }
    if (c == producer_) occupancy_.set(ctx_->now(), pending(producer_));
    if (!holds()) violated();
  }
  void violated();  // stops the run with the condition that failed
  void trace_copy(Copy c);

  SimContext* ctx_;
  unsigned instance_;
  RingId id_;
  std::int64_t size_;
  std::uint64_t mask_;  // size - 1 when the size is a power of two, else 0
  Copy producer_;
  RingCopy host_, nic_;
  LevelHistogram occupancy_;
};

const char* ring_name(RingId id);

}  // namespace nicsim
