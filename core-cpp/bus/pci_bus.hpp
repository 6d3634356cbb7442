// A cycle-accounted PCI / PCI-X bus (thesis §4.1.2 and §4.2; timing rules from pci_facts).
//
// Masters ask for the bus through the narrow IoBus port; each has one REQ# line, so a request
// is always accepted and bus_done follows once every byte has moved, however many tenures that
// takes (target disconnects at the host bridge's prefetch boundary, Retry while main memory is
// slow, the latency timer cutting a long burst, PCI-X split reads). A request that finds the bus
// owned is "bus busy": it waits for the round-robin arbiter.
//
// Every bus cycle is attributed to exactly one category (data by payload class, arbitration,
// address, wait/stall, retry, turnaround, or idle), so the categories always sum to the elapsed
// cycles. Each tenure's phases go into the trace for the waveform view.
#pragma once
#include <array>
#include <deque>
#include <utility>
#include <vector>

#include "bus/bus.hpp"
#include "scenario/config.hpp"
#include "sim/context.hpp"
#include "sim/divider.hpp"

namespace nicsim {

// The fixed model's cycles for one transaction of `bytes`: overhead + ceil(bytes / width) (the
// TCP offload paper §4.4: 4 + (bytes + 7) / 8 on 64-bit PCI-X). plan_fixed charges the same.
inline std::int64_t fixed_model_cycles(const BusConfig& cfg, std::uint64_t bytes) {
  const std::uint64_t width =
      cfg.width_bits > 0 ? static_cast<std::uint64_t>(cfg.width_bits) / 8 : 1;
  return cfg.overhead_cycles + static_cast<std::int64_t>((bytes + width - 1) / width);
}

using CycleCounts = std::array<std::uint64_t, static_cast<std::size_t>(BusCategory::Count)>;

class PciBus final : public IoBus, private EventHandler {
 public:
  PciBus(SimContext* ctx, const BusConfig& cfg);
  bool try_start(const BusTransaction& txn, BusMaster* master) override;
  Time busy_total(Time now) const override;
  Time data_total(Time now) const override;
  std::uint64_t transactions() const override { return tenures_; }
  std::uint64_t refusals() const override { return busy_requests_; }
  CycleCounts cycles_at(Time t) const override;
  Time cycle() const override { return cycle_; }

 private:
  struct Request {
    BusTransaction txn;
    std::uint32_t done = 0;  // bytes moved so far
    // PCI-X split completions (completer port): the requesting port and the bytes returned.
    int origin = -1;
    std::uint32_t bytes = 0;
  };
  struct Port {
    BusMaster* master = nullptr;  // nullptr: the host bridge completing PCI-X split reads
    Component component = Component::Bus;
    unsigned instance = 0;
    bool requesting = false;
    Time ready = 0;  // REQ# (re)asserted at
    Request req;
    std::deque<Request> completions;  // completer port only
  };
  // A tenure's phases are contiguous: each starts where the one before ended (the first at
  // segments_start_), so only their lengths are kept.
  struct Segment {
    std::int64_t cycles;
    BusCategory category;
  };
  enum class Outcome { Moved, Retried, SplitRequested, Completed };
  struct Tenure {
    int port = -1;
    std::uint32_t txn_id = 0;
    Time address_at = 0;
    Time data_at = 0;  // first data phase
    std::int64_t data_cycles = 0;
    std::uint32_t bytes = 0;  // bytes this tenure moves
    Time end = 0;             // after its idle cycle
    Outcome outcome = Outcome::Moved;
    bool cut = false;               // the latency timer already ended it early
    RecordId grant = 0, start = 0;  // its BusGrant and BusTxnStart records
  };

  // A tenure's plan is a pure function of its request's shape and the bus state it reads (the
  // PCI protocol, the other requesters, a delayed-transaction entry). Most tenures repeat one of
  // a few shapes (a DMA engine's descriptor and data transfers, the mailbox writes), so a plan
  // that touches no trace record is kept per port and shape and replayed: computed once per
  // change instead of once per tenure. Only plain PCI tenures that move their data are kept.
  static constexpr int kPlannedSegments = 8;
  // Chosen: a shape that wasted ten plans in a row is tried again once every 1,024 misses.
  static constexpr std::uint32_t kMaxBackoff = 1023;
  // Several plans per shape, told apart by the request's bytes (remaining and done): while
  // another NIC waits, the latency timer cuts a full-sized segment's fetch into seven to nine
  // bursts, each with a plan of its own, and its header fetch has another. Chosen: 16 holds
  // those ten and the recent odd sizes (a file's last segment).
  static constexpr int kPlansPerShape = 16;  // hint_of's 4 bits
  struct PlannedTenure {
    bool read = false;
    std::uint32_t header_bytes = 0, app_header_bytes = 0;
    int segment_count = 0;
    int segments_before_start = 0;  // phases recorded before the BusTxnStart (arbitration)
    Time address_offset = 0, data_offset = 0, end_offset = 0;  // from the tenure's start
    std::int64_t data_cycles = 0;
    std::uint32_t bytes = 0;
    bool cut = false;
    std::array<Segment, kPlannedSegments> segments;
    // Replays add to the totals in bulk, not segment by segment: its replays since it was
    // kept, and how many of them are in the totals. Mutable: adding them to the totals (as
    // cycles_at reads them) changes no count it reads.
    std::uint64_t replays = 0;
    mutable std::uint64_t added = 0;
  };
  // The plans of one shape. A plan's key is its request's remaining and done bytes (kNoPlan:
  // none; remaining + done fit 32 bits, so no key has both halves all ones); keys apart from
  // the plans, so that a miss reads two cache lines, not sixteen plans.
  static constexpr std::uint64_t kNoPlan = ~std::uint64_t{0};
  static std::uint64_t plan_key(std::uint32_t remaining, std::uint32_t done) {
    return static_cast<std::uint64_t>(remaining) << 32 | done;
  }
  // Fibonacci hashing of a key to one of the ways' hints.
  static std::size_t hint_of(std::uint64_t key) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 60);
  }
  struct ShapePlans {
    std::array<std::uint64_t, kPlansPerShape> keys;
    // The plans replayed since the totals were last read (listed in replayed_plans_); the
    // clock that picks a plan to replace passes over them.
    mutable std::array<bool, kPlansPerShape> listed{};
    int hand = 0;
    // The way last found for a key, by a hash of the key: one probe instead of a scan of up to
    // sixteen keys on most replays (a web server's shapes use most of their ways). A hint only:
    // the key at that way is compared, and the scan runs when it differs.
    std::array<std::uint8_t, kPlansPerShape> way_of{};
    int first = -1;  // its first plan in planned_ (room for them is made at the first kept)
    // A shape whose plans are replaced before any replay (a web server's files of every size
    // end in odd sizes) is kept again only after `skip` more misses, doubling each time, so
    // that keeping costs little where replaying does not pay.
    std::uint32_t skip = 0, backoff = 0;
    ShapePlans() { keys.fill(kNoPlan); }
  };
  // Shapes per port: by purpose, with or without arbitration cycles, with or without another
  // requester (the latency timer).
  static constexpr int kShapesPerPort = kPurposeCount * 4;
  static int shape_of(int port, const Request& r, bool arbitrate_cycles, bool other) {
    return port * kShapesPerPort + static_cast<int>(r.txn.purpose) * 4 +
           (arbitrate_cycles ? 2 : 0) + (other ? 1 : 0);
  }
  [[gnu::always_inline]] bool replay(int shape, const Request& r, Time start);
  void keep_plan(int shape, const Request& r, Time start, int segments_before_start);
  bool worth_keeping(int shape) {
    ShapePlans& k = shapes_[static_cast<std::size_t>(shape)];
    if (k.skip == 0) return true;
    --k.skip;
    return false;
  }
  // A plan's replays join the totals when the totals are read or the plan is replaced.
  void add_replays(const PlannedTenure& k) const {
    const std::uint64_t n = k.replays - k.added;
    if (n == 0) return;
    for (int i = 0; i < k.segment_count; ++i) {
      const Segment& s = k.segments[static_cast<std::size_t>(i)];
      totals_[static_cast<std::size_t>(s.category)] += n * static_cast<std::uint64_t>(s.cycles);
    }
    k.added = k.replays;
  }
  // The current tenure's phases: its own, or those of the plan it replays.
  const Segment* segments() const {
    return replayed_ >= 0 ? planned_[static_cast<std::size_t>(replayed_)].segments.data()
                          : segments_.data();
  }

  void fire(std::uint32_t tag) override;
  int port_of(BusMaster* m, const BusTransaction& txn) {
    // The master that asked last usually asks again (a DMA engine's bursts, its next DMA), or
    // the one before it (a NIC's DMA engine and the host bridge's mailbox writes take turns).
    if (m == last_master_) return last_port_;
    std::swap(last_master_, previous_master_);
    std::swap(last_port_, previous_port_);
    if (m == last_master_) return last_port_;
    last_master_ = m;
    for (std::size_t i = 0; i < ports_.size(); ++i) {
      if (ports_[i].master == m) return last_port_ = static_cast<int>(i);
    }
    return last_port_ = add_port(m, txn);
  }
  int add_port(BusMaster* m, const BusTransaction& txn);
  Time edge(Time t) const { return cycles_up(t) * cycle_; }
  // t / cycle_ (a multiply, not a divide: see sim/divider.hpp).
  std::int64_t whole_cycles(Time t) const { return per_cycle_.quotient(t); }
  // The cycles that cover t (t / cycle_ rounded up).
  std::int64_t cycles_up(Time t) const { return whole_cycles(t + cycle_ - 1); }
  // bus_was_idle false: called as a tenure ends, at its end (a clock edge). The test for
  // nothing to do is inline: a tenure that ends with no other request calls it for nothing.
  void arbitrate(Time at, bool bus_was_idle) {
    if (owned_ || requesting_count_ == 0) return;  // nothing to grant, no wake to plan
    grant_or_wake(at, bus_was_idle);
  }
  void grant_or_wake(Time at, bool bus_was_idle);
  // Inlined into grant_or_wake, its one caller: a replayed plan, else plan_new.
  [[gnu::always_inline]] void plan(int port, Time start, bool arbitrate_cycles);
  // A tenure planned phase by phase (and kept when it may be replayed). Out of line: nearly
  // every tenure replays a plan, and with this path inline the replays paid its register saves
  // and stack frame.
  [[gnu::noinline]] void plan_new(int port, Time start, bool arbitrate_cycles, int shape);
  void plan_fixed(Port& p, Time t);
  // Inlined where they are called (plan_pci only by plan_new): a tenure runs each once, and the
  // calls cost as much as their bodies on the short tenures of small packets.
  [[gnu::always_inline]] void plan_pci(Port& p, Time t);
  void plan_pcix(Port& p, Time t);
  // One planned phase: its cycles are accounted, and (when the trace keeps records) it is
  // recorded. Inline: a tenure plans about eight of them (the fault is out of line). Forced:
  // clang (emcc) kept it out of line in plan_pci, which also put `t` in wasm's stack memory.
  [[gnu::always_inline]] void add(Time& t, std::int64_t cycles, BusPhase phase, BusCategory cat,
                                  const Port& p) {
    if (cycles <= 0) return;
    if (segment_count_ == kMaxSegments) {
      too_many_phases();
      return;
    }
    segments_[segment_count_++] = Segment{cycles, cat};
    totals_[static_cast<std::size_t>(cat)] += static_cast<std::uint64_t>(cycles);
    if (ctx_->trace.keeps(t)) {
      record_phase(t, cycles, phase, cat, p);
    } else {
      ctx_->trace.skip_future();
    }
    t += cycles * cycle_;
  }
  void record_phase(Time t, std::int64_t cycles, BusPhase phase, BusCategory cat, const Port& p);
  void too_many_phases();
  // REQ# (re)asserted or granted: the count of requesting ports follows the flags.
  void set_requesting(Port& p, bool on) {
    requesting_count_ += static_cast<int>(on) - static_cast<int>(p.requesting);
    p.requesting = on;
  }
  // These two take the time by value and return it advanced: a reference would keep the
  // caller's `t` in memory (wasm's shadow stack) across every call.
  [[gnu::always_inline]] Time add_data(Time t, const Request& r, std::uint32_t bytes,
                                       const Port& p);
  // Inlined into fire, its one caller.
  [[gnu::always_inline]] void finish_tenure();
  // A request found the bus owned: the latency timer may cut the burst short. The checks are
  // inline (a request that finds the bus owned is common; a cut is rare).
  void maybe_cut_for(int requester) {
    (void)requester;
    if (cfg_.model != BusModel::Pci || cfg_.protocol != BusProtocol::Pci) return;
    if (cur_.cut || cur_.outcome != Outcome::Moved || cur_.data_cycles == 0) return;
    // The timer expires no earlier than address + latency_timer cycles: past the start of the
    // last data phase, that phase completes anyway and there is nothing to cut (the usual case
    // for short bursts; no division needed to see it).
    const Time earliest_expiry = cur_.address_at + cfg_.latency_timer * cycle_;
    if (earliest_expiry > cur_.data_at + (cur_.data_cycles - 1) * cycle_) return;
    cut_for_request(earliest_expiry);
  }
  void cut_for_request(Time earliest_expiry);
  [[gnu::always_inline]] Time add_bridge_waits(Time t, std::uint32_t bytes, const Port& p);
  [[gnu::always_inline]] std::uint32_t latency_timer_bytes(std::uint32_t bytes, Time data_at);
  BusCategory data_category(const Request& r, std::uint32_t offset) const;
  bool any_other_requesting(int port) const {
    return requesting_count_ > (ports_[static_cast<std::size_t>(port)].requesting ? 1 : 0);
  }
  void record_request(const Port& p, Time at) {
    if (ctx_->trace.keeps(at)) {
      record_request_kept(p, at);
    } else {
      ctx_->trace.skip_future();  // the id only: nothing would be kept
    }
  }
  void record_request_kept(const Port& p, Time at);

  SimContext* ctx_;
  BusConfig cfg_;
  Time cycle_;
  Divider per_cycle_;  // by cycle_
  std::uint32_t width_;
  int width_shift_ = -1;  // log2(width_) when it is a power of two (32- and 64-bit buses)
  // Data phases that carry `bytes` (a shift, not a division, on the usual widths).
  std::uint32_t phases_for(std::uint32_t bytes) const {
    return width_shift_ >= 0 ? (bytes + width_ - 1) >> width_shift_ : (bytes + width_ - 1) / width_;
  }
  std::vector<Port> ports_;
  int port_count_ = 0;  // ports_.size(), kept: that divides by a Port's size (no power of two)
  std::vector<ShapePlans> shapes_;      // kShapesPerPort for each port
  std::vector<PlannedTenure> planned_;  // kPlansPerShape for each shape that kept a plan
  // The plans replayed since cycles_at last added their replays, each once, as shape *
  // kPlansPerShape + its way: it adds those, not every plan kept.
  mutable std::vector<int> replayed_plans_;
  int replayed_ = -1;  // the plan the current tenure replays, or -1
  // port_of's last two answers (ports are never removed); port 0, the completer, has no master.
  BusMaster* last_master_ = nullptr;
  BusMaster* previous_master_ = nullptr;
  int last_port_ = 0;
  int previous_port_ = 0;
  int completer_ = -1;
  int last_owner_ = -1;
  bool owned_ = false;
  Tenure cur_;
  // The current tenure's phases, for exact accounting at any time: at most arbitration,
  // address, dual address, turnaround or attribute, wait, three data runs, bridge waits and
  // idle, so a fixed array (no allocation per tenure).
  static constexpr int kMaxSegments = 16;
  std::array<Segment, kMaxSegments> segments_;
  int segment_count_ = 0;
  Time segments_start_ = 0;       // where the first phase starts
  int requesting_count_ = 0;      // ports with REQ# asserted
  Time retry_gap_;                // cfg_.retry_gap()
  mutable CycleCounts totals_{};  // every planned segment so far (see add_replays)
  std::uint32_t end_generation_ = 0;
  bool wake_pending_ = false;
  Time wake_at_ = 0;
  struct DelayedEntry {
    int port;
    Time ready;
  };
  std::vector<DelayedEntry> delayed_;
  // The port's delayed-transaction entry, or nullptr (a port has at most one: one is made only
  // when it has none).
  DelayedEntry* delayed_entry(int port) {
    for (DelayedEntry& e : delayed_)
      if (e.port == port) return &e;
    return nullptr;
  }
  std::deque<Request> splits_;  // PCI-X reads waiting for main memory, in order
  std::uint32_t next_txn_ = 1;
  std::uint64_t tenures_ = 0;
  std::uint64_t busy_requests_ = 0;
};

}  // namespace nicsim
