// A model reports only its own metrics (absent, not 0), exactly those model_reports names, and
// a scenario's reference may name only those.
#include "scenario/model_metrics.hpp"

#include <dirent.h>
#include <gtest/gtest.h>

#include <set>

#include "scenario/scenario.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::errors_of;
using testing::has_error;
using testing::preset;

std::vector<std::string> preset_ids() {
  std::vector<std::string> ids;
  DIR* d = opendir(NICSIM_SCENARIOS_DIR);
  if (d == nullptr) return ids;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0 && n != "scenario.schema.json")
      ids.push_back(n.substr(0, n.size() - 5));
  }
  closedir(d);
  return ids;
}

// The metric names a run of `doc` with `overrides` reports, and the config it ran.
void run_names(const Json& doc, const Json& overrides, std::set<std::string>* names, Config* cfg) {
  const std::string text = dump_json(doc);
  Scenario s;
  ASSERT_TRUE(load_scenario(text, dump_json(overrides), &s).empty());
  *cfg = s.config;
  const api::RunResult r = api::run(text, dump_json(overrides));
  ASSERT_TRUE(r.ok) << r.json;
  const Json out = Json::parse(r.json);
  for (auto it = out["results"].begin(); it != out["results"].end(); ++it) names->insert(it.key());
}

void expect_exactly(const std::set<std::string>& names, const Config& cfg,
                    const std::string& what) {
  for (const auto& m : result_metrics()) {
    EXPECT_EQ(names.count(m.name) == 1, model_reports(cfg, m.name)) << what << ": " << m.name;
  }
}

TEST(ModelMetrics, EveryPresetReportsExactlyItsModelsMetrics) {
  const auto ids = preset_ids();
  ASSERT_GT(ids.size(), 30u);
  for (const auto& id : ids) {
    Json doc = Json::parse(preset(id));
    keep_main_run_only(&doc);
    Json overrides = Json::object();
    if (id == "web-access-log") overrides["workload.trace"] = "nasa";  // no log loaded here
    // Short runs: the metric names do not depend on the length.
    overrides["run.duration_us"] = 300;
    overrides["run.warmup_us"] = 100;
    overrides["run.trace.start_us"] = 100;
    overrides["run.trace.end_us"] = 110;
    overrides["run.sample_interval_us"] = 50;
    std::set<std::string> names;
    Config cfg;
    run_names(doc, overrides, &names, &cfg);
    expect_exactly(names, cfg, id);
  }
}

TEST(ModelMetrics, EveryUdpFamilyVariantReportsExactlyItsModelsMetrics) {
  Json doc = Json::parse(preset("udp-throughput"));
  keep_main_run_only(&doc);
  int ran = 0;
  for (const char* kind : {"udp", "tcp-segments", "cpu-benchmark"}) {
    for (const char* nic : {"fixed", "tigon"}) {
      Json overrides = {{"workload.kind", kind},     {"system.nic.model", nic},
                        {"run.duration_us", 300},    {"run.warmup_us", 100},
                        {"run.trace.start_us", 100}, {"run.trace.end_us", 110}};
      if (std::string(kind) == "tcp-segments") overrides["workload.direction"] = "send";
      if (errors_of(dump_json(doc), dump_json(overrides)).size() > 0) continue;  // not a pair
      ++ran;
      std::set<std::string> names;
      Config cfg;
      run_names(doc, overrides, &names, &cfg);
      expect_exactly(names, cfg, std::string(kind) + " on " + nic);
      EXPECT_EQ(names.count("web_throughput"), 0u);  // once reported as 0 here
    }
  }
  EXPECT_EQ(ran, 5);  // all but the benchmark on the fixed-function NIC
}

TEST(ModelMetrics, AReferenceMayNameOnlyAMetricItsModelReports) {
  Json doc = Json::parse(preset("udp-throughput"));
  Json ref = doc["reference"][0];
  ref["metric"] = "tigon_cpu_a_utilization";  // the preset runs the fixed-function NIC
  doc["reference"] = Json::array({ref});
  doc.erase("tour");
  EXPECT_TRUE(has_error(errors_of(dump_json(doc)), "reference[0].metric",
                        "'tigon_cpu_a_utilization' is not a metric this run's model reports"))
      << errors_of(dump_json(doc));
  // The same reference at a sweep point on the Tigon is fine (tigon-vs-asic's series).
  Json t = Json::parse(preset("tigon-vs-asic"));
  Json tr = t["reference"][0];
  tr["metric"] = "tigon_cpu_a_utilization";
  tr["at"] = {{"workload.datagram_bytes", 1472}, {"system.nic.model", "tigon"}};
  tr.erase("relative_to");
  t["reference"] = Json::array({tr});
  t.erase("tour");
  EXPECT_EQ(errors_of(dump_json(t)).size(), 0u) << errors_of(dump_json(t));
  tr["at"]["system.nic.model"] = "fixed";
  t["reference"] = Json::array({tr});
  EXPECT_TRUE(has_error(errors_of(dump_json(t)), "reference[0].metric", "tigon_cpu_a_utilization"));
}

}  // namespace
}  // namespace nicsim
