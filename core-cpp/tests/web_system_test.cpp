// The web workload's full-system mode (the thesis §4.4-4.5): byte conservation, the Fig 4.12
// descriptor walk, the bottleneck of each trace, and Table 4.4 within 10%.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "api/api.hpp"
#include "scenario/scenario.hpp"
#include "test_util.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {
namespace {

using testing::metric;

// The preset, one point (no sweep, no checks), with the calibration script's per-trace runs.
std::string scenario() {
  Json doc = Json::parse(testing::preset("web-nasa-cache"), nullptr, false);
  keep_main_run_only(&doc);
  return dump_json(doc);
}

Json overrides(const std::string& trace, int kb) {
  Json o = {{"workload.trace", trace}, {"system.nic_cache.kbytes", kb}};
  if (trace == "berkeley") {
    o["workload.warmup_requests"] = 300000;
    o["run.duration_us"] = 400000;
  } else if (trace == "ibm" || trace == "worldcup") {
    o["run.duration_us"] = 40000;
  } else if (trace == "rice") {
    // A 1 s window: its responses average the trace's 35 KB (shorter ones sample it unevenly).
    o["workload.trace_requests"] = 0;
    o["workload.warmup_requests"] = 50000;
    o["run.duration_us"] = 1000000;
  }
  return o;
}

Json run(const std::string& trace, int kb, Json extra = Json::object()) {
  Json o = overrides(trace, kb);
  for (auto it = extra.begin(); it != extra.end(); ++it) o[it.key()] = it.value();
  return testing::run_ok(scenario(), o);
}

// NASA with 16 MB caches for 8 ms, traced from 1 ms to `end_us`.
api::RunResult traced_run(int end_us) {
  return api::run(scenario(), dump_json(Json{{"system.nic_cache.kbytes", 16384},
                                             {"run.duration_us", 8000},
                                             {"run.warmup_us", 1000},
                                             {"run.trace.start_us", 1000},
                                             {"run.trace.end_us", end_us}}));
}

TEST(WebSystem, EveryContentByteCrossesTheWireOnceFromMemoryOrTheCache) {
  // The clients check each response's content bytes on arrival (a mismatch stops the run), so
  // a run that completes conserved them; here the driver's plan and the NIC's work agree too.
  const Json out = run("nasa", 16384, {{"run.duration_us", 40000}});
  ASSERT_GT(metric(out, "web_requests"), 20);
  const double content = metric(out, "web_content_mb");
  const double bus = metric(out, "web_bus_content_mb");
  const double nic = metric(out, "web_nic_cache_mb");
  EXPECT_GT(nic, 0.0);
  EXPECT_GT(metric(out, "web_cache_insert_mb"), 0.0);
  // Planned (bus + cache) and delivered differ only by what is in flight at the window's ends.
  EXPECT_NEAR((bus + nic) / content, 1.0, 0.15);
  EXPECT_NEAR(metric(out, "content_traffic_reduction"), nic / (bus + nic), 0.05);
  // Without a cache every content byte crosses the bus.
  const Json none = run("nasa", 0, {{"run.duration_us", 40000}});
  EXPECT_EQ(metric(none, "web_nic_cache_mb"), 0.0);
  EXPECT_EQ(metric(none, "content_traffic_reduction"), 0.0);
  EXPECT_EQ(metric(none, "web_descriptors_per_packet"), 2.0);  // headers, content
}

TEST(WebSystem, ContentFromTheNicCacheIsNeverNegative) {
  // A 5 ms window edge between an insert and the append of the bytes it inserted: appended
  // minus inserted was -0.001312 MB, a model fault.
  const Json out =
      testing::run_ok(testing::preset("web-nasa-cache"), {{"run.duration_us", 6000},
                                                          {"run.warmup_us", 1000},
                                                          {"workload.trace_requests", 60000},
                                                          {"workload.warmup_requests", 30000},
                                                          {"system.nic_cache.kbytes", 512}});
  EXPECT_GE(metric(out, "web_nic_cache_mb"), 0.0);
}

TEST(WebSystem, DescriptorsCarryTheFig412Walk) {
  // Every packet starts with its headers by nic_pkt_append_mm; an insert is followed by the
  // append_cache of the block just inserted (same offset, same length).
  const api::RunResult r = traced_run(6000);
  ASSERT_TRUE(r.ok) << r.json;
  struct Cmd {
    std::uint32_t packet, kind, len, offset;
  };
  std::vector<Cmd> cmds;
  for (const TraceRecord& t : r.trace) {
    if (t.kind == static_cast<std::uint16_t>(TraceKind::CacheCommand))
      cmds.push_back({t.a, t.b, t.c, t.d});
  }
  ASSERT_GT(cmds.size(), 100u);
  std::size_t inserts = 0, appends = 0;
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    if (i == 0 || cmds[i].packet != cmds[i - 1].packet) {
      EXPECT_EQ(cmds[i].kind, 0u) << i;
    }
    if (cmds[i].kind == 2) {
      ++inserts;
      ASSERT_LT(i + 1, cmds.size());
      EXPECT_EQ(cmds[i + 1].kind, 1u);
      EXPECT_EQ(cmds[i + 1].len, cmds[i].len);
      EXPECT_EQ(cmds[i + 1].offset, cmds[i].offset);
      EXPECT_EQ(cmds[i + 1].packet, cmds[i].packet);
    }
    if (cmds[i].kind == 1) ++appends;
  }
  EXPECT_GT(appends, inserts) << "some blocks were cached before";
}

TEST(WebSystem, TheTraceFollowsOneRequestFromAskToLastSegment) {
  // The request-path view's records (Figs 4.1, 4.2): WebAsk names the request's frame, each
  // WebSegment ties a packet to its request with its header and content bytes, and the NIC's
  // NicCacheAppend copies exactly what the driver's append_cache commands asked for.
  const api::RunResult r = traced_run(8000);
  ASSERT_TRUE(r.ok) << r.json;
  auto is = [](const TraceRecord& t, TraceKind k) {
    return t.kind == static_cast<std::uint16_t>(k);
  };
  std::map<std::uint32_t, std::uint32_t> asked;       // request -> frame
  std::map<std::uint32_t, std::uint32_t> delivered;   // frame -> times handed to the host
  std::map<std::uint32_t, std::uint32_t> request_of;  // packet -> request
  std::map<std::uint32_t, std::uint64_t> content;     // request -> content in its segments
  std::map<std::uint32_t, std::int64_t> to_append;    // packet -> append_cache bytes left
  std::size_t done = 0;
  for (const TraceRecord& t : r.trace) {
    if (is(t, TraceKind::WebAsk)) asked[t.a] = t.b;
    if (is(t, TraceKind::HostDeliver)) ++delivered[t.a];
    if (is(t, TraceKind::WebSegment)) {
      request_of[t.a] = t.b;
      content[t.b] += t.e;
      EXPECT_GE(t.d, 54u) << "every segment has its TCP/IP headers";
    }
    if (is(t, TraceKind::CacheCommand) && t.b == 1) {
      ASSERT_TRUE(request_of.count(t.a)) << "a command before its segment";
      to_append[t.a] += t.c;
    }
    if (is(t, TraceKind::NicCacheAppend)) to_append[t.a] -= t.b;
    if (is(t, TraceKind::WebResponseDone) && asked.count(t.a)) {
      ++done;
      EXPECT_EQ(delivered[asked[t.a]], 1u) << "the request's frame reached the server";
      EXPECT_EQ(content[t.a], t.c) << "request " << t.a;
    }
  }
  EXPECT_GT(done, 5u);
  std::size_t appended = 0;
  for (const auto& [packet, left] : to_append) {
    if (left == 0) ++appended;
  }
  EXPECT_GT(appended, 50u);
  EXPECT_GE(appended + 40, to_append.size()) << "only the last packets may be unprocessed";
}

// Fig 4.6's categories: the server's TCP/IP and Ethernet headers apart from its HTTP response
// headers. One HTTP header per response, one TCP/IP header per segment: IBM's small responses
// carry far more HTTP header per network header than NASA's large ones.
TEST(WebSystem, HttpHeadersAreTheirOwnBusCategory) {
  auto ratio = [](const Json& r) {
    const double app = metric(r, "bus_util_app_headers");
    const double net = metric(r, "bus_util_network_headers");
    EXPECT_GT(app, 0.0);
    EXPECT_GT(net, 0.0);
    return app / net;
  };
  const double ibm = ratio(run("ibm", 0)), nasa = ratio(run("nasa", 0));
  EXPECT_GT(ibm, 2 * nasa) << "IBM " << ibm << ", NASA " << nasa;
  EXPECT_LT(nasa, 240.0 / 66.0) << "at most one HTTP header per segment";
}

TEST(WebSystem, EachTraceHasThePublishedBottleneck) {
  // the thesis §4.4-4.5: NASA bus-bound, IBM and World Cup CPU-bound, Berkeley disk-bound.
  EXPECT_EQ(metric(run("nasa", 0), "web_bottleneck"), 0.0);
  EXPECT_EQ(metric(run("ibm", 0), "web_bottleneck"), 1.0);
  EXPECT_EQ(metric(run("worldcup", 0), "web_bottleneck"), 1.0);
  EXPECT_EQ(metric(run("berkeley", 0), "web_bottleneck"), 2.0);
}

// The thesis's Mb/s (Tables 4.3-4.7 count Mb as 2^20 bits) in the model's 10^6 bit/s.
double thesis_mbps(double mb20) { return mb20 * 1048576.0 / 1e6; }

TEST(WebSystem, Table44Within10Percent) {
  // Server 2200/33 (the preset's defaults): Mb/s of HTTP content, Mb = 2^20 bits.
  const std::map<std::string, std::pair<double, double>> table = {{"nasa", {1188, 1481}},
                                                                  {"rice", {1094, 1251}}};
  for (const auto& [trace, ref] : table) {
    const double none = metric(run(trace, 0), "web_throughput");
    const double big = metric(run(trace, 16384), "web_throughput");
    EXPECT_NEAR(none / thesis_mbps(ref.first), 1.0, 0.10) << trace << " none " << none;
    EXPECT_NEAR(big / thesis_mbps(ref.second), 1.0, 0.10) << trace << " 16 MB " << big;
    EXPECT_GT(big / none, 1.05) << trace << ": the cache helps a bus-bound server";
  }
  // CPU-bound and disk-bound: little or no gain.
  for (const char* trace : {"ibm", "worldcup", "berkeley"}) {
    const double none = metric(run(trace, 0), "web_throughput");
    const double big = metric(run(trace, 16384), "web_throughput");
    EXPECT_LT(std::abs(big / none - 1.0), 0.05) << trace;
  }
}

TEST(WebSystem, WriteIsSlowerThanSendfile) {
  // Table 4.3 (2600/66): sendfile beats write on every trace.
  for (const char* trace : {"ibm", "worldcup"}) {
    Json cfg = {{"system.server.cpu_mhz", 2100}, {"system.bus.clock_mhz", 66}};
    const double send = metric(run(trace, 0, cfg), "web_throughput");
    cfg["system.server.send_api"] = "write";
    const double write = metric(run(trace, 0, cfg), "web_throughput");
    EXPECT_GT(send / write, 1.1) << trace;
  }
}

// Table 4.3 (2600/66, thttpd without its file-info caching): sendfile's improvement over write
// (21, 23, 28, 40, 81% for Berkeley, World Cup, IBM, NASA, Rice). What the model holds over
// representative 1 s windows: the CPU-bound small-file traces gain less than the bus-bound
// large-file ones (their copies come from the CPU's L2, NASA's and Rice's from DRAM), Rice the
// most (it maps the most new files), Berkeley (disk-bound) the least; IBM, whose small files are
// mapped anew more often, more than World Cup. The whole published order holds; the sizes do not
// all: NASA gains about 55% (40 in the thesis), IBM about 41% (28), Rice about 99% (81).
TEST(WebSystem, Table43ImprovementOrder) {
  const Json server = {{"system.server.cpu_mhz", 2100},
                       {"system.bus.clock_mhz", 66},
                       {"system.server.file_info_ns", 6000}};
  const std::map<std::string, double> sendfile = {
      {"berkeley", 142}, {"worldcup", 737}, {"ibm", 424}, {"nasa", 1278}, {"rice", 1148}};
  std::map<std::string, double> gain;
  for (const auto& [trace, published] : sendfile) {
    Json cfg = server;
    if (trace != "berkeley") {
      cfg["workload.warmup_requests"] = 50000;
      cfg["run.duration_us"] = 1000000;
    }
    const double send = metric(run(trace, 0, cfg), "web_throughput");
    cfg["system.server.send_api"] = "write";
    gain[trace] = send / metric(run(trace, 0, cfg), "web_throughput") - 1.0;
    EXPECT_NEAR(send / thesis_mbps(published), 1.0, 0.10) << trace << " sendfile " << send;
  }
  // The published order, Berkeley 21% < World Cup 23% < IBM 28% < NASA 40% < Rice 81%
  // (model on representative 1 s windows: about 23 < 27 < 41 < 55 < 99).
  const char* order[] = {"berkeley", "worldcup", "ibm", "nasa", "rice"};
  for (int i = 0; i + 1 < 5; ++i)
    EXPECT_LT(gain[order[i]], gain[order[i + 1]])
        << order[i] << " " << gain[order[i]] << " vs " << order[i + 1] << " " << gain[order[i + 1]];
  EXPECT_NEAR(gain["berkeley"], 0.21, 0.10) << "Berkeley: about 21%";
  EXPECT_GT(gain["rice"], 0.6) << "Rice: about 81%";
  EXPECT_LT(gain["rice"], 1.2) << "Rice: about 81%";
}

// Tables 4.5-4.7: the other three servers, for the bus-bound traces, within 10%; a 66 MHz bus
// adds little without a cache (§4.5.2: the bridge streams memory no faster than 33 MHz PCI).
TEST(WebSystem, Tables45To47Within10Percent) {
  struct Row {
    int mhz, bus;
    double nasa_none, nasa_16, rice_none, rice_16;
  };
  const Row rows[] = {{1800, 66, 1243, 1507, 1154, 1292},
                      {2100, 33, 1182, 1508, 1110, 1313},
                      {2100, 66, 1273, 1583, 1179, 1360}};
  for (const Row& row : rows) {
    const Json cfg = {{"system.server.cpu_mhz", row.mhz}, {"system.bus.clock_mhz", row.bus}};
    const std::string at = std::to_string(row.mhz) + "/" + std::to_string(row.bus);
    EXPECT_NEAR(metric(run("nasa", 0, cfg), "web_throughput") / thesis_mbps(row.nasa_none), 1.0,
                0.10)
        << at;
    EXPECT_NEAR(metric(run("nasa", 16384, cfg), "web_throughput") / thesis_mbps(row.nasa_16), 1.0,
                0.10)
        << at;
    EXPECT_NEAR(metric(run("rice", 0, cfg), "web_throughput") / thesis_mbps(row.rice_none), 1.0,
                0.10)
        << at;
    EXPECT_NEAR(metric(run("rice", 16384, cfg), "web_throughput") / thesis_mbps(row.rice_16), 1.0,
                0.10)
        << at;
  }
  const Json at66 = {{"system.bus.clock_mhz", 66}};
  const double nasa33 = metric(run("nasa", 0), "web_throughput");
  const Json nasa66 = run("nasa", 0, at66);
  EXPECT_LT(metric(nasa66, "web_throughput") / nasa33, 1.12) << "a faster bus, little more";
  // Fig 4.7's shape: at 66 MHz about 30% content and 62% overhead (pci_facts §10).
  EXPECT_NEAR(metric(nasa66, "bus_content_share"), 0.30, 0.08);
  EXPECT_NEAR(metric(nasa66, "bus_overhead_share"), 0.62, 0.08);
}

TEST(WebSystem, OnlyTheFixedNicRunsTheFullSystem) {
  // The Tigon and the SINIC paper's NICs do not execute the Fig 4.11 cache commands.
  for (const char* model : {"tigon", "sinic"}) {
    const std::string errors =
        api::validate(scenario(), dump_json(Json{{"system.nic.model", model}}));
    EXPECT_NE(errors.find("system.nic.model"), std::string::npos) << model << errors;
  }
}

}  // namespace
}  // namespace nicsim
