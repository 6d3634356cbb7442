// The protocol fast paths through the host caches (seed 002): modes, layout, determinism.
#include <gtest/gtest.h>

#include "api/system.hpp"
#include "protocache/protocol_stack.hpp"
#include "scenario/params.hpp"
#include "scenario/scenario.hpp"

namespace nicsim {
namespace {

Config protocache_config(std::map<std::string, Json> extra = {}) {
  extra["workload.kind"] = Json("protocol-cache");
  if (!extra.count("run.duration_us")) extra["run.duration_us"] = Json(3000);
  if (!extra.count("run.warmup_us")) extra["run.warmup_us"] = Json(500);
  Config c;
  const Errors e = build_config(extra, "", &c);
  EXPECT_TRUE(e.empty()) << (e.empty() ? "" : e[0].path + ": " + e[0].message);
  return c;
}

double metric(const RunOutput& o, const std::string& name) {
  for (const Metric& m : o.metrics)
    if (m.name == name) return m.value;
  ADD_FAILURE() << "no metric " << name;
  return 0;
}

TEST(ProtoCache, IdealModeHasNoStall) {
  for (int p = 0; p < kProtoPaths; ++p) {
    ProtoCacheConfig c = protocache_config().protocache;
    c.path = static_cast<ProtoPath>(p);
    c.mode = CacheMode::Ideal;
    ProtocolStack s(c);
    for (std::uint64_t i = 0; i < 4; ++i) {
      const PacketCost k = s.run_packet(i);
      EXPECT_EQ(k.stall_l2_cycles + k.stall_memory_cycles, 0u) << proto_path_name(c.path);
      EXPECT_EQ(k.l1i_misses + k.l1d_misses, 0u);
      EXPECT_GT(k.instructions, 0u);
    }
  }
}

TEST(ProtoCache, IdealIAndIdealDRemoveOnlyTheirSide) {
  ProtoCacheConfig c = protocache_config().protocache;
  c.path = ProtoPath::TcpSendOff;
  c.mode = CacheMode::IdealI;
  ProtocolStack i(c);
  c.mode = CacheMode::IdealD;
  ProtocolStack d(c);
  for (std::uint64_t n = 0; n < 4; ++n) {
    const PacketCost a = i.run_packet(n), b = d.run_packet(n);
    EXPECT_EQ(a.l1i_misses, 0u);
    EXPECT_EQ(b.l1d_misses, 0u);
  }
}

TEST(ProtoCache, ColdRefetchesEveryLineEachPacket) {
  ProtoCacheConfig c = protocache_config().protocache;
  c.path = ProtoPath::UdpSendOff;
  c.mode = CacheMode::Cold;
  ProtocolStack s(c);
  std::set<std::uint64_t> lines;
  std::set<std::uint64_t> l2lines;
  const PacketCost first = s.run_packet(0, [&](const ProtoReference& r) {
    lines.insert(r.addr / 16);
    l2lines.insert(r.addr / 128);
  });
  EXPECT_GE(first.l1i_misses + first.l1d_misses, lines.size());
  EXPECT_GE(first.l2_misses, l2lines.size());
  for (std::uint64_t i = 1; i < 4; ++i) {
    const PacketCost k = s.run_packet(i);
    EXPECT_EQ(k.cycles(), first.cycles());  // flushed: every packet starts the same
    EXPECT_EQ(k.l2_misses, first.l2_misses);
  }
}

TEST(ProtoCache, ChecksumMovesTheMixFromTwoToAboutThreeToOne) {
  ProtoCacheConfig c = protocache_config().protocache;
  for (ProtoPath p : {ProtoPath::TcpSendOff, ProtoPath::UdpRecvOff}) {
    c.path = p;
    ProtocolStack s(c);
    PacketCost k = s.run_packet(0);
    k.add(s.run_packet(1));
    EXPECT_NEAR(static_cast<double>(k.l1i_refs) / static_cast<double>(k.l1d_refs), 2.0, 0.05);
  }
  for (ProtoPath p : {ProtoPath::TcpSendOn, ProtoPath::UdpSendOn}) {
    c.path = p;
    ProtocolStack s(c);
    PacketCost k = s.run_packet(0);
    k.add(s.run_packet(1));
    const double r = static_cast<double>(k.l1i_refs) / static_cast<double>(k.l1d_refs);
    EXPECT_GT(r, 2.5);
    EXPECT_LT(r, 3.6);
  }
}

TEST(ProtoCache, CordPacksThePathWithoutOverlap) {
  ProtoCacheConfig c = protocache_config().protocache;
  c.path = ProtoPath::UdpSendOff;
  c.layout = CodeLayout::Cord;
  c.inclusive = false;  // no L2 I/D conflict reaching into the L1-I
  ProtocolStack s(c);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  for (int r = 0; r < kProtoRegions; ++r)
    spans.push_back({s.code_addr(static_cast<ProtoRegion>(r)),
                     s.code_addr(static_cast<ProtoRegion>(r)) +
                         static_cast<std::uint64_t>(c.code[static_cast<std::size_t>(r)].bytes)});
  std::sort(spans.begin(), spans.end());
  for (std::size_t i = 1; i < spans.size(); ++i) EXPECT_LE(spans[i - 1].second, spans[i].first);
  // UDP send's code fits the 16 KB L1-I once packed: no L1-I conflicts when hot.
  s.run_packet(0);
  s.run_packet(1);
  EXPECT_EQ(s.run_packet(2).l1i_misses, 0u);
}

TEST(ProtoCache, RunsAreDeterministic) {
  const Config c = protocache_config({{"workload.protocol_path", Json("tcp-send-cksum-on")}});
  const RunOutput a = run_model(c, true), b = run_model(c, true);
  ASSERT_TRUE(a.fault.empty()) << a.fault;
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t i = 0; i < a.metrics.size(); ++i)
    EXPECT_EQ(a.metrics[i].value, b.metrics[i].value);
  ASSERT_EQ(a.trace.size(), b.trace.size());
  EXPECT_GT(metric(a, "proto_packets"), 0);
  EXPECT_NEAR(metric(a, "proto_latency_us"),
              metric(a, "proto_cpu_us") + metric(a, "proto_stall_l2_us") +
                  metric(a, "proto_stall_memory_us"),
              1e-9);
}

// A hot window opens on the lines the earlier packets left, stamped at the opening itself (the
// time a view's cursor starts at), not at the first packet that starts inside the window.
TEST(ProtoCache, HotWindowOpensOnTheCachesLines) {
  const Config c = protocache_config({{"run.trace.start_us", Json(1500)},
                                      {"run.trace.end_us", Json(1600)},
                                      {"run.warmup_us", Json(1500)}});
  const RunOutput o = run_model(c, true);
  ASSERT_TRUE(o.fault.empty()) << o.fault;
  const Time opening = c.run.trace_start;
  std::size_t l1i = 0, at_opening = 0;
  Time first_packet = -1;
  for (const TraceRecord& r : o.trace) {
    if (r.kind == static_cast<std::uint16_t>(TraceKind::ProtoPacket) && first_packet < 0)
      first_packet = r.time_ps;
    if (r.kind != static_cast<std::uint16_t>(TraceKind::ProtoCacheLine) || r.time_ps != opening)
      continue;
    ++at_opening;
    if (r.a == 0) ++l1i;  // a: the cache, 0 the L1-I
  }
  EXPECT_GT(first_packet, opening);
  EXPECT_GT(l1i, 0u);
  EXPECT_GT(at_opening, l1i);
}

TEST(ProtoCache, BadInputNamesTheField) {
  Config c;
  const Errors e = build_config(
      {{"workload.kind", Json("protocol-cache")}, {"system.host_cache.l1_kbytes", Json(24)}}, "",
      &c);
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].path, "system.host_cache.l1_kbytes");
}

}  // namespace
}  // namespace nicsim
