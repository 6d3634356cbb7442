// The full-system warm-up (the thesis §4.4.3: caches warmed before the measured run) is kept
// for the next runs with the same inputs: a run that finds it kept answers byte for byte as a
// run that warmed up itself.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "api/api.hpp"
#include "scenario/scenario.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

std::string scenario() {
  Json doc = Json::parse(testing::preset("web-nasa-cache"), nullptr, false);
  keep_main_run_only(&doc);
  return dump_json(doc);
}

api::RunResult run(const Json& overrides) {
  Json o = {{"run.duration_us", 6000},          {"run.warmup_us", 1000},
            {"run.trace.start_us", 1000},       {"run.trace.end_us", 3000},
            {"workload.trace_requests", 60000}, {"workload.warmup_requests", 30000}};
  for (auto it = overrides.begin(); it != overrides.end(); ++it) o[it.key()] = it.value();
  return api::run(scenario(), dump_json(o));
}

void expect_same(const api::RunResult& a, const api::RunResult& b) {
  ASSERT_TRUE(a.ok) << a.json;
  ASSERT_TRUE(b.ok) << b.json;
  EXPECT_EQ(a.json, b.json);
  ASSERT_EQ(a.trace.size(), b.trace.size());
  EXPECT_EQ(0, std::memcmp(a.trace.data(), b.trace.data(), a.trace.size() * sizeof(a.trace[0])));
}

// Five other warm-ups: more than are kept.
std::vector<Json> others(const Json& mine) {
  std::vector<Json> list;
  for (int kb : {0, 2048, 4096, 8192}) {
    Json o = mine;
    o["system.nic_cache.kbytes"] = kb;
    list.push_back(o);
  }
  Json o = mine;
  o["system.nic_cache.block_bytes"] = 8192;
  list.push_back(o);
  return list;
}

TEST(WebWarm, AKeptWarmUpGivesTheSameRunAsAFreshOne) {
  for (const char* api : {"sendfile", "write"}) {
    const Json mine = {{"system.server.send_api", api}, {"system.nic_cache.kbytes", 16384}};
    const api::RunResult fresh = run(mine);
    // Other warm-ups in between (more than are kept), then the same inputs again.
    for (const Json& other : others(mine)) ASSERT_TRUE(run(other).ok) << run(other).json;
    const api::RunResult again_fresh = run(mine);
    const api::RunResult kept = run(mine);
    expect_same(fresh, again_fresh);
    expect_same(fresh, kept);
    // A knob of the timed run only (the CPU's clock) keeps the warm-up and still answers as
    // a run that warmed up itself.
    Json faster = mine;
    faster["system.server.cpu_mhz"] = 2400;
    const api::RunResult kept_faster = run(faster);
    for (const Json& other : others(mine)) ASSERT_TRUE(run(other).ok) << run(other).json;
    expect_same(kept_faster, run(faster));
  }
}

}  // namespace
}  // namespace nicsim
