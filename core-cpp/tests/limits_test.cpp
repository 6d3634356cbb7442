// The limits every input is held to (scenario/limits.hpp), and the crashes hostile input used to
// cause: deep JSON (recursive copy and dump), a file cache reading freed memory, a request list
// sizing vectors by its largest file id, runs and work without bound, a narrowed integer.
#include "scenario/limits.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/api.hpp"
#include "host/web_server.hpp"
#include "scenario/params.hpp"
#include "test_util.hpp"
#include "workload/access_log.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {
namespace {

using testing::errors_of;
using testing::has_error;
using testing::minimal;

// [[[...]]] nested `depth` deep: far past any stack if copied or dumped recursively.
std::string deep_array(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}
constexpr std::size_t kDeep = 300000;

// A scenario with a sweep whose text has "@@" replaced by `value`.
std::string with_value(Json doc, const std::string& value) {
  std::string text = minimal(doc);
  const auto at = text.find("\"@@\"");
  EXPECT_NE(at, std::string::npos);
  return text.replace(at, 4, value);
}

Json swept(const Json& extra) {
  Json doc = {{"sweep", {{"parameter", "workload.datagram_bytes"}, {"values", {18, 1472}}}}};
  for (auto it = extra.begin(); it != extra.end(); ++it) doc[it.key()] = it.value();
  return doc;
}

Json reference(const Json& extra) {
  Json r = {{"id", "r"},          {"source", "s"},
            {"description", "d"}, {"metric", "udp_tx_throughput"},
            {"expected", 1},      {"comparison", "within"},
            {"tolerance", 0.1},   {"kind", "exact"}};
  for (auto it = extra.begin(); it != extra.end(); ++it) r[it.key()] = it.value();
  return r;
}

// Validation and a run both refuse, naming the field and the limit, and neither crashes.
void expect_deep_refused(const std::string& scenario, const std::string& overrides,
                         const std::string& path) {
  const Json e = errors_of(scenario, overrides);
  EXPECT_TRUE(has_error(e, path, "deeper than 64 levels")) << e.dump().substr(0, 400);
  const api::RunResult r = api::run(scenario, overrides);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.input_error);
}

TEST(Limits, DeepJsonIsRefusedBeforeItIsCopied) {
  expect_deep_refused(
      with_value(swept({{"reference", {reference({{"at", "@@"}})}}}), deep_array(kDeep)), "",
      "reference[0].at");
  expect_deep_refused(
      with_value(swept({{"reference", {reference({{"relative_to", {{"at", "@@"}}}})}}}),
                 deep_array(kDeep)),
      "", "reference[0].relative_to.at");
  expect_deep_refused(with_value({{"compare",
                                   {{"a", {{"label", "a"}, {"set", Json::object()}}},
                                    {"b", {{"label", "b"}, {"set", Json::object()}}},
                                    {"metrics", "@@"}}}},
                                 deep_array(kDeep)),
                      "", "compare.metrics");
  expect_deep_refused(
      with_value({{"sweep", {{"parameter", "no.such.parameter"}, {"values", {"@@"}}}}},
                 deep_array(kDeep)),
      "", "sweep.values");
  // The whole document, and an override.
  expect_deep_refused(deep_array(kDeep), "", "");
  expect_deep_refused(minimal(), "{\"workload.datagram_bytes\": " + deep_array(kDeep) + "}",
                      "workload.datagram_bytes");
}

TEST(Limits, DepthUpToTheLimitIsParsedAndNamedPathsSkipStrings) {
  // 64 levels in all is allowed (then refused for what it is, not for its depth).
  const std::string ok = with_value(swept({{"reference", {reference({{"at", "@@"}})}}}),
                                    deep_array(kMaxJsonDepth - 3));
  const Json e = errors_of(ok);
  EXPECT_FALSE(has_error(e, "reference[0].at", "deeper")) << e.dump();
  EXPECT_TRUE(has_error(e, "reference[0].at", "must be an object")) << e.dump();
  // Brackets inside strings do not count.
  std::string where;
  EXPECT_TRUE(json_depth_within("{\"a\": \"" + deep_array(1000) + "\"}", 64, &where));
  EXPECT_FALSE(json_depth_within("{\"a\": [1, {\"b\\\"c\": [[[]]]}]}", 4, &where));
  EXPECT_EQ(where, "a[1].b\\\"c");
}

TEST(Limits, SizesOfFilesAndStrings) {
  Json doc = {{"title", std::string(kMaxStringBytes + 1, 't')}};
  EXPECT_TRUE(has_error(errors_of(minimal(doc)), "title", "at most 4096"));
  doc = {{"tags", {"a", std::string(kMaxStringBytes + 1, 't')}}};
  EXPECT_TRUE(has_error(errors_of(minimal(doc)), "tags[1]", "at most 4096"));
  EXPECT_TRUE(has_error(errors_of(minimal(), "{\"workload.direction\": \"" +
                                                 std::string(kMaxStringBytes + 1, 's') + "\"}"),
                        "workload.direction", "at most 4096"));
  // A file over 1 MB, whatever it holds.
  std::string big = minimal();
  big.insert(big.size() - 1, std::string(kMaxScenarioBytes, ' '));
  EXPECT_TRUE(has_error(errors_of(big), "", "at most 1 MB"));
  EXPECT_TRUE(has_error(errors_of(minimal(), std::string(kMaxOverridesBytes + 1, ' ')), "overrides",
                        "at most 1 MB"));
}

TEST(Limits, FormatIsNotNarrowed) {
  for (const Json& f : {Json(4294967297ull), Json(-4294967295ll), Json(18446744073709551615ull)}) {
    Json doc = Json::parse(minimal(), nullptr, false);
    doc["format"] = f;
    EXPECT_TRUE(has_error(errors_of(dump_json(doc)), "format", "must be 1")) << f;
  }
  EXPECT_EQ(api::validate(minimal(), ""), "[]");
}

TEST(Limits, SweepRunsAreBounded) {
  Json values = Json::array(), series = Json::array();
  for (int v = 18; v < 18 + 200; ++v) values.push_back(v);
  for (int s = 1; s <= 3; ++s) series.push_back(s * 100);
  Json doc = {{"sweep",
               {{"parameter", "workload.datagram_bytes"},
                {"values", values},
                {"series", {{"parameter", "system.driver.send_ring_size"}, {"values", series}}}}}};
  const Json e = errors_of(minimal(doc));
  EXPECT_TRUE(has_error(e, "sweep.series.values", "= 600 runs; at most 400")) << e.dump();
  doc["sweep"]["series"]["values"] = {100, 200};
  EXPECT_FALSE(has_error(errors_of(minimal(doc)), "sweep.series.values", "runs")) << e.dump();
}

TEST(Limits, SimulatedWorkIsBounded) {
  Json values = Json::array();
  for (int v = 18; v < 18 + 60; ++v) values.push_back(v);
  Json doc = {{"run", {{"duration_us", 1000000}}},
              {"sweep", {{"parameter", "workload.datagram_bytes"}, {"values", values}}}};
  // 61 runs (the main run and 60 points) of 1 s.
  const Json e = errors_of(minimal(doc));
  EXPECT_TRUE(has_error(e, "sweep.values", "61 s of simulated time over 61 runs")) << e.dump();
  EXPECT_TRUE(has_error(e, "sweep.values", "at most 60 s")) << e.dump();
  values.erase(values.end() - 1);
  doc["sweep"]["values"] = values;
  EXPECT_EQ(errors_of(minimal(doc)), Json::array());
  // Web cache-only runs replay requests instead.
  Json web = {
      {"workload", {{"kind", "web"}, {"trace", "ibm"}, {"trace_requests", 15000000}}},
      {"system", {{"nic_cache", {{"kbytes", 1024}}}}},
      {"sweep",
       {{"parameter", "system.nic_cache.kbytes"}, {"values", {1024, 2048, 4096, 8192, 16384}}}}};
  // 6 runs of 15 million requests pass, 7 do not; a trace replays no more than it has (Rice:
  // 245,820).
  EXPECT_EQ(errors_of(minimal(web)), Json::array());
  web["sweep"]["values"] = {1024, 2048, 4096, 8192, 16384, 32768};
  const Json w = errors_of(minimal(web));
  EXPECT_TRUE(has_error(w, "sweep.values", "asks to replay 105000000 requests over 7 runs"))
      << w.dump();
  EXPECT_TRUE(has_error(w, "sweep.values", "at most 100000000"));
  web["workload"]["trace"] = "rice";
  web["workload"]["trace_requests"] = 0;
  EXPECT_EQ(errors_of(minimal(web)), Json::array());
}

TEST(Limits, EveryPresetIsWithinTheLimits) {
  for (const char* id : {"udp-throughput", "web-sendfile-vs-write", "web-cache-sizes",
                         "tigon-scratch-pads", "web-bus-cycles"}) {
    EXPECT_EQ(api::validate(testing::preset(id), ""), "[]") << id;
  }
}

// ---- request lists -------------------------------------------------------------------------

TEST(Limits, SummaryOfAHostileFileIdTakesNoMemory) {
  // Sized by its largest id, this list would need two vectors of 4 billion entries.
  const TraceSummary s = summarize({{4294967295u, 10}, {0, 5}, {4294967295u, 30}});
  EXPECT_EQ(s.requests, 3u);
  EXPECT_EQ(s.distinct_files, 2u);
  EXPECT_EQ(s.data_set_bytes, 35u);
  EXPECT_EQ(s.total_response_bytes, 45u);
  // A dense list gives the same as before.
  const TraceSummary d = summarize({{1, 10}, {0, 5}, {1, 30}});
  EXPECT_EQ(d.distinct_files, 2u);
  EXPECT_EQ(d.data_set_bytes, 35u);
}

std::string log_scenario(const Json& extra = Json::object()) {
  Json doc = {{"workload", {{"kind", "web"}, {"trace", "log"}}},
              {"system", {{"nic_cache", {{"kbytes", 1024}, {"block_bytes", 512}}}}}};
  for (auto it = extra.begin(); it != extra.end(); ++it) doc[it.key()] = it.value();
  return minimal(doc);
}

TEST(Limits, RequestListsAreCheckedBeforeTheyAreReplayed) {
  std::vector<WebRequest> log = {{0, 1000}, {4294967295u, 1000}};
  api::RunResult r = api::run(log_scenario(), "", &log);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.input_error);
  EXPECT_NE(r.json.find("request 2: file id 4294967295 is out of range"), std::string::npos)
      << r.json;
  log = {{0, 1000}, {1, 2000000000u}};
  r = api::run(log_scenario(), "", &log);
  EXPECT_TRUE(r.input_error);
  EXPECT_NE(r.json.find("allowed 1 to 1073741824"), std::string::npos) << r.json;
  // 1,100 responses of 1 GB in 512-byte blocks: 2.3 billion block references, refused at once
  // rather than replayed for minutes.
  log.assign(1100, WebRequest{0, 1u << 30});
  r = api::run(log_scenario(), "", &log);
  EXPECT_TRUE(r.input_error);
  EXPECT_NE(r.json.find("cache blocks; at most 1073741824"), std::string::npos) << r.json;
  // A log a scenario does not replay is not checked.
  log = {{4294967295u, 1000}};
  r = api::run(minimal(), "", &log);
  EXPECT_TRUE(r.ok) << r.json;
  // Within the limits it runs.
  log = {{0, 1000}, {1, 5000}, {0, 1000}};
  r = api::run(log_scenario(), "", &log);
  EXPECT_TRUE(r.ok) << r.json;
}

TEST(Limits, TheAccessLogParserRejectsResponsesOverTheLimit) {
  const AccessLog log = parse_access_log(
      "h - - [01/Jul/1995:00:00:01 -0400] \"GET /a.html HTTP/1.0\" 200 1000\n"
      "h - - [01/Jul/1995:00:00:02 -0400] \"GET /b.html HTTP/1.0\" 200 2000000000\n");
  EXPECT_EQ(log.report.accepted, 1u);
  EXPECT_EQ(log.report.rejected[static_cast<std::size_t>(LogReject::NoBytes)], 1u);
}

// ---- the web server's file cache -----------------------------------------------------------

TEST(FileLru, EvictionsReportTheEvictedFilesAndKeepTheByteCount) {
  FileLru lru;
  lru.capacity = 100;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> evicted;
  const std::uint32_t sizes[] = {30, 40, 20, 50, 60, 10, 90, 25};
  for (std::uint32_t f = 0; f < 8; ++f) lru.touch(f, sizes[f], &evicted);
  // Every eviction names a file with the size it was kept at (read before its entry is freed).
  ASSERT_FALSE(evicted.empty());
  std::uint64_t evicted_bytes = 0;
  for (const auto& [file, bytes] : evicted) {
    ASSERT_LT(file, 8u);
    EXPECT_EQ(bytes, sizes[file]) << "file " << file;
    evicted_bytes += bytes;
  }
  std::uint64_t kept = 0;
  for (const auto& [file, e] : lru.map) kept += e.bytes;
  EXPECT_EQ(lru.used, kept);
  EXPECT_LE(lru.used, lru.capacity);
  std::uint64_t all = 0;
  for (std::uint32_t b : sizes) all += b;
  EXPECT_EQ(kept + evicted_bytes, all);
  // A hit moves a file to the most recent end; a file larger than the cache is never kept.
  EXPECT_TRUE(lru.touch(7, 25, nullptr));
  EXPECT_FALSE(lru.touch(100, 500, nullptr));
  EXPECT_EQ(lru.map.count(100), 0u);
}

// ---- parameter choices ---------------------------------------------------------------------

TEST(Limits, EveryListedPartitionChoiceIsAccepted) {
  for (const ParamSpec& p : parameter_registry()) {
    const std::string path = p.path;
    if (path.rfind("system.tigon.partition.", 0) != 0) continue;
    for (const Json& c : p.choices) {
      Json doc = {{"system",
                   {{"nic", {{"model", "tigon"}}},
                    {"tigon", {{"firmware", "custom"}, {"semaphore", "as-needed"}}}}}};
      const Json e = errors_of(minimal(doc), dump_json(Json{{path, c}}));
      EXPECT_EQ(e, Json::array()) << path << " = " << c;
    }
  }
}

}  // namespace
}  // namespace nicsim
