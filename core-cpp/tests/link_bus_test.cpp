#include <gtest/gtest.h>

#include <vector>

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

TEST(EthernetLink, PropagationDelaysArrivalNotTheWire) {
  SimContext ctx(1, 0, 0, 0);
  Endpoint a, b;
  a.ctx = b.ctx = &ctx;
  LinkConfig l = gigabit();
  l.propagation = 5 * kUs;  // longer than a frame: two frames are on the cable at once
  LinkDirection link(&ctx, l, &a, &b);
  ASSERT_TRUE(link.try_send(Frame{1, 64, 18}));
  ctx.run_until(672 * kNs);
  ASSERT_TRUE(link.try_send(Frame{2, 64, 18}));
  ctx.run_until(kSec);
  ASSERT_EQ(b.arrived.size(), 2u);
  EXPECT_EQ(b.arrived[0], 72 * 8 * kNs + 5 * kUs);
  EXPECT_EQ(b.arrived[1], 672 * kNs + 72 * 8 * kNs + 5 * kUs);
}

TEST(EthernetLink, LimitCurveMatchesTheFormula) {
  // 1 Gb/s × d / (max(d + 46, 64) + 20)
  const LinkConfig l = gigabit();
  EXPECT_NEAR(ethernet_limit_mbps(l, 1472), 1000.0 * 1472 / 1538, 1e-9);
  EXPECT_NEAR(ethernet_limit_mbps(l, 18), 1000.0 * 18 / 84, 1e-9);
  EXPECT_NEAR(ethernet_limit_mbps(l, 10), 1000.0 * 10 / 84, 1e-9);  // padded to 64 bytes
}

}  // namespace
}  // namespace nicsim
