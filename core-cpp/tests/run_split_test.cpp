// run() split in three (run_main, run_point, finish) so that sweep points can run in parallel
// module instances: put back together through their JSON text, in any order of completion, the
// parts give run()'s document byte for byte, on every preset. And run() on several threads gives
// the document of its points run one after another.
#include <dirent.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "api/system.hpp"
#include "scenario/scenario.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

std::vector<std::string> preset_ids() {
  std::vector<std::string> ids;
  if (DIR* dir = opendir(NICSIM_SCENARIOS_DIR)) {
    while (dirent* ent = readdir(dir)) {
      const std::string name = ent->d_name;
      const std::string ext = ".json";
      if (name.size() > ext.size() &&
          name.compare(name.size() - ext.size(), ext.size(), ext) == 0 &&
          name.find(".schema.") == std::string::npos) {
        ids.push_back(name.substr(0, name.size() - ext.size()));
      }
    }
    closedir(dir);
  }
  return ids;
}

// The parts put together as the web's worker pool does: points computed last to first.
api::RunResult composed(const std::string& text, const std::string& overrides,
                        const std::vector<WebRequest>* log) {
  api::RunResult main = api::run_main(text, overrides, log);
  if (!main.ok) return main;
  const Json doc = Json::parse(main.json, nullptr, false);
  if (!doc.contains("pending")) return main;
  const std::size_t n = doc["pending"]["sweep_points"].size();
  std::vector<std::string> entries(n);
  for (std::size_t i = n; i-- > 0;) {
    api::RunResult p = api::run_point(text, overrides, i, log);
    if (!p.ok) return p;
    entries[i] = p.json;
  }
  auto joined = [&](long as_null) {
    std::string j = "[";
    for (std::size_t i = 0; i < n; ++i)
      j += (i ? "," : "") + (static_cast<long>(i) == as_null ? std::string("null") : entries[i]);
    return j + "]";
  };
  api::RunResult done = api::finish(text, overrides, main.json, joined(-1));
  // The pool sends null for the point the main run answered: finish takes the main run's entry.
  if (doc["pending"].contains("main_point")) {
    const long k = doc["pending"]["main_point"]["index"].get<long>();
    EXPECT_EQ(api::finish(text, overrides, main.json, joined(k)).json, done.json) << k;
  }
  done.trace = std::move(main.trace);
  return done;
}

TEST(RunSplit, ComposedPartsEqualRunOnEveryPreset) {
  const auto ids = preset_ids();
  ASSERT_GE(ids.size(), 4u);
  std::vector<WebRequest> log;
  for (std::uint32_t i = 0; i < 4000; ++i) log.push_back({(i * 7919u) % (1 + i % 400), 5000});
  for (const auto& id : ids) {
    const std::string text = testing::preset(id);
    // On three threads (more than this machine's cores): the parts are run one after another.
    const api::RunResult whole = api::run(text, "", &log, 3);
    const api::RunResult parts = composed(text, "", &log);
    ASSERT_TRUE(whole.ok) << id << ": " << whole.json;
    ASSERT_TRUE(parts.ok) << id << ": " << parts.json;
    EXPECT_EQ(parts.json, whole.json) << id;
    ASSERT_EQ(parts.trace.size(), whole.trace.size()) << id;
    // memcmp on an empty trace would pass null pointers (undefined behaviour, UBSan says so).
    if (!whole.trace.empty()) {
      EXPECT_EQ(std::memcmp(parts.trace.data(), whole.trace.data(),
                            whole.trace.size() * sizeof(TraceRecord)),
                0)
          << id;
    }
  }
}

// However many threads share a sweep, and whichever runs which point (each keeps its own traces
// and warm-ups), the document and the trace are those of one thread: points of one web trace and
// of several, a sweep without setups, and a scenario whose main run is one of its points.
TEST(RunSplit, AnyNumberOfWorkersGivesTheSameDocument) {
  const struct {
    const char* id;
    const char* overrides;
  } cases[] = {
      {"udp-throughput", R"({"run.duration_us": 3000, "run.warmup_us": 1000,
                             "run.trace.start_us": 1000, "run.trace.end_us": 1020})"},
      {"web-sendfile-vs-write", R"({"workload.trace_requests": 6000, "workload.warmup_requests":
                                    1000, "run.duration_us": 3000, "run.warmup_us": 1000,
                                    "run.trace.start_us": 1000, "run.trace.end_us": 1020})"},
      {"web-cache-sizes",
       R"({"workload.trace_requests": 20000, "workload.warmup_requests": 2000})"},
  };
  for (const auto& c : cases) {
    const std::string text = testing::preset(c.id);
    const api::RunResult one = api::run(text, c.overrides, nullptr, 1);
    ASSERT_TRUE(one.ok) << c.id << ": " << one.json.substr(0, 300);
    ASSERT_FALSE(Json::parse(one.json, nullptr, false)["sweep"].empty()) << c.id;
    for (const unsigned workers : {2u, 3u, 7u}) {
      const api::RunResult many = api::run(text, c.overrides, nullptr, workers);
      EXPECT_EQ(many.json, one.json) << c.id << " on " << workers;
      ASSERT_EQ(many.trace.size(), one.trace.size()) << c.id << " on " << workers;
      if (!one.trace.empty()) {
        EXPECT_EQ(std::memcmp(many.trace.data(), one.trace.data(),
                              one.trace.size() * sizeof(TraceRecord)),
                  0)
            << c.id << " on " << workers;
      }
    }
  }
}

// A worker keeps the scenario its last point loaded for the next point of the same sweep: a
// point's entry is the same whatever was run before it (other overrides, a replayed log).
TEST(RunSplit, APointIsTheSameWhateverRanBeforeIt) {
  const std::string text = testing::preset("udp-throughput");
  const std::string x = R"({"run.duration_us": 3000, "run.warmup_us": 1000})";
  const std::string y = R"({"run.duration_us": 4000, "run.warmup_us": 1000})";
  std::vector<WebRequest> log;
  for (std::uint32_t i = 0; i < 100; ++i) log.push_back({i, 5000});
  const std::size_t n =
      Json::parse(api::run_main(text, x, nullptr).json, nullptr, false)["pending"]["sweep_points"]
          .size();
  ASSERT_GE(n, 4u);
  auto point = [&](const std::string& overrides, std::size_t i,
                   const std::vector<WebRequest>* replay) {
    const api::RunResult r = api::run_point(text, overrides, i, replay);
    EXPECT_TRUE(r.ok) << r.json;
    return r.json;
  };
  // Alternating: every point is loaded afresh. In a row: each after one of its own sweep.
  std::vector<std::string> x_alternating, y_alternating, x_in_row, y_in_row, x_after_log;
  for (std::size_t i = 0; i < n; ++i) {
    x_alternating.push_back(point(x, i, nullptr));
    y_alternating.push_back(point(y, i, nullptr));
  }
  for (std::size_t i = 0; i < n; ++i) x_in_row.push_back(point(x, i, nullptr));
  for (std::size_t i = 0; i < n; ++i) y_in_row.push_back(point(y, i, nullptr));
  for (std::size_t i = 0; i < n; ++i) {
    point(x, i, &log);  // udp ignores the log; the point is loaded with it, then without
    x_after_log.push_back(point(x, i, nullptr));
  }
  EXPECT_EQ(x_in_row, x_alternating);
  EXPECT_EQ(y_in_row, y_alternating);
  EXPECT_EQ(x_after_log, x_alternating);
  EXPECT_NE(x_in_row, y_in_row);  // the overrides reach the points
}

TEST(RunSplit, MainRunListsThePointsAndLeavesTheChecksPending) {
  const std::string text = testing::preset("udp-throughput");
  const Json main = Json::parse(api::run_main(text, "").json, nullptr, false);
  ASSERT_TRUE(main.contains("pending")) << main.dump();
  EXPECT_TRUE(main["sweep"].empty());
  EXPECT_TRUE(main["checks"].empty());
  const Json whole = testing::run_ok(text);
  const Json& points = main["pending"]["sweep_points"];
  ASSERT_EQ(points.size(), whole["sweep"].size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i]["value"], whole["sweep"][i]["value"]) << i;
  }
  EXPECT_EQ(main["pending"]["checks"], whole["checks"].size());
}

// A scenario that sets its swept parameters to one of their values runs that point as its main
// run: the main run hands over that point's entry, and it is the entry run_point computes (the
// trace the main run records changes no result, its opening snapshot not even the event count).
TEST(RunSplit, TheMainRunAnswersTheSweepPointWithItsParameters) {
  const struct {
    const char* id;
    std::size_t index;
  } cases[] = {{"udp-throughput", 32},     {"tigon-ip-router", 5},
               {"sinic-fifo-size", 3},     {"web-anatomy-of-a-request", 1},
               {"web-cache-sizes", 31},    {"offload-batching-dial", 13},
               {"protocol-one-packet", 4}, {"eta-never-sleeps", 0}};
  for (const auto& c : cases) {
    const std::string text = testing::preset(c.id);
    const api::RunResult main = api::run_main(text, "");
    ASSERT_TRUE(main.ok) << c.id << ": " << main.json;
    const Json doc = Json::parse(main.json, nullptr, false);
    ASSERT_TRUE(doc.contains("pending")) << c.id;
    ASSERT_TRUE(doc["pending"].contains("main_point")) << c.id;
    const Json& mp = doc["pending"]["main_point"];
    EXPECT_EQ(mp["index"], c.index) << c.id;
    const api::RunResult point = api::run_point(text, "", c.index);
    ASSERT_TRUE(point.ok) << c.id << ": " << point.json;
    EXPECT_EQ(dump_json(mp["entry"]), point.json) << c.id;
  }
  // Overrides that move the swept parameter off every sweep value: no point is the main run.
  const std::string udp = testing::preset("udp-throughput");
  const Json off =
      Json::parse(api::run_main(udp, R"({"workload.datagram_bytes": 19})").json, nullptr, false);
  ASSERT_TRUE(off.contains("pending")) << off.dump().substr(0, 300);
  EXPECT_FALSE(off["pending"].contains("main_point"));
  // The same number written as a float is another input: not taken for the point's value.
  const Json as_float = Json::parse(
      api::run_main(udp, R"({"workload.datagram_bytes": 1472.0})").json, nullptr, false);
  ASSERT_TRUE(as_float.contains("pending")) << as_float.dump().substr(0, 300);
  EXPECT_FALSE(as_float["pending"].contains("main_point"));
}

// The main run names what each sweep point's run builds first and keeps (a web run's generated
// trace): the points of one trace share it, other traces and non-web sweeps do not, and the main
// run's own is its point's. The pool gives the points that share it to one instance.
TEST(RunSplit, TheMainRunNamesWhatEachPointBuildsAndKeeps) {
  const auto pending = [](const std::string& id, const std::string& overrides) {
    const api::RunResult main = api::run_main(testing::preset(id), overrides);
    EXPECT_TRUE(main.ok) << id << ": " << main.json.substr(0, 300);
    return Json::parse(main.json, nullptr, false)["pending"];
  };
  // web-cpu-bound-traces: 4 NIC cache sizes within each of 3 traces (series).
  const Json web = pending("web-cpu-bound-traces", "");
  const Json& setups = web["setups"];
  ASSERT_EQ(setups.size(), web["sweep_points"].size());
  for (std::size_t i = 0; i < setups.size(); ++i) {
    const Json& p = web["sweep_points"][i];
    ASSERT_TRUE(setups[i].is_string());
    EXPECT_NE(setups[i].get<std::string>().find(p["series"].get<std::string>()), std::string::npos)
        << i << " " << setups[i];
    for (std::size_t j = 0; j < setups.size(); ++j) {
      EXPECT_EQ(setups[i] == setups[j], p["series"] == web["sweep_points"][j]["series"])
          << i << " " << j;
    }
  }
  EXPECT_EQ(web["main_setup"], setups[web["main_point"]["index"].get<std::size_t>()]);
  // Another trace seed draws other traces: another key. The run's seed draws no trace: the
  // same key.
  const Json drawn = pending("web-cpu-bound-traces", R"({"workload.trace_seed": 2})");
  EXPECT_NE(drawn["setups"][0], setups[0]);
  const Json seeded = pending("web-cpu-bound-traces", R"({"run.seed": 2})");
  EXPECT_EQ(seeded["setups"], setups);
  // web-bus-cycles sweeps the trace and, as series, the bus clock: a trace's points share it
  // across the series.
  const Json bus = pending("web-bus-cycles", "");
  const std::size_t traces = bus["sweep_points"].size() / 2;
  for (std::size_t i = 0; i < traces; ++i) EXPECT_EQ(bus["setups"][i], bus["setups"][i + traces]);
  EXPECT_NE(bus["setups"][0], bus["setups"][1]);
  // Nothing generated, nothing to share.
  const Json udp = pending("udp-throughput", "");
  for (const Json& k : udp["setups"]) EXPECT_EQ(k, "");
  EXPECT_EQ(udp["main_setup"], "");
}

// The main run sets only the swept values on its own configuration to name a point's setup; on
// every preset's sweep that names what the point's complete configuration (the one its run
// uses: every default, then the scenario's parameters and the point's values) would.
TEST(RunSplit, EveryPointsSetupIsItsCompleteConfigurationsOwn) {
  const char* const kShortWindow =
      R"({"run.duration_us": 400, "run.warmup_us": 200, "run.sample_interval_us": 100,
          "run.trace.start_us": 200, "run.trace.end_us": 210})";
  int checked = 0;
  for (const std::string& id : preset_ids()) {
    Scenario s;
    ASSERT_TRUE(load_scenario(testing::preset(id), "", &s).empty()) << id;
    if (!s.sweep.present) continue;
    std::vector<std::string> expected;
    std::vector<Json> series = s.sweep.series_values;
    if (series.empty()) series.push_back(Json());
    for (const Json& sv : series) {
      for (const Json& v : s.sweep.values)
        expected.push_back(shared_setup(sweep_point_config(s, v, sv)));
    }
    if (s.config.workload.trace_from_log) continue;  // refused without a log (tested above)
    // A short window: what is compared is named before the run, not by it.
    const api::RunResult main = api::run_main(testing::preset(id), kShortWindow);
    ASSERT_TRUE(main.ok) << id << ": " << main.json.substr(0, 300);
    ++checked;
    const Json doc = Json::parse(main.json, nullptr, false);
    ASSERT_EQ(doc["pending"]["setups"].size(), expected.size()) << id;
    for (std::size_t i = 0; i < expected.size(); ++i)
      EXPECT_EQ(doc["pending"]["setups"][i], expected[i]) << id << " point " << i;
  }
  EXPECT_GE(checked, 30);  // every preset with a sweep but the log replay
}

TEST(RunSplit, WithoutASweepTheMainRunIsTheWholeDocument) {
  const std::string text = testing::minimal();
  const api::RunResult main = api::run_main(text, "");
  ASSERT_TRUE(main.ok) << main.json;
  EXPECT_EQ(main.json, api::run(text, "").json);
}

TEST(RunSplit, BadPartsAreRefusedNamingWhatIsWrong) {
  const std::string text = testing::preset("udp-throughput");
  const api::RunResult none = api::run_point(text, "", 100000);
  EXPECT_FALSE(none.ok);
  EXPECT_NE(none.json.find("no sweep point 100000"), std::string::npos) << none.json;
  const api::RunResult main = api::run_main(text, "");
  const api::RunResult few = api::finish(text, "", main.json, "[]");
  EXPECT_FALSE(few.ok);
  EXPECT_NE(few.json.find("sweep entries for"), std::string::npos) << few.json;
  // null stands only for the point the main run answered (udp-throughput's is the last).
  std::string nulls = "[";
  for (std::size_t i = 0; i < 33; ++i) nulls += i ? ",null" : "null";
  const api::RunResult holes = api::finish(text, "", main.json, nulls + "]");
  EXPECT_FALSE(holes.ok);
  EXPECT_NE(holes.json.find("entry 0 is not sweep point 0"), std::string::npos) << holes.json;
  const api::RunResult junk = api::finish(text, "", "{}", "[]");
  EXPECT_FALSE(junk.ok);
  EXPECT_NE(junk.json.find("\"main\""), std::string::npos) << junk.json;
  // Input errors come as for run(), naming the field.
  const api::RunResult bad = api::run_point(text, R"({"system.bus.width_bits": -1})", 0);
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.json.find("system.bus.width_bits"), std::string::npos) << bad.json;
}

}  // namespace
}  // namespace nicsim
