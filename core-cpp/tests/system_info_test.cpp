// The output's "system" block: what the views know about the configured system comes from the
// core, so it must follow the configuration (the firmware's partition, the bus clock, the
// frame layout, the rings).
#include <gtest/gtest.h>

#include "nic/tigon/firmware.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::preset;
using testing::run_ok;

// A preset without its sweep, checks, tour and comparison (the block is the main run's).
std::string main_run_of(const std::string& id) {
  Json doc = Json::parse(preset(id));
  for (const char* k : {"sweep", "reference", "tour", "compare"}) doc.erase(k);
  return dump_json(doc);
}

std::vector<std::string> places(const Json& tigon) {
  std::vector<std::string> out;
  for (const auto& e : tigon["events"]) out.push_back(e["cpu"].get<std::string>());
  return out;
}

// Table 3.4, event order of firmware.hpp: SDR RC SBDR RBDR MB USC URRP DRC DWC.
const std::vector<std::string> kTable34 = {"B", "A", "B", "B", "A", "B", "A", "B", "A"};

TEST(SystemInfo, ParallelFirmwareRunsTable34OnTwoCpus) {
  const Json out = run_ok(preset("tigon-one-packet"));
  const Json& sys = out["system"];
  ASSERT_TRUE(sys.is_object());
  EXPECT_EQ(sys["nic_model"], "tigon");
  const Json& t = sys["tigon"];
  EXPECT_EQ(t["firmware"], "parallel");
  EXPECT_EQ(t["dispatch"], "static");
  EXPECT_EQ(places(t), kTable34);
  EXPECT_EQ(t["table_3_4"].get<std::vector<std::string>>(), kTable34);
  EXPECT_TRUE(t["cpus"][1]["runs"].get<bool>());
  // Each CPU's mask is its events' bits: CPU A has MB, DWC, RC, URRP.
  EXPECT_EQ(t["cpus"][0]["mask"].get<int>(), (1 << 1) | (1 << 4) | (1 << 6) | (1 << 8));
  EXPECT_EQ(t["cpus"][1]["mask"].get<int>(), 0x1ff & ~((1 << 1) | (1 << 4) | (1 << 6) | (1 << 8)));
  // Table 3.4 shares no DMA channel or data across the CPUs: no semaphore.
  for (const auto& e : t["events"]) EXPECT_FALSE(e["semaphore"].get<bool>()) << e["name"];
  EXPECT_EQ(t["events"][0]["name"], "SendDataReady");
  EXPECT_EQ(t["events"][0]["parameter"], "system.tigon.partition.send_data_ready");
  EXPECT_EQ(t["paths"].size(), static_cast<std::size_t>(kTigonPaths));
  EXPECT_GT(t["clock_ps"].get<std::int64_t>(), 0);
  EXPECT_EQ(sys["clocks_ps"]["tigon_cpu"], t["clock_ps"]);
}

TEST(SystemInfo, CustomPartitionParametersAppear) {
  const Json out =
      run_ok(preset("tigon-one-packet"), {{"system.tigon.firmware", "custom"},
                                          {"system.tigon.partition.mailbox", "B"},
                                          {"system.tigon.partition.send_data_ready", "both"}});
  const Json& t = out["system"]["tigon"];
  EXPECT_EQ(t["firmware"], "custom");
  std::vector<std::string> want = kTable34;
  want[4] = "B";     // Mailbox
  want[0] = "both";  // Send Data Ready: both CPUs, under the semaphore
  EXPECT_EQ(places(t), want);
  EXPECT_TRUE(t["events"][0]["semaphore"].get<bool>());
  EXPECT_EQ(t["cpus"][0]["mask"].get<int>() & 1, 1);
  EXPECT_EQ(t["cpus"][1]["mask"].get<int>() & (1 << 4), 1 << 4);
  // The firmware choices the editor offers, as the parameter's parser reads them.
  EXPECT_TRUE(t["firmware_choices"]["custom"]["partition"].is_null());
  EXPECT_EQ(
      t["firmware_choices"]["parallel-sram-code"]["partition"].get<std::vector<std::string>>(),
      kTable34);
  EXPECT_FALSE(t["firmware_choices"]["release-sram-both"]["cpu_b"].get<bool>());
}

TEST(SystemInfo, ReleaseRunsEverythingOnCpuAAndDynamicOnEither) {
  const Json rel = run_ok(preset("tigon-one-packet"), {{"system.tigon.firmware", "release"}});
  const Json& t = rel["system"]["tigon"];
  EXPECT_EQ(places(t), std::vector<std::string>(kTigonEvents, "A"));
  EXPECT_FALSE(t["cpus"][1]["runs"].get<bool>());
  EXPECT_EQ(t["cpus"][1]["mask"].get<int>(), 0);
  EXPECT_EQ(t["cpus"][0]["mask"].get<int>(), 0x1ff);

  const Json dyn = run_ok(preset("tigon-one-packet"), {{"system.tigon.firmware", "dynamic"}});
  const Json& d = dyn["system"]["tigon"];
  EXPECT_EQ(d["dispatch"], "dynamic");
  EXPECT_EQ(places(d), std::vector<std::string>(kTigonEvents, "either"));
  for (const auto& e : d["events"]) EXPECT_TRUE(e["semaphore"].get<bool>());
}

TEST(SystemInfo, BusClockAndRetryGapFollowTheConfiguration) {
  const Json at33 = run_ok(preset("pci-dma-read"), {{"system.bus.clock_mhz", 33}});
  const Json at66 = run_ok(preset("pci-dma-read"),
                           {{"system.bus.clock_mhz", 66}, {"system.bus.retry_gap_cycles", 4}});
  const Json& b33 = at33["system"]["bus"];
  const Json& b66 = at66["system"]["bus"];
  EXPECT_EQ(b33["cycle_ps"].get<std::int64_t>(), 30000);
  EXPECT_EQ(b66["cycle_ps"].get<std::int64_t>(), 15000);  // a 66 MHz bus halves the period
  EXPECT_EQ(at66["system"]["clocks_ps"]["bus"].get<std::int64_t>(), 15000);
  EXPECT_EQ(b66["retry_gap_cycles"].get<int>(), 4);
  EXPECT_EQ(b66["retry_gap_ps"].get<std::int64_t>(), 3 * 15000);  // REQ# back after gap − 1
  const Json& p = at33["parameters"]["system"]["bus"];
  EXPECT_EQ(b33["latency_timer_cycles"], p["latency_timer_cycles"]);
  EXPECT_EQ(b33["initial_latency_limit_cycles"], p["initial_latency_limit_cycles"]);
  EXPECT_EQ(b33["bridge_read_mbps"], p["bridge_read_mbps"]);
  EXPECT_TRUE(b33["mmrbc_bytes"].is_null());  // conventional PCI has no split reads
}

TEST(SystemInfo, RingsAndUdpFrameLayout) {
  const Json out = run_ok(preset("anatomy-of-a-send"), {{"system.driver.send_ring_size", 64}});
  const Json& sys = out["system"];
  EXPECT_TRUE(sys["tigon"].is_null());
  EXPECT_EQ(sys["rings"]["send"].get<int>(), 64);
  EXPECT_EQ(sys["rings"]["receive"], out["parameters"]["system"]["driver"]["receive_ring_size"]);
  EXPECT_EQ(sys["rings"]["send_bd_bytes"], out["parameters"]["system"]["nic"]["send_bd_bytes"]);
  const Json& f = sys["frame"];
  // 8 UDP + 20 IP + 14 Ethernet + 4 CRC (thesis §3.3.2).
  EXPECT_EQ(f["udp_header_bytes"].get<int>() + f["ip_header_bytes"].get<int>() +
                f["ethernet_header_bytes"].get<int>() + f["crc_bytes"].get<int>(),
            46);
  EXPECT_TRUE(f["tcp_header_bytes"].is_null());
  EXPECT_TRUE(f["crc_in_frame"].get<bool>());
  EXPECT_EQ(f["min_frame_bytes"].get<int>(), 64);
  EXPECT_EQ(f["preamble_bytes"], out["parameters"]["system"]["link"]["preamble_bytes"]);
}

TEST(SystemInfo, SinicFramesHaveTcpWithTimestampsAndNoCrc) {
  const Json out = run_ok(main_run_of("sinic-anatomy"), {{"run.duration_us", 300},
                                                         {"run.warmup_us", 100},
                                                         {"run.trace.start_us", 100},
                                                         {"run.trace.end_us", 120}});
  const Json& sys = out["system"];
  EXPECT_TRUE(sys["bus"].is_null());
  EXPECT_TRUE(sys["tigon"].is_null());
  EXPECT_EQ(sys["frame"]["tcp_header_bytes"].get<int>(), 32);
  EXPECT_FALSE(sys["frame"]["crc_in_frame"].get<bool>());
  const int ghz = out["parameters"]["system"]["host_cpu"]["ghz"].get<int>();
  EXPECT_EQ(sys["clocks_ps"]["host_cpu"].get<int>(), 1000 / ghz);
}

TEST(SystemInfo, WebSegmentsCarryTheServersHeaders) {
  const Json out = run_ok(main_run_of("web-anatomy-of-a-request"),
                          {{"run.duration_us", 6000}, {"run.trace.end_us", 5500}});
  const Json& f = out["system"]["frame"];
  EXPECT_EQ(f["segment_header_bytes"].get<int>(), 66);  // 14 Ethernet + 20 IP + 32 TCP
  EXPECT_EQ(f["tcp_header_bytes"].get<int>(), 32);
  EXPECT_TRUE(f["udp_header_bytes"].is_null());
}

}  // namespace
}  // namespace nicsim
