#include "bus/pci_bus.hpp"

#include <algorithm>
#include <limits>

namespace nicsim {

namespace {
enum Tag : std::uint32_t { kTenureEnd = 1, kWake = 2, kSplitReady = 3 };
constexpr Time kNever = std::numeric_limits<Time>::max();
std::uint16_t id_of(Component c, unsigned instance) { return component_id(c, instance); }
}  // namespace

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

PciBus::PciBus(SimContext* ctx, const BusConfig& cfg)
    : ctx_(ctx),
      cfg_(cfg),
      cycle_(cfg.cycle()),
      per_cycle_(cycle_),
      width_(static_cast<std::uint32_t>(cfg.width_bits / 8)),
      retry_gap_(cfg.retry_gap()) {
  if (width_ != 0 && (width_ & (width_ - 1)) == 0) {
    width_shift_ = 0;
    while ((1u << width_shift_) < width_) ++width_shift_;
  }
  // Port 0 is the host bridge completing PCI-X split reads (it is parked, like the bridge).
  Port completer;
  completer.component = Component::HostBridge;
  completer.instance = 1;
  ports_.push_back(completer);
  port_count_ = 1;
  shapes_.resize(ports_.size() * kShapesPerPort);
  completer_ = 0;
}

int PciBus::add_port(BusMaster* m, const BusTransaction& txn) {
  Port p;
  p.master = m;
  // A NIC's DMA engine is one bus master for both its channels.
  p.component = txn.master == Component::DmaWrite || txn.master == Component::DmaRead
                    ? Component::Nic
                    : txn.master;
  p.instance = txn.instance;
  ports_.push_back(p);
  port_count_ = static_cast<int>(ports_.size());
  shapes_.resize(ports_.size() * kShapesPerPort);
  return static_cast<int>(ports_.size() - 1);
}

bool PciBus::try_start(const BusTransaction& txn, BusMaster* master) {
  const int i = port_of(master, txn);
  Port& p = ports_[static_cast<std::size_t>(i)];
  if (p.requesting || (owned_ && cur_.port == i)) {
    ctx_->fail("bus: a master asked for the bus while its request was still pending");
    return true;
  }
  set_requesting(p, true);
  p.ready = ctx_->now();
  // Field by field: a whole Request built on the stack and copied made its wide loads wait
  // for the narrow stores that built it (a store-forwarding stall on every request).
  p.req.txn = txn;
  p.req.done = 0;
  p.req.origin = -1;
  p.req.bytes = 0;
  record_request(p, ctx_->now());
  if (owned_) {
    // REQ# waits while another master owns the bus: "bus busy".
    ++busy_requests_;
    ctx_->record(Component::Bus, rec::BusRefused().master(id_of(p.component, p.instance)));
    maybe_cut_for(i);
  } else {
    arbitrate(ctx_->now(), true);
  }
  return true;
}

void PciBus::record_request_kept(const Port& p, Time at) {
  // REQ# asserted (again): a = the master, b = the packet its transaction carries.
  const Request& r = &p == &ports_[static_cast<std::size_t>(completer_)] && !p.completions.empty()
                         ? p.completions.front()
                         : p.req;
  ctx_->trace.record_future(
      at, component_id(Component::Bus),
      rec::BusRequest().master(id_of(p.component, p.instance)).packet(r.txn.packet), r.txn.cause);
}

void PciBus::grant_or_wake(Time at, bool bus_was_idle) {
  const int n = port_count_;
  Time earliest = kNever;
  // Round robin: the ports after the last owner first.
  int i = last_owner_ < 0 ? n - 1 : last_owner_;
  for (int k = 1; k <= n; ++k) {
    if (++i == n) i = 0;
    const Port& p = ports_[static_cast<std::size_t>(i)];
    if (!p.requesting) continue;
    if (p.ready <= at) {
      // The bus is parked on the host bridge: it needs no arbitration; others pay REQ#→GNT#
      // unless the grant was decided while the previous tenure ran (hidden arbitration).
      const bool parked = p.component == Component::HostBridge;
      // A tenure ends on a clock edge (it starts on one and lasts whole cycles), so the grant
      // at its end needs no rounding (and no division).
      plan(i, bus_was_idle ? edge(at) : at, bus_was_idle && !parked && cfg_.model == BusModel::Pci);
      return;
    }
    earliest = std::min(earliest, p.ready);
  }
  if (earliest != kNever && (!wake_pending_ || edge(earliest) < wake_at_)) {
    wake_pending_ = true;
    wake_at_ = edge(earliest);
    ctx_->at(wake_at_, this, kWake);
  }
}

void PciBus::record_phase(Time t, std::int64_t cycles, BusPhase phase, BusCategory cat,
                          const Port& p) {
  ctx_->trace.record_future(t, component_id(Component::Bus),
                            rec::BusPhase()
                                .master(id_of(p.component, p.instance))
                                .phase(phase)
                                .cycles(static_cast<std::uint32_t>(cycles))
                                .category(cat)
                                .txn(cur_.txn_id),
                            cur_.start ? cur_.start : cur_.grant);
}

void PciBus::too_many_phases() { ctx_->fail("bus: too many phases in one tenure"); }

BusCategory PciBus::data_category(const Request& r, std::uint32_t offset) const {
  switch (r.txn.purpose) {
    case Purpose::SendDataFetch:
    case Purpose::RecvDataWrite:
      if (offset < r.txn.header_bytes) return BusCategory::NetworkHeaders;
      return offset < r.txn.header_bytes + r.txn.app_header_bytes ? BusCategory::AppHeaders
                                                                  : BusCategory::Content;
    case Purpose::DiskTransfer:
      return BusCategory::OtherDevices;
    default:
      return BusCategory::Descriptors;
  }
}

inline Time PciBus::add_data(Time t, const Request& r, std::uint32_t bytes, const Port& p) {
  cur_.data_at = t;
  cur_.bytes = bytes;
  const std::uint32_t phases = phases_for(bytes);
  cur_.data_cycles = phases;
  // Runs of data phases of one payload class (a phase belongs to the class of its first byte).
  // A packet's classes come in order (network headers, application headers, content), so the
  // runs end where the phases reach each boundary.
  if (r.txn.purpose != Purpose::SendDataFetch && r.txn.purpose != Purpose::RecvDataWrite) {
    add(t, phases, BusPhase::Data, data_category(r, r.done), p);
    return t;
  }
  // Phases k < phases whose first byte r.done + k * width_ is before `limit`.
  auto phases_before = [&](std::uint32_t limit) -> std::uint32_t {
    if (limit <= r.done) return 0;
    return std::min(phases, phases_for(limit - r.done));
  };
  const std::uint32_t network = phases_before(r.txn.header_bytes);
  const std::uint32_t headers =
      std::max(network, phases_before(r.txn.header_bytes + r.txn.app_header_bytes));
  add(t, network, BusPhase::Data, BusCategory::NetworkHeaders, p);
  add(t, headers - network, BusPhase::Data, BusCategory::AppHeaders, p);
  add(t, phases - headers, BusPhase::Data, BusCategory::Content, p);
  return t;
}

inline Time PciBus::add_bridge_waits(Time t, std::uint32_t bytes, const Port& p) {
  // The host bridge streams main memory onto the bus at most bridge_read_mbps; a faster bus
  // gets wait states (TRDY# deasserted) between data phases. the thesis §4.2: the NASA server's
  // bus at 66 MHz is 92% busy with about 30% content and 62% overhead, for 5% more content than
  // at 33 MHz; §4.7: memory bandwidth, not the I/O bus, limits the server. The waits are shown
  // as one run after the data phases; on the bus they are spread between them.
  if (cfg_.bridge_read_mbps <= 0 || bytes == 0) return t;
  const Time stream = static_cast<Time>(bytes) * 1000000 / cfg_.bridge_read_mbps;  // MB/s = B/µs
  const Time data = static_cast<Time>(cur_.data_cycles) * cycle_;
  if (stream <= data) return t;
  add(t, cycles_up(stream - data), BusPhase::Wait, BusCategory::WaitCycles, p);
  return t;
}

inline std::uint32_t PciBus::latency_timer_bytes(std::uint32_t bytes, Time data_at) {
  // Another master already wants the bus: GNT# is removed at once, and the burst must end at
  // the data phase in progress when the latency timer expires (pci_facts §3).
  if (!any_other_requesting(cur_.port)) return bytes;
  const Time expiry = cur_.address_at + cfg_.latency_timer * cycle_;
  const std::int64_t phases = expiry <= data_at ? 1 : cycles_up(expiry - data_at);
  const std::uint64_t limit =
      static_cast<std::uint64_t>(std::max<std::int64_t>(1, phases)) * width_;
  if (limit >= bytes) return bytes;
  cur_.cut = true;
  return static_cast<std::uint32_t>(limit);
}

inline void PciBus::plan(int port, Time start, bool arbitrate_cycles) {
  owned_ = true;
  last_owner_ = port;
  Port& p = ports_[static_cast<std::size_t>(port)];
  set_requesting(p, false);
  segment_count_ = 0;
  segments_start_ = start;
  replayed_ = -1;
  // A replay sets every other field of the tenure; a plan starts from a blank one.
  const std::uint32_t txn_id = next_txn_++;
  cur_.port = port;
  cur_.txn_id = txn_id;
  ++tenures_;
  const Request& r = port == completer_ ? p.completions.front() : p.req;
  // Plain PCI only (the completer port serves PCI-X alone).
  const bool plain_pci = cfg_.model == BusModel::Pci && cfg_.protocol == BusProtocol::Pci;
  const int shape =
      plain_pci ? shape_of(port, r, arbitrate_cycles, any_other_requesting(port)) : -1;
  if (shape < 0 || !replay(shape, r, start)) plan_new(port, start, arbitrate_cycles, shape);
  ++end_generation_;
  ctx_->at(cur_.end, this, kTenureEnd | (end_generation_ << 4));
}

void PciBus::plan_new(int port, Time start, bool arbitrate_cycles, int shape) {
  Port& p = ports_[static_cast<std::size_t>(port)];
  const Request& r = port == completer_ ? p.completions.front() : p.req;
  const std::uint32_t txn_id = cur_.txn_id;
  cur_ = Tenure{};
  cur_.port = port;
  cur_.txn_id = txn_id;
  const std::size_t delayed_before = delayed_.size();
  Time t = start;
  cur_.grant = ctx_->trace.record_future(
      t, component_id(Component::Bus),
      rec::BusGrant().master(id_of(p.component, p.instance)).txn(cur_.txn_id), r.txn.cause);
  if (arbitrate_cycles)
    add(t, cfg_.arbitration_cycles, BusPhase::Arbitration, BusCategory::ArbitrationCycles, p);
  const int segments_before_start = segment_count_;
  cur_.address_at = t;
  const std::uint32_t remaining = port == completer_ ? r.bytes : r.txn.bytes - r.done;
  cur_.start = ctx_->trace.record_future(t, component_id(Component::Bus),
                                         rec::BusTxnStart()
                                             .txn(cur_.txn_id)
                                             .master(id_of(r.txn.master, r.txn.instance))
                                             .bytes(remaining)
                                             .purpose(r.txn.purpose)
                                             .packet(r.txn.packet),
                                         cur_.grant);
  if (cfg_.model == BusModel::Fixed) {
    plan_fixed(p, t);
  } else if (cfg_.protocol == BusProtocol::PciX) {
    plan_pcix(p, t);
  } else {
    plan_pci(p, t);
  }
  // Kept when it moved data and left the delayed-transaction entries as they were (a read
  // that got its data took a fresh entry and freed it).
  if (shape >= 0 && cur_.outcome == Outcome::Moved && delayed_.size() == delayed_before &&
      segment_count_ <= kPlannedSegments && worth_keeping(shape))
    keep_plan(shape, r, start, segments_before_start);
}

inline bool PciBus::replay(int shape, const Request& r, Time start) {
  ShapePlans& sp = shapes_[static_cast<std::size_t>(shape)];
  const std::uint64_t key = plan_key(r.txn.bytes - r.done, r.done);
  const std::size_t hint = hint_of(key);
  int way = sp.way_of[hint];
  if (sp.keys[static_cast<std::size_t>(way)] != key) {
    way = 0;
    while (sp.keys[static_cast<std::size_t>(way)] != key) {
      if (++way == kPlansPerShape) return false;
    }
    sp.way_of[hint] = static_cast<std::uint8_t>(way);
  }
  const int index = sp.first + way;
  PlannedTenure& k = planned_[static_cast<std::size_t>(index)];
  if (k.read != r.txn.read || k.header_bytes != r.txn.header_bytes ||
      k.app_header_bytes != r.txn.app_header_bytes)
    return false;
  const Time end = start + k.end_offset;
  // Its records would all be ids only: none falls inside a kept trace window.
  if (ctx_->trace.keeping() && end >= ctx_->trace.start() && start <= ctx_->trace.end())
    return false;
  if (r.txn.read && r.txn.purpose != Purpose::RegisterRead) {
    // The plan was a DMA read that found no delayed-transaction entry and a free slot.
    if (static_cast<std::int64_t>(delayed_.size()) >= cfg_.delayed_slots) return false;
    if (delayed_entry(cur_.port) != nullptr) return false;
  }
  // The ids its records take, in the order plan() takes them: the grant, the phases before
  // the transaction's start, the start, then the rest.
  cur_.grant = ctx_->trace.skip_future();
  for (int i = 0; i < k.segments_before_start; ++i) ctx_->trace.skip_future();
  cur_.start = ctx_->trace.skip_future();
  for (int i = k.segments_before_start; i < k.segment_count; ++i) ctx_->trace.skip_future();
  segment_count_ = k.segment_count;
  replayed_ = index;
  if (!sp.listed[static_cast<std::size_t>(way)]) {
    sp.listed[static_cast<std::size_t>(way)] = true;
    replayed_plans_.push_back(shape * kPlansPerShape + way);
  }
  ++k.replays;
  cur_.address_at = start + k.address_offset;
  cur_.data_at = start + k.data_offset;
  cur_.data_cycles = k.data_cycles;
  cur_.bytes = k.bytes;
  cur_.cut = k.cut;
  cur_.outcome = Outcome::Moved;
  cur_.end = end;
  return true;
}

void PciBus::keep_plan(int shape, const Request& r, Time start, int segments_before_start) {
  ShapePlans& sp = shapes_[static_cast<std::size_t>(shape)];
  const std::uint64_t key = plan_key(r.txn.bytes - r.done, r.done);
  if (sp.first < 0) {
    sp.first = static_cast<int>(planned_.size());
    planned_.resize(planned_.size() + kPlansPerShape);
  }
  // The plan of the same bytes (its headers differed), else the clock's next victim.
  int way = 0;
  while (way < kPlansPerShape && sp.keys[static_cast<std::size_t>(way)] != key) ++way;
  if (way == kPlansPerShape) {
    // From the clock's hand, the first way free or not replayed since the totals were last
    // read (the hand's own when every plan was).
    way = sp.hand;
    for (int n = 0, w = sp.hand; n < kPlansPerShape; ++n, w = (w + 1) % kPlansPerShape) {
      if (sp.keys[static_cast<std::size_t>(w)] == kNoPlan ||
          !sp.listed[static_cast<std::size_t>(w)]) {
        way = w;
        break;
      }
    }
    sp.hand = (way + 1) % kPlansPerShape;
  }
  PlannedTenure& k = planned_[static_cast<std::size_t>(sp.first + way)];
  if (sp.keys[static_cast<std::size_t>(way)] != kNoPlan) {
    // The replays of the plan it replaces join the totals; a plan never replayed was kept in
    // vain.
    add_replays(k);
    if (k.replays == 0) {
      sp.backoff = std::min<std::uint32_t>(2 * sp.backoff + 1, kMaxBackoff);
      sp.skip = sp.backoff;
    } else {
      sp.backoff = 0;
    }
    k.replays = 0;
    k.added = 0;
  }
  sp.keys[static_cast<std::size_t>(way)] = key;
  sp.way_of[hint_of(key)] = static_cast<std::uint8_t>(way);
  k.read = r.txn.read;
  k.header_bytes = r.txn.header_bytes;
  k.app_header_bytes = r.txn.app_header_bytes;
  k.segment_count = segment_count_;
  k.segments_before_start = segments_before_start;
  for (int i = 0; i < segment_count_; ++i)
    k.segments[static_cast<std::size_t>(i)] = segments_[static_cast<std::size_t>(i)];
  k.address_offset = cur_.address_at - start;
  k.data_offset = cur_.data_at - start;
  k.end_offset = cur_.end - start;
  k.data_cycles = cur_.data_cycles;
  k.bytes = cur_.bytes;
  k.cut = cur_.cut;
}

void PciBus::plan_fixed(Port& p, Time t) {
  // cycles = overhead + ceil(bytes / width); with 4 overhead cycles on 64-bit PCI-X this is the
  // cost model of the TCP offload paper §2. The overhead is shown as address, waits and the idle
  // cycle.
  const Request& r = p.req;
  const std::int64_t o = cfg_.overhead_cycles;
  if (o >= 1) add(t, 1, BusPhase::Address, BusCategory::AddressCycles, p);
  if (o >= 3) add(t, o - 2, BusPhase::Wait, BusCategory::WaitCycles, p);
  t = add_data(t, r, r.txn.bytes - r.done, p);
  if (o >= 2) add(t, 1, BusPhase::Idle, BusCategory::TurnaroundCycles, p);
  cur_.outcome = Outcome::Moved;
  cur_.end = t;
}

inline void PciBus::plan_pci(Port& p, Time t) {
  Request& r = p.req;
  const std::uint32_t remaining = r.txn.bytes - r.done;
  const std::int64_t address_cycles = cfg_.dual_address ? 2 : 1;
  if (r.txn.purpose == Purpose::RegisterRead) {
    // The CPU reads a NIC register: the NIC is the target and answers after its decode and
    // wait states; no main memory is involved (pci_facts §2).
    add(t, 1, BusPhase::Address, BusCategory::AddressCycles, p);
    add(t, 1, BusPhase::Turnaround, BusCategory::TurnaroundCycles, p);
    add(t, cfg_.target_wait_cycles, BusPhase::Wait, BusCategory::WaitCycles, p);
    t = add_data(t, r, remaining, p);
    add(t, 1, BusPhase::Idle, BusCategory::TurnaroundCycles, p);
    cur_.outcome = Outcome::Moved;
    cur_.end = t;
    return;
  }
  if (!r.txn.read) {
    // Writes (DMA writes are posted by the host bridge; PIO writes go to a NIC register): the
    // initiator drives address and data, so no turnaround.
    add(t, 1, BusPhase::Address, BusCategory::AddressCycles, p);
    if (cfg_.dual_address) add(t, 1, BusPhase::DualAddress, BusCategory::AddressCycles, p);
    const bool pio = p.component == Component::HostBridge;
    add(t, pio ? cfg_.target_wait_cycles : cfg_.write_wait_cycles, BusPhase::Wait,
        BusCategory::WaitCycles, p);
    std::uint32_t bytes = remaining;
    if (!pio && cfg_.write_buffer_bytes > 0) {
      // The bridge posts at most a bufferful, then disconnects while it drains to memory.
      const std::uint32_t buffer = static_cast<std::uint32_t>(cfg_.write_buffer_bytes);
      bytes = std::min(bytes, buffer - r.done % buffer);
    }
    t = add_data(t, r, latency_timer_bytes(bytes, t), p);
    add(t, 1, BusPhase::Idle, BusCategory::TurnaroundCycles, p);
    cur_.outcome = Outcome::Moved;
    cur_.end = t;
    return;
  }
  // A DMA read from main memory: address, turnaround of AD to the target, then the target
  // waits for memory (the stall), unless it would break the initial latency limit: then it
  // answers Retry and completes the read in the background as a delayed transaction.
  const int port = cur_.port;
  DelayedEntry* entry = delayed_entry(port);
  const bool no_slot =
      entry == nullptr && static_cast<std::int64_t>(delayed_.size()) >= cfg_.delayed_slots;
  if (no_slot) {
    // Every delayed-transaction entry is busy: retried at once, not recorded (pci_facts §7).
    add(t, address_cycles, BusPhase::Address, BusCategory::RetryCycles, p);
    add(t, 1, BusPhase::Turnaround, BusCategory::RetryCycles, p);
    add(t, 1, BusPhase::Stop, BusCategory::RetryCycles, p);
    add(t, 1, BusPhase::Idle, BusCategory::RetryCycles, p);
    cur_.outcome = Outcome::Retried;
    cur_.end = t;
    return;
  }
  const Time first_possible = cur_.address_at + (address_cycles + 1) * cycle_;
  if (entry == nullptr) {
    // The stall counts from the earliest data clock: W = ceil(L / T) waits (pci_facts §12.1).
    delayed_.push_back(DelayedEntry{port, first_possible + cfg_.memory_latency});
    entry = &delayed_.back();
  }
  const std::int64_t wait =
      entry->ready > first_possible ? cycles_up(entry->ready - first_possible) : 0;
  const std::int64_t first_data_clock = address_cycles + 1 + wait + 1;  // counting FRAME# as 1
  if (first_data_clock > cfg_.initial_latency_limit) {
    const std::int64_t waits =
        std::max<std::int64_t>(0, cfg_.initial_latency_limit - address_cycles - 2);
    add(t, 1, BusPhase::Address, BusCategory::RetryCycles, p);
    if (cfg_.dual_address) add(t, 1, BusPhase::DualAddress, BusCategory::RetryCycles, p);
    add(t, 1, BusPhase::Turnaround, BusCategory::RetryCycles, p);
    add(t, waits, BusPhase::Wait, BusCategory::RetryCycles, p);
    add(t, 1, BusPhase::Stop, BusCategory::RetryCycles, p);
    add(t, 1, BusPhase::Idle, BusCategory::RetryCycles, p);
    cur_.outcome = Outcome::Retried;
    cur_.end = t;
    return;
  }
  add(t, 1, BusPhase::Address, BusCategory::AddressCycles, p);
  if (cfg_.dual_address) add(t, 1, BusPhase::DualAddress, BusCategory::AddressCycles, p);
  add(t, 1, BusPhase::Turnaround, BusCategory::TurnaroundCycles, p);
  add(t, wait, BusPhase::Wait, BusCategory::WaitCycles, p);
  std::uint32_t bytes = remaining;
  if (cfg_.read_disconnect_bytes > 0) {
    // The bridge prefetches up to its boundary and disconnects there (buffers start aligned).
    const std::uint32_t boundary = static_cast<std::uint32_t>(cfg_.read_disconnect_bytes);
    bytes = std::min(bytes, boundary - r.done % boundary);
  }
  bytes = latency_timer_bytes(bytes, t);
  t = add_data(t, r, bytes, p);
  t = add_bridge_waits(t, bytes, p);
  // The data is delivered: the delayed entry is free (prefetched data past a disconnect is
  // discarded, so the rest of the buffer is a new read).
  delayed_.erase(delayed_.begin() + (entry - delayed_.data()));
  add(t, 1, BusPhase::Idle, BusCategory::TurnaroundCycles, p);
  cur_.outcome = Outcome::Moved;
  cur_.end = t;
}

void PciBus::plan_pcix(Port& p, Time t) {
  // PCI-X (pci_facts §9): an attribute phase follows the address; reads are split: the request
  // gets a Split Response, and the host bridge later sends the data as a Split Completion.
  // A write or a completion costs address + attribute + target decode + data + idle: the four
  // overhead cycles of the TCP offload paper's cost model.
  const bool completion = cur_.port == completer_;
  Request& r = completion ? p.completions.front() : p.req;
  add(t, 1, BusPhase::Address, BusCategory::AddressCycles, p);
  if (cfg_.dual_address) add(t, 1, BusPhase::DualAddress, BusCategory::AddressCycles, p);
  add(t, 1, BusPhase::Attribute, BusCategory::AddressCycles, p);
  add(t, 1, BusPhase::Wait, BusCategory::WaitCycles, p);  // target decode (DEVSEL#)
  if (completion) {
    const Port& origin = ports_[static_cast<std::size_t>(r.origin)];
    Request view = origin.req;  // classes by the original request's offsets
    view.done = r.done;
    t = add_data(t, view, r.bytes, p);
    cur_.outcome = Outcome::Completed;
  } else if (r.txn.read && r.txn.purpose != Purpose::RegisterRead) {
    add(t, 1, BusPhase::SplitResponse, BusCategory::TurnaroundCycles, p);
    cur_.outcome = Outcome::SplitRequested;
  } else {
    t = add_data(t, r, r.txn.bytes - r.done, p);
    cur_.outcome = Outcome::Moved;
  }
  add(t, 1, BusPhase::Idle, BusCategory::TurnaroundCycles, p);
  cur_.end = t;
}

void PciBus::cut_for_request(Time earliest_expiry) {
  const Time removed = std::max(edge(ctx_->now()), cur_.address_at);
  const Time expiry = std::max(removed, earliest_expiry);
  const Time data_end = cur_.data_at + cur_.data_cycles * cycle_;
  // The data phase in progress at expiry completes; at least one phase always does.
  const std::int64_t done_phases =
      std::max<std::int64_t>(1, expiry <= cur_.data_at ? 1 : cycles_up(expiry - cur_.data_at));
  if (done_phases >= cur_.data_cycles) return;
  const Time new_end_of_data = cur_.data_at + done_phases * cycle_;
  if (new_end_of_data >= data_end) return;
  // Undo the planned cycles after the new end of data, then end with the idle cycle.
  // The phases kept are a prefix, ending at the new end of data (the idle cycle follows it).
  if (replayed_ >= 0) {  // the tenure's own phases from here on
    const Segment* planned = segments();
    std::copy(planned, planned + segment_count_, segments_.begin());
    replayed_ = -1;
  }
  std::size_t kept = 0;
  Time s_start = segments_start_;
  for (int k = 0; k < segment_count_; ++k) {
    const Segment s = segments_[static_cast<std::size_t>(k)];
    const Time s_end = s_start + s.cycles * cycle_;
    if (s_start >= new_end_of_data) {
      totals_[static_cast<std::size_t>(s.category)] -= static_cast<std::uint64_t>(s.cycles);
    } else if (s_end > new_end_of_data) {
      const std::int64_t keep = whole_cycles(new_end_of_data - s_start);
      totals_[static_cast<std::size_t>(s.category)] -= static_cast<std::uint64_t>(s.cycles - keep);
      segments_[kept++] = Segment{keep, s.category};
    } else {
      segments_[kept++] = s;
    }
    s_start = s_end;
  }
  segment_count_ = static_cast<int>(kept);
  const std::uint32_t txn = cur_.txn_id;
  ctx_->trace.cancel_future(new_end_of_data - 1, [&](const TraceRecord& r) {
    return r.kind == static_cast<std::uint16_t>(TraceKind::BusPhase) && r.e == txn;
  });
  Port& p = ports_[static_cast<std::size_t>(cur_.port)];
  cur_.bytes =
      std::min<std::uint32_t>(cur_.bytes, static_cast<std::uint32_t>(done_phases) * width_);
  cur_.data_cycles = done_phases;
  cur_.cut = true;
  Time t = new_end_of_data;
  add(t, 1, BusPhase::Idle, BusCategory::TurnaroundCycles, p);
  cur_.end = t;
  ++end_generation_;
  ctx_->at(cur_.end, this, kTenureEnd | (end_generation_ << 4));
}

void PciBus::fire(std::uint32_t tag) {
  switch (tag & 0xF) {
    case kTenureEnd:
      if ((tag >> 4) == (end_generation_ & 0x0FFFFFFF)) finish_tenure();
      return;
    case kWake:
      wake_pending_ = false;
      arbitrate(ctx_->now(), true);
      return;
    case kSplitReady: {
      // Main memory answered a PCI-X read: the host bridge asks for the bus to complete it.
      Port& c = ports_[static_cast<std::size_t>(completer_)];
      c.completions.push_back(splits_.front());
      splits_.pop_front();
      if (!c.requesting && !(owned_ && cur_.port == completer_)) {
        set_requesting(c, true);
        c.ready = ctx_->now();
        record_request(c, ctx_->now());
        if (owned_) {
          ++busy_requests_;
        } else {
          arbitrate(ctx_->now(), true);
        }
      }
      return;
    }
    default:
      ctx_->fail("bus: unknown event");
  }
}

inline void PciBus::finish_tenure() {
  const int port = cur_.port;
  Port& p = ports_[static_cast<std::size_t>(port)];
  owned_ = false;
  segment_count_ = 0;
  replayed_ = -1;
  const BusTransaction& ended = port == completer_ ? p.completions.front().txn : p.req.txn;
  const RecordId end_id = ctx_->record(Component::Bus,
                                       rec::BusTxnEnd()
                                           .txn(cur_.txn_id)
                                           .master(id_of(ended.master, ended.instance))
                                           .bytes(cur_.bytes)
                                           .purpose(ended.purpose)
                                           .packet(ended.packet),
                                       cur_.start);
  int finished = -1;  // the port whose whole transaction is done
  const Time gap = retry_gap_;
  switch (cur_.outcome) {
    case Outcome::Retried:
      set_requesting(p, true);
      p.ready = ctx_->now() + gap;
      record_request(p, p.ready);
      break;
    case Outcome::Moved:
      p.req.done += cur_.bytes;
      if (p.req.done >= p.req.txn.bytes) {
        finished = port;
      } else {
        // Disconnected at a boundary (REQ# drops for the retry gap) or cut by the latency timer.
        set_requesting(p, true);
        p.ready = ctx_->now() + (cur_.cut ? 0 : gap);
        record_request(p, p.ready);
      }
      break;
    case Outcome::SplitRequested: {
      Request split;
      split.txn = p.req.txn;
      split.origin = port;
      split.done = p.req.done;
      split.bytes = std::min<std::uint32_t>(p.req.txn.bytes - p.req.done,
                                            static_cast<std::uint32_t>(cfg_.mmrbc));
      splits_.push_back(split);
      ctx_->at(cur_.address_at + cfg_.memory_latency, this, kSplitReady);
      break;
    }
    case Outcome::Completed: {
      const Request c = p.completions.front();
      p.completions.pop_front();
      if (!p.completions.empty()) {
        set_requesting(p, true);
        p.ready = ctx_->now();
        record_request(p, p.ready);
      }
      Port& origin = ports_[static_cast<std::size_t>(c.origin)];
      origin.req.done += c.bytes;
      if (origin.req.done >= origin.req.txn.bytes) {
        finished = c.origin;
      } else {
        set_requesting(origin, true);  // the next split read request (one outstanding at a time)
        origin.ready = ctx_->now();
        record_request(origin, origin.ready);
      }
      break;
    }
  }
  arbitrate(ctx_->now(), false);
  if (finished >= 0) {
    Port& f = ports_[static_cast<std::size_t>(finished)];
    BusTransaction done = f.req.txn;
    done.end = end_id;
    f.master->bus_done(done);
  }
}

CycleCounts PciBus::cycles_at(Time t) const {
  for (int i : replayed_plans_) {
    const ShapePlans& sp = shapes_[static_cast<std::size_t>(i / kPlansPerShape)];
    const int way = i % kPlansPerShape;
    add_replays(planned_[static_cast<std::size_t>(sp.first + way)]);
    sp.listed[static_cast<std::size_t>(way)] = false;
  }
  replayed_plans_.clear();
  CycleCounts c = totals_;
  const Segment* segs = segments();
  Time start = segments_start_;
  for (int k = 0; k < segment_count_; ++k) {
    const Segment& s = segs[static_cast<std::size_t>(k)];
    const std::int64_t completed =
        t <= start ? 0 : std::min<std::int64_t>(s.cycles, whole_cycles(t - start));
    c[static_cast<std::size_t>(s.category)] -= static_cast<std::uint64_t>(s.cycles - completed);
    start += s.cycles * cycle_;
  }
  std::uint64_t busy = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i != static_cast<std::size_t>(BusCategory::IdleCycles)) busy += c[i];
  }
  const std::uint64_t elapsed = static_cast<std::uint64_t>(whole_cycles(t));
  c[static_cast<std::size_t>(BusCategory::IdleCycles)] = elapsed >= busy ? elapsed - busy : 0;
  return c;
}

Time PciBus::busy_total(Time now) const {
  const CycleCounts c = cycles_at(now);
  std::uint64_t busy = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i != static_cast<std::size_t>(BusCategory::IdleCycles)) busy += c[i];
  }
  return static_cast<Time>(busy) * cycle_;
}

Time PciBus::data_total(Time now) const {
  const CycleCounts c = cycles_at(now);
  std::uint64_t data = 0;
  for (BusCategory k : {BusCategory::Content, BusCategory::NetworkHeaders, BusCategory::AppHeaders,
                        BusCategory::Descriptors, BusCategory::OtherDevices}) {
    data += c[static_cast<std::size_t>(k)];
  }
  return static_cast<Time>(data) * cycle_;
}

}  // namespace nicsim
