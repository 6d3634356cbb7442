// The SINIC views: the trace records the receive-path, VNIC and register views replay. They appear,
// for one packet in the order the driver and the device do things (the SINIC paper §2.2, §3.1-3.3),
// and the register values carry nic_facts §1.3's bits.
#include <gtest/gtest.h>

#include <vector>

#include "sinic/sinic_regs.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::minimal;

constexpr auto u16 = [](TraceKind k) { return static_cast<std::uint16_t>(k); };

std::vector<TraceRecord> trace_of(const std::string& nic, const Json& sinic = Json::object()) {
  Json system = {
      {"nic", {{"model", nic}}}, {"link", {{"rate_mbps", 10000}}}, {"l2", {{"kbytes", 8192}}}};
  if (!sinic.empty()) system["sinic"] = sinic;
  const Json s = {{"system", system},
                  {"workload", {{"kind", "tcp-stream"}, {"direction", "receive"}}},
                  {"run",
                   {{"duration_us", 1200},
                    {"warmup_us", 1000},
                    {"trace", {{"start_us", 1000}, {"end_us", 1100}}}}}};
  const api::RunResult r = api::run(minimal(s), "");
  EXPECT_TRUE(r.ok) << r.json;
  return r.trace;
}

std::uint64_t value(const TraceRecord& r) { return (std::uint64_t{r.d} << 32) | r.c; }
bool bit(std::uint64_t v, int b) { return ((v >> b) & 1) != 0; }
bool is_reg(const TraceRecord& r, NicReg reg) {
  return r.kind == u16(TraceKind::NicRegister) && r.a == static_cast<std::uint32_t>(reg);
}
bool is_vnic(const TraceRecord& r, VnicRx st) {
  return r.kind == u16(TraceKind::VnicState) && r.b == static_cast<std::uint32_t>(st);
}

TEST(SinicTrace, ZeroCopyPacketGoesThroughTheVnicStatesAndRegistersInOrder) {
  // §3.3: header copied into the sk_buff on VNIC v (payload deferred), later read() has the
  // VNIC copy the payload from the FIFO into the user buffer.
  const auto tr = trace_of("v-sinic", {{"zero_copy", "aggressive"}});
  // The first header-only copy that starts inside the window (not the opening snapshot).
  std::size_t start = 0;
  for (; start < tr.size(); ++start)
    if (is_vnic(tr[start], VnicRx::Copying) && tr[start].d == 64 && tr[start].time_ps > kUs * 1000)
      break;
  ASSERT_LT(start, tr.size());
  const std::uint32_t v = tr[start].a, p = tr[start].c;
  // What happened on VNIC v around packet p, in trace order.
  std::vector<std::string> steps;
  for (std::size_t i = start > 3 ? start - 3 : 0; i < tr.size(); ++i) {
    const TraceRecord& r = tr[i];
    if (r.kind == u16(TraceKind::VnicState) && r.a == v) {
      if (r.c != p && r.b != static_cast<std::uint32_t>(VnicRx::Posted)) continue;
      steps.push_back("vnic " + std::to_string(r.b));
      if (r.b == static_cast<std::uint32_t>(VnicRx::Done)) break;
    } else if (r.kind == u16(TraceKind::NicRegister) && r.b == v) {
      const std::uint64_t x = value(r);
      if (is_reg(r, NicReg::RxData))
        steps.push_back(bit(x, 61) ? "RxData nodelay" : "RxData");
      else if (is_reg(r, NicReg::RxWait))
        steps.push_back(bit(x, 29) ? "RxWait more" : "RxWait");
    }
  }
  const std::vector<std::string> want = {
      "RxData",         "vnic 1", "vnic 2", "vnic 3",  // header: posted, copying, deferred
      "RxWait more",                                   // More: the payload stays in the FIFO
      "RxData nodelay", "vnic 1", "vnic 2", "vnic 4",  // payload to the user buffer: done
  };
  ASSERT_GE(steps.size(), want.size());
  EXPECT_EQ(std::vector<std::string>(steps.begin(), steps.begin() + 9), want);
  // The RxWait after the header says how many bytes are left (CopyLen with More, §1.3).
  for (const TraceRecord& r : tr)
    if (is_reg(r, NicReg::RxWait) && r.b == v && bit(value(r), 29)) {
      EXPECT_EQ(value(r) & 0xfffff, 1448u + 66 - 64);
      EXPECT_TRUE(bit(value(r), 30));  // Complete
      break;
    }
}

TEST(SinicTrace, TheWindowOpensWithEveryBusyVnic) {
  const auto tr = trace_of("v-sinic", {{"zero_copy", "aggressive"}});
  const Time open = 1000 * kUs;
  std::vector<int> seen(256, 0);
  int deferred = 0;
  for (const TraceRecord& r : tr) {
    if (r.time_ps != open || r.kind != u16(TraceKind::VnicState)) continue;
    ASSERT_LT(r.a, 256u);
    EXPECT_EQ(++seen[r.a], 1) << "VNIC " << r.a << " twice in the snapshot";
    EXPECT_NE(r.b, static_cast<std::uint32_t>(VnicRx::Free));
    if (r.b == static_cast<std::uint32_t>(VnicRx::Deferred)) ++deferred;
  }
  // Zero copy at 10 Gb/s keeps a few packets deferred (sinic-zero-copy shows ~20 bound).
  EXPECT_GT(deferred, 0);
  // The snapshot comes first: no other record at the window's start precedes it.
  ASSERT_FALSE(tr.empty());
  EXPECT_EQ(tr.front().kind, u16(TraceKind::VnicState));
}

TEST(SinicTrace, SinicDriverReadsRxDoneWritesRxDataAndWaitsOnRxWait) {
  // §3.1 receive: one RxDone read, an RxData write of the buffer's size, one RxWait load that
  // returns when the whole packet is copied (no More).
  const auto tr = trace_of("sinic");
  std::size_t i = 0;
  while (i < tr.size() && !is_reg(tr[i], NicReg::RxData)) ++i;
  ASSERT_LT(i, tr.size());
  EXPECT_EQ((value(tr[i]) >> 40) & 0xfffff, 2048u);
  EXPECT_FALSE(bit(value(tr[i]), 61));
  std::size_t j = i + 1;
  while (j < tr.size() && !is_reg(tr[j], NicReg::RxWait)) ++j;
  ASSERT_LT(j, tr.size());
  EXPECT_FALSE(bit(value(tr[j]), 29));
  EXPECT_TRUE(bit(value(tr[j]), 30) && bit(value(tr[j]), 22));  // Complete, TcpPacket
  EXPECT_EQ(value(tr[j]) & 0xfffff, 1448u + 66);
  // An RxDone read precedes the write; the ACKs go out through TxData pieces with MORE.
  bool rxdone = false, more = false;
  for (std::size_t k = 0; k < i; ++k) rxdone |= is_reg(tr[k], NicReg::RxDone);
  for (const TraceRecord& r : tr) more |= is_reg(r, NicReg::TxData) && bit(value(r), 63);
  EXPECT_TRUE(rxdone);
  // ACKs have no payload: one piece without MORE (§3.1 transmit); no data packets are sent.
  EXPECT_FALSE(more);
}

TEST(SinicTrace, CnicDmaPrecedesTheDriverAndRegistersCrossTheBridgeOffChip) {
  for (const char* nic : {"cnic-on-chip", "cnic-off-chip"}) {
    const auto tr = trace_of(nic);
    // The first frame that arrives in the window: DMA queued, done, then driver and stack.
    std::size_t i = 0;
    while (i < tr.size() && tr[i].kind != u16(TraceKind::MacRxDone)) ++i;
    ASSERT_LT(i, tr.size()) << nic;
    const std::uint32_t p = tr[i].a;
    std::vector<std::uint16_t> order;
    for (std::size_t k = i; k < tr.size(); ++k) {
      const TraceRecord& r = tr[k];
      const bool mine =
          ((r.kind == u16(TraceKind::DmaQueued) || r.kind == u16(TraceKind::DmaDone)) &&
           r.d == p) ||
          (r.kind == u16(TraceKind::CpuPart) && r.c == p);
      if (mine) order.push_back(r.kind);
    }
    ASSERT_GE(order.size(), 4u) << nic;
    EXPECT_EQ(order[0], u16(TraceKind::DmaQueued)) << nic;
    EXPECT_EQ(order[1], u16(TraceKind::DmaDone)) << nic;
    EXPECT_EQ(order[2], u16(TraceKind::CpuPart)) << nic;  // driver
    EXPECT_EQ(order[3], u16(TraceKind::CpuPart)) << nic;  // stack
    // §2.2: the interrupt status read costs a trip across the bridge off chip.
    std::uint32_t status_ns = 0;
    for (const TraceRecord& r : tr)
      if (is_reg(r, NicReg::IntrStatus)) status_ns = r.e;
    if (std::string(nic) == "cnic-off-chip") {
      EXPECT_GE(status_ns, 100u) << nic;
    } else {
      EXPECT_LE(status_ns, 20u) << nic;
    }
  }
}

}  // namespace
}  // namespace nicsim
