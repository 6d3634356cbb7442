// Behaviour of the descriptor-ring NIC model as a whole (issue: foundation §6).
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {
namespace {

using testing::metric;
using testing::minimal;
using testing::run_ok;

Json throughput_run(const std::string& direction, int datagram, int clock_mhz) {
  return run_ok(minimal({{"run", {{"duration_us", 10000}, {"warmup_us", 2000}}}}),
                {{"workload.direction", direction},
                 {"workload.datagram_bytes", datagram},
                 {"system.bus.clock_mhz", clock_mhz}});
}

TEST(FixedFunctionNic, ReachesTheEthernetLimitWithin1PercentAt1472Bytes) {
  // 64-bit/66 MHz: the bus is not the bottleneck for maximum-sized frames.
  for (const char* dir : {"send", "receive", "bidirectional"}) {
    const Json out = throughput_run(dir, 1472, 66);
    const double limit = metric(out, "ethernet_limit");
    EXPECT_NEAR(metric(out, "udp_total_throughput"), limit, 0.01 * limit) << dir;
    EXPECT_LT(metric(out, "bus_utilization"), 0.9) << dir;
    EXPECT_EQ(metric(out, "rx_drops_no_descriptor") + metric(out, "rx_drops_buffer_full"), 0)
        << dir;
  }
}

TEST(FixedFunctionNic, IsBusBoundAt18BytesOn64Bit33MHz) {
  for (const char* dir : {"send", "receive", "bidirectional"}) {
    const Json out = throughput_run(dir, 18, 33);
    EXPECT_GT(metric(out, "bus_utilization"), 0.98) << dir;
    EXPECT_LT(metric(out, "udp_total_throughput"), 0.9 * metric(out, "ethernet_limit")) << dir;
    EXPECT_LT(metric(out, "host_cpu_utilization"), 0.95)
        << dir << ": the host must not be the limit";
  }
}

TEST(FixedFunctionNic, FasterBusLiftsTheSmallPacketLimit) {
  const Json slow = throughput_run("send", 18, 33);
  const Json fast = throughput_run("send", 18, 66);
  EXPECT_GT(metric(fast, "udp_total_throughput"), 1.1 * metric(slow, "udp_total_throughput"));
}

TEST(FixedFunctionNic, FullSendRingStallsTheDriver) {
  const Json out = run_ok(minimal(), {{"system.driver.send_ring_size", 8},
                                      {"system.nic.coalesce.send_bds", 4},
                                      {"workload.direction", "send"}});
  EXPECT_GT(metric(out, "send_ring_full_stalls"), 0);
  EXPECT_GT(metric(out, "udp_tx_throughput"), 0);
}

TEST(FixedFunctionNic, NoReceiveBufferMeansADroppedFrame) {
  // The driver keeps too few buffers posted and replenishes only on slow interrupts.
  const Json out = run_ok(minimal(), {{"workload.direction", "receive"},
                                      {"workload.datagram_bytes", 64},
                                      {"system.driver.receive_buffers_posted", 8},
                                      {"system.nic.coalesce.receive_bds", 64},
                                      {"system.nic.coalesce.receive_timer_us", 50}});
  EXPECT_GT(metric(out, "rx_drops_no_descriptor"), 0);
  EXPECT_GT(metric(out, "rx_drop_fraction"), 0.1);
}

TEST(FixedFunctionNic, CoalescingTradesInterruptsForBatches) {
  const Json one = run_ok(
      minimal(), {{"workload.direction", "receive"}, {"system.nic.coalesce.receive_bds", 1}});
  const Json many = run_ok(minimal(), {{"workload.direction", "receive"},
                                       {"system.nic.coalesce.receive_bds", 32},
                                       {"system.nic.coalesce.receive_timer_us", 1000}});
  EXPECT_NEAR(metric(one, "interrupts_per_packet"), 1.0, 0.05);
  EXPECT_NEAR(metric(many, "interrupts_per_packet"), 1.0 / 32, 0.01);
}

// The send of one packet walks S1–S6 in order (thesis Fig 2.4).
TEST(FixedFunctionNic, OnePacketSendFollowsStepsS1ToS6) {
  api::RunResult r = api::run(
      minimal({{"workload", {{"direction", "send"}, {"packets", 1}}},
               {"system", {{"nic", {{"coalesce", {{"send_bds", 1}}}}}}},
               {"run", {{"duration_us", 50}, {"warmup_us", 0}, {"trace", {{"end_us", 50}}}}}}),
      "");
  ASSERT_TRUE(r.ok) << r.json;
  std::vector<TraceKind> steps;
  std::vector<Purpose> dmas;
  for (const auto& rec : r.trace) {
    const auto k = static_cast<TraceKind>(rec.kind);
    if (k == TraceKind::DriverPostSendBd || k == TraceKind::MailboxArrive ||
        k == TraceKind::MacTxStart || k == TraceKind::InterruptRaise || k == TraceKind::IsrEnd ||
        k == TraceKind::SendComplete) {
      steps.push_back(k);
    }
    if (k == TraceKind::DmaDone && static_cast<Purpose>(rec.b) != Purpose::RecvBdFetch) {
      dmas.push_back(static_cast<Purpose>(rec.b));
    }
  }
  // (the receive-buffer mailbox at start-up comes first)
  const std::vector<TraceKind> expected = {TraceKind::MailboxArrive,  TraceKind::DriverPostSendBd,
                                           TraceKind::MailboxArrive,  TraceKind::MacTxStart,
                                           TraceKind::InterruptRaise, TraceKind::SendComplete,
                                           TraceKind::IsrEnd,         TraceKind::MailboxArrive};
  EXPECT_EQ(steps, expected);
  // S3 descriptor fetch, S4 data fetch, S6 consumer index write (receive-buffer fetches aside).
  EXPECT_EQ(dmas, (std::vector<Purpose>{Purpose::SendBdFetch, Purpose::SendDataFetch,
                                        Purpose::SendConsumerWrite}));
}

TEST(FixedFunctionNic, OnePacketReceiveFollowsStepsR1ToR4) {
  api::RunResult r = api::run(
      minimal({{"workload", {{"direction", "receive"}, {"packets", 1}}},
               {"system", {{"nic", {{"coalesce", {{"receive_bds", 1}}}}}}},
               {"run", {{"duration_us", 50}, {"warmup_us", 0}, {"trace", {{"end_us", 50}}}}}}),
      "");
  ASSERT_TRUE(r.ok) << r.json;
  std::vector<std::uint32_t> order;  // R1 frame in, R2 data, R3 return BD, R4 interrupt, delivery
  for (const auto& rec : r.trace) {
    const auto k = static_cast<TraceKind>(rec.kind);
    if (k == TraceKind::MacRxDone) order.push_back(1);
    if (k == TraceKind::DmaDone && rec.b == static_cast<std::uint32_t>(Purpose::RecvDataWrite))
      order.push_back(2);
    if (k == TraceKind::DmaDone && rec.b == static_cast<std::uint32_t>(Purpose::ReturnBdWrite))
      order.push_back(3);
    if (k == TraceKind::InterruptRaise) order.push_back(4);
    if (k == TraceKind::HostDeliver) order.push_back(5);
  }
  EXPECT_EQ(order, (std::vector<std::uint32_t>{1, 2, 3, 4, 5}));
}

TEST(FixedFunctionNic, DriverCanReadTheSendConsumerIndexByPio) {
  // PARALLEL's protocol (thesis §3.2): no consumer-index DMA; each interrupt handler reads the
  // index from a NIC register over the bus, stalling the CPU, and still keeps the wire busy.
  const Json overrides = {{"workload.direction", "send"},
                          {"system.driver.send_consumer_by_pio", true},
                          {"system.bus.clock_mhz", 66}};
  const Json out = run_ok(minimal(), overrides);
  EXPECT_GT(metric(out, "pio_reads"), 0);
  EXPECT_EQ(metric(out, "pio_reads"), metric(out, "interrupts"));
  EXPECT_NEAR(metric(out, "udp_tx_throughput"), metric(out, "ethernet_limit"),
              0.01 * metric(out, "ethernet_limit"));
  api::RunResult r = api::run(
      minimal({{"run", {{"trace", {{"start_us", 200}, {"end_us", 1000}}}}}}), dump_json(overrides));
  ASSERT_TRUE(r.ok);
  int reads = 0, index_writes = 0;
  for (const auto& rec : r.trace) {
    if (rec.kind == static_cast<std::uint16_t>(TraceKind::RegisterRead)) ++reads;
    if (rec.kind == static_cast<std::uint16_t>(TraceKind::DmaDone) &&
        rec.b == static_cast<std::uint32_t>(Purpose::SendConsumerWrite)) {
      ++index_writes;
    }
  }
  EXPECT_GT(reads, 0);
  EXPECT_EQ(index_writes, 0);
}

TEST(Determinism, SameScenarioAndSeedGiveIdenticalOutput) {
  const std::string s = minimal(
      {{"workload",
        {{"direction", "bidirectional"}, {"datagram_bytes", 200}, {"peer_jitter_ns", 300}}}});
  const api::RunResult a = api::run(s, "");
  const api::RunResult b = api::run(s, "");
  ASSERT_TRUE(a.ok);
  EXPECT_EQ(a.json, b.json);
  ASSERT_EQ(a.trace.size(), b.trace.size());
  EXPECT_EQ(0, std::memcmp(a.trace.data(), b.trace.data(), a.trace.size() * sizeof(TraceRecord)));
  const api::RunResult c = api::run(s, R"({"run.seed": 2})");
  EXPECT_NE(a.json, c.json) << "the seed drives the peer's jitter";
}

}  // namespace
}  // namespace nicsim
