// The scenario's "compare" block (the A/B view): errors name the field; every preset's variants run
// with the scenario's seed.
#include <dirent.h>
#include <gtest/gtest.h>

#include "scenario/params.hpp"
#include "scenario/scenario.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::has_error;
using testing::minimal;

Json errors_with(const Json& compare) {
  return Json::parse(api::validate(minimal({{"compare", compare}}), ""), nullptr, false);
}

Json variant(const std::string& label, const Json& set = Json::object()) {
  return {{"label", label}, {"set", set}};
}

const Json kValid = {{"a", variant("33 MHz", {{"system.bus.clock_mhz", 33}})},
                     {"b", variant("66 MHz", {{"system.bus.clock_mhz", 66}})}};

TEST(Compare, AValidBlockPasses) {
  EXPECT_EQ(errors_with(kValid), Json::array());
  Json with_extras = kValid;
  with_extras["note"] = "the bus clock doubled";
  with_extras["metrics"] = {"udp_total_throughput", "bus_utilization"};
  EXPECT_EQ(errors_with(with_extras), Json::array());
  // B may leave everything as the scenario has it.
  EXPECT_EQ(
      errors_with({{"a", variant("A", {{"workload.datagram_bytes", 18}})}, {"b", variant("B")}}),
      Json::array());
}

TEST(Compare, ShapeErrorsNameTheField) {
  EXPECT_TRUE(has_error(errors_with("RELEASE"), "compare", "must be an object")) << "string";
  const Json no_b = errors_with({{"a", variant("A")}});
  EXPECT_TRUE(has_error(no_b, "compare.b", "is required")) << no_b.dump();
  Json extra = kValid;
  extra["c"] = variant("C");
  EXPECT_TRUE(has_error(errors_with(extra), "compare.c", "allowed: a, b, metrics, note"));
  Json bad_label = kValid;
  bad_label["a"]["label"] = "";
  EXPECT_TRUE(has_error(errors_with(bad_label), "compare.a.label", "1 to 40 characters"));
  Json bad_field = kValid;
  bad_field["b"]["colour"] = "red";
  EXPECT_TRUE(has_error(errors_with(bad_field), "compare.b.colour", "allowed: label, set"));
  Json bad_set = kValid;
  bad_set["b"]["set"] = Json::array();
  EXPECT_TRUE(has_error(errors_with(bad_set), "compare.b.set", "parameter path → value"));
}

TEST(Compare, UnknownParameterAndBadValueAreNamed) {
  Json unknown = kValid;
  unknown["b"]["set"]["system.tigon.firmwre"] = "parallel";
  const Json e = errors_with(unknown);
  EXPECT_TRUE(has_error(e, "compare.b.set", "unknown parameter 'system.tigon.firmwre'"))
      << e.dump();
  Json bad = kValid;
  bad["b"]["set"]["system.bus.clock_mhz"] = 50;
  const Json f = errors_with(bad);
  EXPECT_TRUE(has_error(f, "compare.b.set.system.bus.clock_mhz", "must be one of 33, 66"))
      << f.dump();
}

TEST(Compare, BothSidesShareTheSeed) {
  Json seed = kValid;
  seed["a"]["set"]["run.seed"] = 7;
  const Json e = errors_with(seed);
  EXPECT_TRUE(has_error(e, "compare.a.set.run.seed", "the scenario's seed")) << e.dump();
}

TEST(Compare, TheTwoSidesMustDiffer) {
  Json same_label = kValid;
  same_label["b"]["label"] = "33 MHz";
  EXPECT_TRUE(has_error(errors_with(same_label), "compare.b.label", "must differ"));
  // Equal settings, a setting equal to the scenario's own value, or to the default, against none.
  const Json same = errors_with({{"a", variant("A", {{"system.bus.clock_mhz", 66}})},
                                 {"b", variant("B", {{"system.bus.clock_mhz", 66}})}});
  EXPECT_TRUE(has_error(same, "compare.b.set", "nothing to compare")) << same.dump();
  const std::string scenario =
      minimal({{"workload", {{"datagram_bytes", 100}}},
               {"compare",
                {{"a", variant("A", {{"workload.datagram_bytes", 100}})}, {"b", variant("B")}}}});
  const Json own = Json::parse(api::validate(scenario, ""), nullptr, false);
  EXPECT_TRUE(has_error(own, "compare.b.set", "nothing to compare")) << own.dump();
  const Json def =
      errors_with({{"a", variant("A", {{"run.duration_us", find_param("run.duration_us")->def}})},
                   {"b", variant("B")}});
  EXPECT_TRUE(has_error(def, "compare.b.set", "nothing to compare")) << def.dump();
}

TEST(Compare, EachVariantMustBeAValidRun) {
  // Warm-up past the end of the run: a cross-field rule, named with the variant.
  const Json e =
      errors_with({{"a", variant("A")},
                   {"b", variant("short", {{"run.duration_us", 100}, {"run.warmup_us", 200}})}});
  EXPECT_TRUE(has_error(e, "run.warmup_us", "compare.b \"short\"")) << e.dump();
  // Without the block the same scenario is valid: the error is the variant's.
  EXPECT_EQ(api::validate(minimal(), ""), "[]");
}

TEST(Compare, MetricsMustBeReported) {
  Json m = kValid;
  m["metrics"] = {"udp_total_throughput", "throughput"};
  const Json e = errors_with(m);
  EXPECT_TRUE(has_error(e, "compare.metrics[1]", "unknown metric \"throughput\"")) << e.dump();
  m["metrics"] = Json::array();
  EXPECT_TRUE(has_error(errors_with(m), "compare.metrics", "1 to 12 metric names"));
}

// Each preset's variants run as the app runs them: the main run only (no sweep, no references),
// the variant's "set" as overrides, both with the scenario's seed, and they differ.
TEST(Compare, EveryPresetsVariantsRunWithTheSameSeed) {
  int presets = 0;
  DIR* dir = opendir(NICSIM_SCENARIOS_DIR);
  ASSERT_NE(dir, nullptr);
  while (dirent* ent = readdir(dir)) {
    const std::string name = ent->d_name;
    if (name.size() < 6 || name.substr(name.size() - 5) != ".json" ||
        name.find(".schema.") != std::string::npos)
      continue;
    Json doc = Json::parse(testing::preset(name.substr(0, name.size() - 5)), nullptr, false);
    if (!doc.contains("compare")) continue;
    ++presets;
    keep_main_run_only(&doc);
    const Json a =
        testing::run_ok(dump_json(doc), doc["compare"]["a"].value("set", Json::object()));
    const Json b =
        testing::run_ok(dump_json(doc), doc["compare"]["b"].value("set", Json::object()));
    EXPECT_EQ(a["seed"], b["seed"]) << name;
    EXPECT_NE(a["parameters"], b["parameters"]) << name;
    EXPECT_NE(a["results"], b["results"]) << name;
  }
  closedir(dir);
  EXPECT_GE(presets, 3);
}

}  // namespace
}  // namespace nicsim
