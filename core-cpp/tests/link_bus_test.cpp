#include <gtest/gtest.h>

#include <vector>

#include "bus/simple_bus.hpp"
#include "link/ethernet_link.hpp"

namespace nicsim {
namespace {

struct Endpoint final : LinkEndpoint {
  SimContext* ctx = nullptr;
  std::vector<Time> arrived, sent, ready;
  void frame_arrived(const Frame&) override { arrived.push_back(ctx->now()); }
  void link_sent(const Frame&) override { sent.push_back(ctx->now()); }
  void link_ready() override { ready.push_back(ctx->now()); }
};

LinkConfig gigabit() {
  LinkConfig l;
  l.rate_mbps = 1000;
  l.preamble_bytes = 8;
  l.ifg_bytes = 12;
  return l;
}

TEST(EthernetLink, MaximumFrameHoldsTheWire12304ns) {
  SimContext ctx(1, 0, 0, 0);
  Endpoint a, b;
  a.ctx = b.ctx = &ctx;
  LinkDirection link(&ctx, gigabit(), &a, &b);
  EXPECT_EQ(link.slot_time(1518), 12304 * kNs);  // (8 + 1518 + 12) bytes × 8 ns
  EXPECT_EQ(link.slot_time(64), 672 * kNs);      // 84 byte times: 1,488,095 frames/s
  ASSERT_TRUE(link.try_send(Frame{1, 1518, 1472}));
  EXPECT_FALSE(link.try_send(Frame{2, 1518, 1472}));  // busy: refused, called back
  ctx.run_until(kSec);
  ASSERT_EQ(b.arrived.size(), 1u);
  EXPECT_EQ(b.arrived[0], (8 + 1518) * 8 * kNs);  // last bit arrives before the gap
  ASSERT_EQ(a.ready.size(), 1u);
  EXPECT_EQ(a.ready[0], 12304 * kNs);
}

TEST(EthernetLink, TenGigabitIsTenTimesFaster) {
  SimContext ctx(1, 0, 0, 0);
  Endpoint a, b;
  LinkConfig l = gigabit();
  l.rate_mbps = 10000;
  LinkDirection link(&ctx, l, &a, &b);
  EXPECT_EQ(link.slot_time(1518), 1230400);
}

TEST(EthernetLink, LimitCurveMatchesTheFormula) {
  // 1 Gb/s × d / (max(d + 46, 64) + 20)
  const LinkConfig l = gigabit();
  EXPECT_NEAR(ethernet_limit_mbps(l, 1472), 1000.0 * 1472 / 1538, 1e-9);
  EXPECT_NEAR(ethernet_limit_mbps(l, 18), 1000.0 * 18 / 84, 1e-9);
  EXPECT_NEAR(ethernet_limit_mbps(l, 10), 1000.0 * 10 / 84, 1e-9);  // padded to 64 bytes
}

struct Master final : BusMaster {
  SimContext* ctx = nullptr;
  IoBus* bus = nullptr;
  Component id = Component::DmaRead;
  int remaining = 0;
  std::vector<Time> done;
  void go() {
    BusTransaction t;
    t.master = id;
    t.bytes = 64;
    if (remaining > 0 && bus->try_start(t, this)) --remaining;
  }
  void bus_done(const BusTransaction&) override {
    done.push_back(ctx->now());
    go();
  }
  void bus_retry() override { go(); }
};

TEST(SimpleBus, TransactionTimeIsOverheadPlusDataCycles) {
  SimContext ctx(1, 0, 0, 0);
  BusConfig cfg;
  cfg.width_bits = 64;
  cfg.clock_mhz = 33;
  cfg.overhead_cycles = 8;
  SimpleBus bus(&ctx, cfg);
  EXPECT_EQ(bus.cycles(64), 16);
  EXPECT_EQ(bus.cycles(60), 16);  // a partial word still takes a cycle
  EXPECT_EQ(bus.cycles(1514), 8 + 190);
  Master m;
  m.ctx = &ctx;
  m.bus = &bus;
  m.remaining = 1;
  m.go();
  ctx.run_until(kSec);
  ASSERT_EQ(m.done.size(), 1u);
  EXPECT_EQ(m.done[0], 16 * 30000);  // 33 MHz PCI: 30 ns cycles
}

TEST(SimpleBus, BusyBusRefusesAndGrantsWaitersInTurn) {
  SimContext ctx(1, 0, 0, 0);
  BusConfig cfg;
  cfg.width_bits = 64;
  cfg.clock_mhz = 66;
  cfg.overhead_cycles = 4;
  SimpleBus bus(&ctx, cfg);
  Master a, b;
  a.ctx = b.ctx = &ctx;
  a.bus = b.bus = &bus;
  b.id = Component::HostBridge;
  a.remaining = b.remaining = 5;
  a.go();
  b.go();  // refused: the bus is busy
  ctx.run_until(kSec);
  EXPECT_EQ(a.done.size(), 5u);
  EXPECT_EQ(b.done.size(), 5u);
  EXPECT_GE(bus.refusals(), 1u);
  // Alternation: neither master finishes all its work before the other starts.
  EXPECT_LT(b.done.front(), a.done.back());
  EXPECT_LT(a.done.front(), b.done.back());
  EXPECT_EQ(bus.transactions(), 10u);
  EXPECT_EQ(bus.busy_total(ctx.now()), 10 * 12 * 15000);
}

}  // namespace
}  // namespace nicsim
