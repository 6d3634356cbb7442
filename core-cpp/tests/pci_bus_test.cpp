// Phase sequences of single transactions against hand-computed cycle counts (pci_facts §12),
// the accounting identity, arbitration fairness, and the cost-model formula of the TCP offload
// paper §2.
#include "bus/pci_bus.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace nicsim {
namespace {

// A master that runs a list of transactions one after another.
struct Master final : BusMaster {
  SimContext* ctx = nullptr;
  IoBus* bus = nullptr;
  Component id = Component::DmaRead;
  unsigned instance = 0;
  std::vector<BusTransaction> todo;
  std::vector<Time> done;
  void go() {
    if (todo.empty()) return;
    BusTransaction t = todo.front();
    t.master = id;
    t.instance = instance;
    bus->try_start(t, this);
  }
  void bus_done(const BusTransaction&) override {
    done.push_back(ctx->now());
    todo.erase(todo.begin());
    go();
  }
  void bus_retry() override { go(); }
};

// Two DMA engines (a, and b as the second NIC) and the host bridge (h) on one bus.
struct ThreeMasters {
  Master a, b, h;
  ThreeMasters(SimContext* ctx, IoBus* bus) {
    a.ctx = b.ctx = h.ctx = ctx;
    a.bus = b.bus = h.bus = bus;
    b.instance = 1;
    h.id = Component::HostBridge;
  }
  void go() {
    a.go();
    b.go();
    h.go();
  }
};

BusTransaction read(std::uint32_t bytes, Purpose p = Purpose::SendDataFetch) {
  BusTransaction t;
  t.bytes = bytes;
  t.read = true;
  t.purpose = p;
  return t;
}
BusTransaction write(std::uint32_t bytes, Purpose p = Purpose::RecvDataWrite) {
  BusTransaction t;
  t.bytes = bytes;
  t.read = false;
  t.purpose = p;
  return t;
}

BusConfig pci33() {
  BusConfig c;
  c.model = BusModel::Pci;
  c.protocol = BusProtocol::Pci;
  c.width_bits = 64;
  c.clock_mhz = 33;
  c.arbitration_cycles = 2;
  c.memory_latency = 300 * kNs;
  c.write_wait_cycles = 0;
  c.target_wait_cycles = 2;
  c.initial_latency_limit = 32;
  c.delayed_slots = 1;
  c.retry_gap_cycles = 2;
  c.read_disconnect_bytes = 0;
  c.latency_timer = 64;
  c.mmrbc = 512;
  return c;
}

std::uint64_t at(const CycleCounts& c, BusCategory k) { return c[static_cast<std::size_t>(k)]; }

// Runs one master's list on a fresh bus; returns the cycles by category at the last completion.
struct BusRun {
  std::vector<Time> done;
  CycleCounts cycles{};
  Time cycle = 0;
};
BusRun run_one(const BusConfig& cfg, std::vector<BusTransaction> list,
               Component who = Component::DmaRead) {
  SimContext ctx(1, 0, kSec, 100000);
  PciBus bus(&ctx, cfg);
  Master m;
  m.ctx = &ctx;
  m.bus = &bus;
  m.id = who;
  m.todo = std::move(list);
  m.go();
  ctx.run_until(kSec);
  EXPECT_FALSE(ctx.failed()) << ctx.fault();
  BusRun r;
  r.done = m.done;
  r.cycle = bus.cycle();
  r.cycles = bus.cycles_at(m.done.empty() ? 0 : m.done.back());
  return r;
}

TEST(PciBus, DmaReadOf1500BytesAt33MHz) {
  // pci_facts §12.2: address 1 + turnaround 1 + W=10 (300 ns) + 188 data + idle 1 = 201,
  // plus 2 arbitration clocks for a NIC on an idle bus parked on the host bridge.
  const BusRun r = run_one(pci33(), {read(1500)});
  ASSERT_EQ(r.done.size(), 1u);
  EXPECT_EQ(r.done[0], 203 * 30000);
  EXPECT_EQ(at(r.cycles, BusCategory::ArbitrationCycles), 2u);
  EXPECT_EQ(at(r.cycles, BusCategory::AddressCycles), 1u);
  EXPECT_EQ(at(r.cycles, BusCategory::TurnaroundCycles), 2u);  // AD turnaround + idle
  EXPECT_EQ(at(r.cycles, BusCategory::WaitCycles), 10u);
  EXPECT_EQ(at(r.cycles, BusCategory::Content), 188u);
  EXPECT_EQ(at(r.cycles, BusCategory::IdleCycles), 0u);
}

TEST(PciBus, TheSameStallCostsTwiceTheCyclesAt66MHz) {
  BusConfig c = pci33();
  c.clock_mhz = 66;
  const BusRun r = run_one(c, {read(1500)});
  EXPECT_EQ(at(r.cycles, BusCategory::WaitCycles), 20u);  // 300 ns at 15 ns a cycle
  EXPECT_EQ(r.done[0], (2 + 1 + 1 + 20 + 188 + 1) * 15000);
}

TEST(PciBus, PostedWriteHasNoTurnaroundOrStall) {
  BusConfig c = pci33();
  c.write_wait_cycles = 2;
  const BusRun r = run_one(c, {write(1500)});
  EXPECT_EQ(r.done[0], (2 + 1 + 2 + 188 + 1) * 30000);  // §12.2: 192 with W_w = 2, + arbitration
}

TEST(PciBus, DescriptorReadIsMostlyOverhead) {
  const BusRun r = run_one(pci33(), {read(16, Purpose::SendBdFetch)});
  EXPECT_EQ(r.done[0], (2 + 1 + 1 + 10 + 2 + 1) * 30000);  // §12.2: 15 clocks, + arbitration
  EXPECT_EQ(at(r.cycles, BusCategory::Descriptors), 2u);
}

TEST(PciBus, HeadersAndContentAreCountedApart) {
  BusTransaction t = read(1514);
  t.header_bytes = 42;  // Ethernet + IP + UDP
  const BusRun r = run_one(pci33(), {t});
  EXPECT_EQ(at(r.cycles, BusCategory::NetworkHeaders), 6u);  // phases starting at 0..40
  EXPECT_EQ(at(r.cycles, BusCategory::Content), 190u - 6u);
}

TEST(PciBus, SlowMemoryAt66MHzIsRetriedThenCompleted) {
  // pci_facts §12.4: with a 16-clock initial latency limit the target Retries; the delayed
  // transaction finishes in the background and the repeated read finds the data ready.
  BusConfig c = pci33();
  c.clock_mhz = 66;
  c.initial_latency_limit = 16;
  const BusRun r = run_one(c, {read(16, Purpose::SendBdFetch)});
  EXPECT_EQ(at(r.cycles, BusCategory::RetryCycles), 17u);  // address, TA, 13 waits, STOP#, idle
  // arbitration, the failed attempt (17), one more clock of REQ# gap, arbitration again, then
  // address + TA + 0 waits + 2 data + idle.
  EXPECT_EQ(r.done[0], (2 + 17 + 1 + 2 + 1 + 1 + 2 + 1) * 15000);
  EXPECT_EQ(at(r.cycles, BusCategory::WaitCycles), 0u);
  EXPECT_EQ(at(r.cycles, BusCategory::IdleCycles), 1u);
}

TEST(PciBus, HostBridgeDisconnectsAtItsPrefetchBoundary) {
  BusConfig c = pci33();
  c.read_disconnect_bytes = 512;
  const BusRun r = run_one(c, {read(1500)});
  // 512 + 512 + 476 bytes: three tenures, each paying address, turnaround and the stall.
  EXPECT_EQ(at(r.cycles, BusCategory::WaitCycles), 30u);
  EXPECT_EQ(at(r.cycles, BusCategory::AddressCycles), 3u);
  EXPECT_EQ(at(r.cycles, BusCategory::Content), 64u + 64u + 60u);
}

TEST(PciBus, FullPostedWriteBufferDisconnectsAWrite) {
  BusConfig c = pci33();
  c.write_buffer_bytes = 512;
  const BusRun r = run_one(c, {write(1500)});
  // 512 + 512 + 476 bytes in three tenures; between them REQ# drops and arbitration repeats.
  EXPECT_EQ(at(r.cycles, BusCategory::AddressCycles), 3u);
  EXPECT_EQ(at(r.cycles, BusCategory::Content), 64u + 64u + 60u);
  EXPECT_EQ(at(r.cycles, BusCategory::ArbitrationCycles), 3u * 2u);
}

TEST(PciBus, RegisterReadWaitsForTheNicNotForMemory) {
  BusTransaction t = read(4, Purpose::RegisterRead);
  const BusRun r = run_one(pci33(), {t}, Component::HostBridge);
  // Parked on the host bridge: address 1, turnaround 1, target waits 2, data 1, idle 1.
  EXPECT_EQ(r.done[0], (1 + 1 + 2 + 1 + 1) * 30000);
  EXPECT_EQ(at(r.cycles, BusCategory::WaitCycles), 2u);
  EXPECT_EQ(at(r.cycles, BusCategory::Descriptors), 1u);
}

TEST(PciBus, DualAddressCycleCostsOneClock) {
  BusConfig c = pci33();
  c.dual_address = true;
  const BusRun r = run_one(c, {write(64)});
  EXPECT_EQ(at(r.cycles, BusCategory::AddressCycles), 2u);
}

TEST(PciBus, FixedModeIsTheCostModelFormula) {
  // the TCP offload paper §2: cycles = 4 + ceil(bytes / 8) per DMA on 64-bit/133 MHz PCI-X, for any
  // list.
  BusConfig c = pci33();
  c.model = BusModel::Fixed;
  c.protocol = BusProtocol::PciX;
  c.clock_mhz = 133;
  c.overhead_cycles = 4;
  const std::vector<std::uint32_t> sizes = {1, 8, 9, 16, 64, 66, 1448, 1500, 4096, 7};
  std::vector<BusTransaction> list;
  std::uint64_t formula = 0;
  for (std::uint32_t b : sizes) {
    list.push_back(b % 2 ? read(b) : write(b));
    formula += 4 + (b + 7) / 8;
  }
  const BusRun r = run_one(c, list);
  std::uint64_t busy = 0;
  for (std::size_t i = 0; i < r.cycles.size(); ++i) {
    if (i != static_cast<std::size_t>(BusCategory::IdleCycles)) busy += r.cycles[i];
  }
  EXPECT_EQ(busy, formula);
  EXPECT_EQ(r.done.back(), static_cast<Time>(formula) * 7500);
}

TEST(PciBus, PciXWriteShowsTheFourOverheadCycles) {
  // Address, attribute, target decode, idle: where the cost model's 4 cycles come from.
  BusConfig c = pci33();
  c.protocol = BusProtocol::PciX;
  c.clock_mhz = 133;
  c.arbitration_cycles = 0;
  const BusRun r = run_one(c, {write(1448)});
  EXPECT_EQ(at(r.cycles, BusCategory::AddressCycles), 2u);
  EXPECT_EQ(at(r.cycles, BusCategory::WaitCycles), 1u);
  EXPECT_EQ(at(r.cycles, BusCategory::TurnaroundCycles), 1u);
  EXPECT_EQ(r.done[0], (4 + 181) * 7500);
}

TEST(PciBus, PciXReadIsSplit) {
  BusConfig c = pci33();
  c.protocol = BusProtocol::PciX;
  c.clock_mhz = 133;
  c.arbitration_cycles = 0;
  const BusRun r = run_one(c, {read(1024)});
  // Two requests of 512 (MMRBC), one at a time: each request's 5 clocks overlap the 300 ns of
  // memory latency that starts at its address phase; then the host bridge's completion takes
  // 4 + 64 clocks.
  const Time completion = (4 + 64) * 7500;
  EXPECT_EQ(r.done[0], 2 * (300 * kNs + completion));
  EXPECT_EQ(at(r.cycles, BusCategory::AddressCycles), 2u * 2 + 2u * 2);  // address + attribute
  EXPECT_EQ(at(r.cycles, BusCategory::Content), 128u);
}

TEST(PciBus, ArbitrationIsFairAndBusyRequestsWait) {
  SimContext ctx(1, 0, 0, 0);
  BusConfig c = pci33();
  PciBus bus(&ctx, c);
  Master a, b;
  a.ctx = b.ctx = &ctx;
  a.bus = b.bus = &bus;
  b.instance = 1;
  for (int i = 0; i < 20; ++i) {
    a.todo.push_back(write(256));
    b.todo.push_back(write(256));
  }
  a.go();
  b.go();
  ctx.run_until(kSec);
  ASSERT_EQ(a.done.size(), 20u);
  ASSERT_EQ(b.done.size(), 20u);
  EXPECT_GE(bus.refusals(), 19u);
  // Round-robin: completions alternate.
  for (std::size_t i = 1; i < 20; ++i) {
    EXPECT_LT(a.done[i - 1], b.done[i]);
    EXPECT_LT(b.done[i - 1], a.done[i]);
  }
}

// The bus finds a master's port from the last two masters that asked: three masters asking in
// turn (and two of them alternating) are each served on their own port, to the end.
TEST(PciBus, EachMasterIsServedOnItsOwnPort) {
  SimContext ctx(1, 0, 0, 0);
  PciBus bus(&ctx, pci33());
  ThreeMasters m(&ctx, &bus);
  for (int i = 0; i < 12; ++i) {
    m.a.todo.push_back(write(64));
    m.h.todo.push_back(write(4, Purpose::MailboxPio));
  }
  for (int i = 0; i < 5; ++i) m.b.todo.push_back(read(128));
  m.a.go();
  m.h.go();
  ctx.run_until(2000 * kNs);
  m.b.go();  // joins while the other two take turns
  ctx.run_until(kSec);
  EXPECT_FALSE(ctx.failed()) << ctx.fault();
  EXPECT_EQ(m.a.done.size(), 12u);
  EXPECT_EQ(m.h.done.size(), 12u);
  EXPECT_EQ(m.b.done.size(), 5u);
  EXPECT_EQ(bus.transactions(), 29u);
}

TEST(PciBus, LatencyTimerEndsALongBurstWhenAnotherMasterWaits) {
  SimContext ctx(1, 0, 0, 0);
  BusConfig c = pci33();
  c.latency_timer = 64;
  PciBus bus(&ctx, c);
  Master a, b;
  a.ctx = b.ctx = &ctx;
  a.bus = b.bus = &bus;
  b.instance = 1;
  a.todo.push_back(write(8192));  // 1024 data phases
  b.todo.push_back(write(64));
  a.go();
  b.go();  // REQ# while a owns the bus: a must stop once its timer expires
  ctx.run_until(kSec);
  ASSERT_EQ(b.done.size(), 1u);
  ASSERT_EQ(a.done.size(), 1u);
  EXPECT_LT(b.done[0], a.done[0]);
  // a's first tenure: arbitration 2, address 1, then data until 64 clocks after FRAME#, idle.
  EXPECT_LE(b.done[0], (2 + 64 + 1 + 1 + 2 + 8 + 1) * 30000);
}

TEST(PciBus, CategoriesAlwaysSumToTheElapsedCycles) {
  SimContext ctx(1, 0, 0, 0);
  BusConfig c = pci33();
  c.clock_mhz = 66;
  c.initial_latency_limit = 16;
  c.read_disconnect_bytes = 128;
  PciBus bus(&ctx, c);
  ThreeMasters m(&ctx, &bus);
  Master &a = m.a, &b = m.b, &h = m.h;
  for (int i = 0; i < 50; ++i) {
    a.todo.push_back(read(66 + 13 * i));
    b.todo.push_back(i % 3 ? write(1514) : read(16, Purpose::SendBdFetch));
    h.todo.push_back(write(4, Purpose::MailboxPio));
  }
  m.go();
  for (Time t = 1234567; t < 2 * kMs; t += 777777) {
    ctx.run_until(t);
    const CycleCounts k = bus.cycles_at(t);
    const std::uint64_t sum = std::accumulate(k.begin(), k.end(), std::uint64_t{0});
    EXPECT_EQ(sum, static_cast<std::uint64_t>(t / bus.cycle())) << "at " << t;
  }
  EXPECT_FALSE(ctx.failed()) << ctx.fault();
  EXPECT_EQ(a.done.size(), 50u);
  EXPECT_EQ(b.done.size(), 50u);
  EXPECT_EQ(h.done.size(), 50u);
}

// What a run of three masters shows of the bus: their completions, the cycles by category read
// every `step` until `until`, the tenures, refusals and record ids taken.
struct BusSeen {
  std::vector<Time> a, b, h;
  std::vector<CycleCounts> cycles;
  std::uint64_t tenures = 0, refusals = 0;
  RecordId next_id = 0;
};

BusSeen watch(SimContext* ctx, PciBus* bus, ThreeMasters* m, Time step, Time until) {
  m->go();
  BusSeen seen;
  for (Time t = 123457; t < until; t += step) {
    ctx->run_until(t);
    seen.cycles.push_back(bus->cycles_at(t));
  }
  EXPECT_FALSE(ctx->failed()) << ctx->fault();
  seen.a = m->a.done;
  seen.b = m->b.done;
  seen.h = m->h.done;
  seen.tenures = bus->transactions();
  seen.refusals = bus->refusals();
  seen.next_id = ctx->trace.next_id();
  return seen;
}

void expect_same(const BusSeen& replayed, const BusSeen& planned) {
  EXPECT_EQ(replayed.a, planned.a);
  EXPECT_EQ(replayed.b, planned.b);
  EXPECT_EQ(replayed.h, planned.h);
  EXPECT_EQ(replayed.cycles, planned.cycles);
  EXPECT_EQ(replayed.tenures, planned.tenures);
  EXPECT_EQ(replayed.refusals, planned.refusals);
  EXPECT_EQ(replayed.next_id, planned.next_id);
}

// The same requests on a bus whose trace keeps every record (each tenure planned phase by
// phase) and on one with the trace off (tenures of a repeated shape replay a kept plan): the
// same completions, cycles by category at any time, tenures, refusals and record ids.
TEST(PciBus, AReplayedPlanIsThePlannedOne) {
  auto run = [](std::uint64_t trace_cap) {
    SimContext ctx(1, 0, trace_cap > 0 ? kSec : 0, trace_cap);
    BusConfig c = pci33();
    c.clock_mhz = 66;
    c.initial_latency_limit = 16;  // reads of slow memory are retried, then completed
    c.read_disconnect_bytes = 128;
    c.write_buffer_bytes = 256;
    c.latency_timer = 16;  // long writes are cut when another master waits
    PciBus bus(&ctx, c);
    ThreeMasters m(&ctx, &bus);
    Master &a = m.a, &b = m.b, &h = m.h;
    for (int i = 0; i < 60; ++i) {
      a.todo.push_back(i % 4 ? read(60) : read(16, Purpose::SendBdFetch));
      b.todo.push_back(i % 3 ? write(64) : write(i % 2 ? 1514 : 16, Purpose::ReturnBdWrite));
      h.todo.push_back(write(4, Purpose::MailboxPio));
    }
    return watch(&ctx, &bus, &m, 77777, 2 * kMs);
  };
  const BusSeen planned = run(1000000);
  ASSERT_EQ(planned.a.size(), 60u);
  ASSERT_EQ(planned.b.size(), 60u);
  ASSERT_EQ(planned.h.size(), 60u);
  expect_same(run(0), planned);
}

// As above with several plans per shape: a segment's fetch disconnected at the prefetch
// boundary takes one tenure per piece (a plan each), between header fetches of another size,
// and odd sizes now and then replace plans. Replays, replaced plans and the totals read
// between them give the same cycles, completions and record ids as planning every tenure.
TEST(PciBus, ManyPlansOfOneShapeReplayAsPlanned) {
  auto run = [](std::uint64_t trace_cap) {
    SimContext ctx(1, 0, trace_cap > 0 ? kSec : 0, trace_cap);
    BusConfig c = pci33();
    c.clock_mhz = 66;
    c.memory_latency = 200 * kNs;
    c.read_disconnect_bytes = 256;
    c.write_buffer_bytes = 512;
    c.latency_timer = 24;
    c.bridge_read_mbps = 270;
    PciBus bus(&ctx, c);
    ThreeMasters m(&ctx, &bus);
    Master &a = m.a, &b = m.b, &h = m.h;
    for (int i = 0; i < 300; ++i) {
      BusTransaction headers = read(66);
      headers.header_bytes = 54;
      headers.app_header_bytes = 12;
      a.todo.push_back(headers);
      BusTransaction content = read(i % 7 == 3 ? 100 + 8 * i : 1448);
      content.header_bytes = i % 11 == 5 ? 20 : 0;
      a.todo.push_back(content);
      b.todo.push_back(i % 5 ? write(1514) : write(32, Purpose::ReturnBdWrite));
      h.todo.push_back(write(4, Purpose::MailboxPio));
    }
    return watch(&ctx, &bus, &m, 33333, 10 * kMs);
  };
  const BusSeen planned = run(10000000);
  ASSERT_EQ(planned.a.size(), 600u);
  ASSERT_EQ(planned.b.size(), 300u);
  ASSERT_EQ(planned.h.size(), 300u);
  expect_same(run(0), planned);
}

}  // namespace
}  // namespace nicsim
