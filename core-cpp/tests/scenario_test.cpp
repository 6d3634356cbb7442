// Bad input gets a message that names the field and the allowed values; presets all run.
#include "scenario/scenario.hpp"

#include <dirent.h>
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "scenario/params.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::errors_of;
using testing::has_error;
using testing::minimal;

TEST(Validation, MinimalScenarioIsValid) { EXPECT_EQ(api::validate(minimal(), ""), "[]"); }

TEST(Validation, MalformedJsonNamesLineAndColumn) {
  const Json e = errors_of("{\n  \"format\": 1,\n  \"id\": oops\n}");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0]["message"].get<std::string>().find("line 3"), std::string::npos) << e.dump();
}

TEST(Validation, UnknownFieldListsTheAllowedOnes) {
  const Json e = errors_of(minimal({{"system", {{"bus", {{"clock", 33}}}}}}));
  EXPECT_TRUE(has_error(e, "system.bus.clock",
                        "allowed: arbitration_cycles, bridge_read_mbps, buffers_above_4gb,"))
      << e.dump();
  EXPECT_TRUE(has_error(errors_of(minimal({{"colour", "red"}})), "colour", "unknown field"))
      << e.dump();
}

TEST(Validation, OutOfRangeNamesTheRange) {
  const Json e = errors_of(minimal({{"workload", {{"datagram_bytes", 5000}}}}));
  EXPECT_TRUE(has_error(e, "workload.datagram_bytes", "allowed 18 to 1472 bytes")) << e.dump();
}

TEST(Validation, ChoiceNamesTheChoices) {
  const Json e = errors_of(minimal({{"system", {{"bus", {{"clock_mhz", 50}}}}}}));
  EXPECT_TRUE(has_error(e, "system.bus.clock_mhz", "must be one of 33, 66, 100, 133")) << e.dump();
  const Json d = errors_of(minimal({{"workload", {{"direction", "sideways"}}}}));
  EXPECT_TRUE(has_error(d, "workload.direction", "\"send\", \"receive\", \"bidirectional\""))
      << d.dump();
}

TEST(Validation, BusParametersTheHardwareCannotHaveAreRefused) {
  const Json bus =
      errors_of(minimal({{"system", {{"bus", {{"width_bits", 48}, {"clock_mhz", 0}}}}}}));
  EXPECT_TRUE(has_error(bus, "system.bus.width_bits", "must be one of 32, 64 (bits), got 48"))
      << bus.dump();
  EXPECT_TRUE(
      has_error(bus, "system.bus.clock_mhz", "must be one of 33, 66, 100, 133 (MHz), got 0"))
      << bus.dump();
  const Json burst = errors_of(minimal(), R"({"system.nic.dma_max_burst_bytes": 0})");
  EXPECT_TRUE(
      has_error(burst, "system.nic.dma_max_burst_bytes",
                "must be one of 4, 16, 32, 64, 128, 256, 1024, \"unlimited\" (bytes), got 0"))
      << burst.dump();
  const Json pci133 = errors_of(minimal({{"system", {{"bus", {{"clock_mhz", 133}}}}}}));
  EXPECT_TRUE(has_error(pci133, "system.bus.clock_mhz", "conventional PCI runs at 33 or 66 MHz"))
      << pci133.dump();
  const Json pcix33 =
      errors_of(minimal({{"system", {{"bus", {{"clock_mhz", 33}, {"protocol", "pci-x"}}}}}}));
  EXPECT_TRUE(has_error(pcix33, "system.bus.clock_mhz", "PCI-X runs at 66, 100 or 133 MHz"))
      << pcix33.dump();
}

TEST(Validation, WrongTypeIsNamed) {
  const Json e = errors_of(minimal({{"run", {{"duration_us", "long"}}}}));
  EXPECT_TRUE(has_error(e, "run.duration_us", "must be a number")) << e.dump();
  const Json f = errors_of(minimal({{"workload", {{"packets", 1.5}}}}));
  EXPECT_TRUE(has_error(f, "workload.packets", "whole number")) << f.dump();
  const Json g = errors_of(minimal({{"system", 3}}));
  EXPECT_TRUE(has_error(g, "system", "must be an object")) << g.dump();
}

TEST(Validation, MissingRequiredFieldsAndBadFormat) {
  const Json e = errors_of(R"({"format": 2})");
  EXPECT_TRUE(has_error(e, "format", "must be 1"));
  EXPECT_TRUE(has_error(e, "id", "required"));
  EXPECT_TRUE(has_error(e, "title", "required"));
  EXPECT_TRUE(has_error(errors_of("[1,2]"), "", "JSON object"));
}

TEST(Validation, CrossFieldRules) {
  const Json e = errors_of(minimal({{"run", {{"duration_us", 100}, {"warmup_us", 200}}}}));
  EXPECT_TRUE(has_error(e, "run.warmup_us", "less than run.duration_us")) << e.dump();
  const Json f = errors_of(minimal(
      {{"system", {{"driver", {{"receive_ring_size", 16}, {"receive_buffers_posted", 16}}}}}}));
  EXPECT_TRUE(has_error(f, "system.driver.receive_buffers_posted", "at most")) << f.dump();
}

TEST(Validation, OverridesAreValidatedAgainstTheSameRegistry) {
  EXPECT_TRUE(has_error(errors_of(minimal(), R"({"system.bus.speed": 1})"), "system.bus.speed",
                        "unknown parameter"));
  EXPECT_TRUE(has_error(errors_of(minimal(), R"({"system.bus.width_bits": 48})"),
                        "system.bus.width_bits", "32, 64"));
  EXPECT_TRUE(has_error(errors_of(minimal(), "{oops"), "overrides", "not valid JSON"));
  EXPECT_EQ(api::validate(minimal(), R"({"system.bus.width_bits": 32})"), "[]");
}

TEST(Validation, SweepAndReferenceAreChecked) {
  const Json e = errors_of(
      minimal({{"sweep", {{"parameter", "workload.datagram_bytes"}, {"values", {18, 9000}}}}}));
  EXPECT_TRUE(has_error(e, "sweep.values[1]", "allowed 18 to 1472")) << e.dump();
  const Json f =
      errors_of(minimal({{"sweep", {{"parameter", "workload.nothing"}, {"values", {1}}}}}));
  EXPECT_TRUE(has_error(f, "sweep.parameter", "unknown parameter")) << f.dump();
  const Json ref = {{"id", "r"},         {"source", "s"},  {"description", "d"},
                    {"metric", "speed"}, {"expected", 1},  {"comparison", "within"},
                    {"tolerance", 0.1},  {"kind", "exact"}};
  const Json g = errors_of(minimal({{"reference", {ref}}}));
  EXPECT_TRUE(has_error(g, "reference[0].metric", "unknown metric 'speed'")) << g.dump();
}

TEST(Validation, ChartMetricsAreChecked) {
  const Json good = {{"y", "web_throughput"}, {"also", {"web_request_rate_trace_mix"}}};
  EXPECT_EQ(errors_of(minimal({{"chart", good}})).size(), 0u);
  const Json e = errors_of(minimal({{"chart", {{"y", "web_throughput"}, {"also", {"speed", 3}}}}}));
  EXPECT_TRUE(has_error(e, "chart.also[0]", "result metric")) << e.dump();
  EXPECT_TRUE(has_error(e, "chart.also[1]", "result metric")) << e.dump();
  const Json f = errors_of(minimal({{"chart", {{"y", "web_throughput"}, {"also", "web"}}}}));
  EXPECT_TRUE(has_error(f, "chart.also", "must be an array")) << f.dump();
}

TEST(References, RelativeClaimsCompareTwoSweepPoints) {
  const Json sweep = {{"parameter", "system.bus.clock_mhz"}, {"values", {33, 66}}};
  auto claim = [&](double factor, const char* comparison) {
    return Json{{"id", "r"},
                {"source", "s"},
                {"description", "d"},
                {"metric", "bus_utilization"},
                {"at", {{"system.bus.clock_mhz", 66}}},
                {"relative_to", {{"at", {{"system.bus.clock_mhz", 33}}}}},
                {"expected", factor},
                {"comparison", comparison},
                {"tolerance", 0},
                {"kind", "qualitative"}};
  };
  Json second = claim(0.1, "at_most");
  second["id"] = "r2";  // ids are unique within a scenario
  const std::string text = minimal({{"workload", {{"datagram_bytes", 64}}},
                                    {"sweep", sweep},
                                    {"reference", {claim(1.0, "at_most"), second}}});
  const Json out = testing::run_ok(text);
  ASSERT_EQ(out["checks"].size(), 2u);
  const Json& ok = out["checks"][0];
  EXPECT_TRUE(ok["pass"].get<bool>()) << ok.dump();  // a faster bus is less busy
  EXPECT_DOUBLE_EQ(ok["expected"].get<double>(), ok["relative_to"]["value"].get<double>());
  EXPECT_FALSE(out["checks"][1]["pass"].get<bool>()) << "a claim that cannot hold must fail";
  Json bad = claim(1.0, "at_most");
  bad["relative_to"] = {{"at", {{"system.bus.clock_mhz", 100}}}, {"metric", "speed"}};
  const Json e = errors_of(minimal({{"sweep", sweep}, {"reference", {bad}}}));
  EXPECT_TRUE(has_error(e, "reference[0].relative_to.at.system.bus.clock_mhz",
                        "not among the sweep's values"))
      << e.dump();
  EXPECT_TRUE(has_error(e, "reference[0].relative_to.metric", "known metric")) << e.dump();
}

TEST(Validation, BadInputNeverCrashesTheRun) {
  const api::RunResult r = api::run("{\"format\":1,", "");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.input_error);
  EXPECT_NE(r.json.find("errors"), std::string::npos);
  // Arbitrary garbage and deep nesting come back as errors too.
  for (const char* text :
       {"", "null", "\"x\"", "{\"system\":{\"bus\":[[[[[]]]]]}}", "{\"format\":1e400}"}) {
    EXPECT_FALSE(api::run(text, "").ok) << text;
  }
}

// A parameter that publishes multiple_of (a slider keeps to its multiples) is refused exactly
// off those multiples: the published rule and validate() say the same thing.
TEST(Registry, PublishedMultiplesAreTheValidatedOnes) {
  int published = 0;
  for (const ValueRule& rule : value_rules()) {
    ASSERT_NE(find_param(rule.path), nullptr) << rule.path << " names no parameter";
  }
  for (const ValueRule& rule : value_rules()) {
    if (rule.multiple_of == nullptr) continue;
    ++published;
    const ParamSpec& p = *find_param(rule.path);
    const ParamSpec* unit = find_param(rule.multiple_of);
    ASSERT_NE(unit, nullptr) << p.path << " names " << rule.multiple_of;
    for (double u = unit->min; u <= unit->max; u *= 2) {
      for (double v = p.min; v <= p.max; v = v < 1 ? 1 : v * 2) {
        for (const double w : {v, v + 1}) {
          if (w > p.max) continue;
          const Json overrides = {{p.path, w}, {rule.multiple_of, u}};
          const bool whole = w == 0 || std::fmod(w * rule.multiple_factor, u) == 0;
          const Json errors = errors_of(minimal(), overrides.dump());
          EXPECT_EQ(has_error(errors, p.path, ""), !whole)
              << p.path << " = " << w << " with " << rule.multiple_of << " = " << u << ": "
              << errors.dump();
        }
      }
    }
  }
  EXPECT_GE(published, 1);
}

// A parameter that publishes power_of_two or step is refused exactly off its rule, in one of
// the scenarios that read it (a protocol-cache run, a NIC data cache).
TEST(Registry, PublishedStepsAreTheValidatedOnes) {
  const std::string protocache = minimal({{"workload", {{"kind", "protocol-cache"}}}});
  const std::string nic_cache = minimal({{"system", {{"nic_cache", {{"kbytes", 1024}}}}}});
  int published = 0;
  for (const ValueRule& rule : value_rules()) {
    if (!rule.power_of_two && rule.step <= 0) continue;
    ++published;
    const ParamSpec& p = *find_param(rule.path);
    std::set<double> values;
    for (double v = p.min; v <= p.max && v <= p.min + 40; ++v) values.insert(v);
    for (double k = 1; k <= 2 * p.max; k *= 2) {
      for (const double v : {k - 1, k, k + 1, k + 4}) {
        if (v >= p.min && v <= p.max) values.insert(v);
      }
    }
    for (const double v : values) {
      const auto whole = static_cast<std::uint64_t>(v);
      const bool ok = (!rule.power_of_two || (whole != 0 && (whole & (whole - 1)) == 0)) &&
                      (rule.step <= 0 || std::fmod(v, rule.step) == 0);
      const Json overrides = {{p.path, v}};
      bool refused = false;
      for (const std::string& scenario : {minimal(), protocache, nic_cache}) {
        refused = refused || has_error(errors_of(scenario, overrides.dump()), p.path, "");
      }
      EXPECT_EQ(refused, !ok) << p.path << " = " << v;
    }
  }
  EXPECT_GE(published, 6);
}

TEST(Registry, EveryDefaultIsValidAndEveryMetricIsReported) {
  for (const auto& p : parameter_registry()) EXPECT_EQ(check_param_value(p, p.def), "") << p.path;
  // Each model reports only its own metrics (model_metrics_test.cpp checks which); together
  // they report every declared metric, each with its declared unit.
  const Json run = {{"duration_us", 300}, {"warmup_us", 100}};
  const std::vector<Json> outs = {
      testing::run_ok(minimal({{"run", run}})),
      testing::run_ok(minimal({{"run", run}, {"system", {{"nic", {{"model", "tigon"}}}}}})),
      testing::run_ok(minimal({{"run", run},
                               {"workload", {{"kind", "cpu-benchmark"}}},
                               {"system", {{"nic", {{"model", "tigon"}}}}}})),
      testing::run_ok(
          minimal({{"workload", {{"kind", "web"}, {"trace", "rice"}, {"trace_requests", 1000}}},
                   {"system", {{"nic_cache", {{"kbytes", 64}}}}}})),
      testing::run_ok(minimal({{"workload",
                                {{"kind", "web"},
                                 {"web_mode", "full-system"},
                                 {"trace", "rice"},
                                 {"trace_requests", 2000},
                                 {"warmup_requests", 1000}}},
                               {"run", run}})),
      testing::run_ok(minimal({{"workload", {{"kind", "ip-router"}, {"datagram_bytes", 18}}},
                               {"system", {{"nics", 2}}},
                               {"run", run}})),
      testing::run_ok(
          minimal({{"workload", {{"kind", "tcp-stream"}}},
                   {"system", {{"nic", {{"model", "sinic"}}}, {"link", {{"rate_mbps", 10000}}}}},
                   {"run", {{"duration_us", 200}, {"warmup_us", 50}}}})),
      testing::run_ok(minimal({{"workload", {{"kind", "tcp-offload"}}},
                               {"system",
                                {{"bus",
                                  {{"model", "fixed"},
                                   {"protocol", "pci-x"},
                                   {"width_bits", 64},
                                   {"clock_mhz", 133},
                                   {"overhead_cycles", 4}}}}},
                               {"run", {{"duration_us", 100000}, {"warmup_us", 0}}}})),
      testing::run_ok(minimal({{"workload", {{"kind", "eta-aio"}}}})),
      testing::run_ok(minimal({{"workload", {{"kind", "protocol-cache"}}}}))};
  for (const auto& m : result_metrics()) {
    bool found = false;
    for (const Json& o : outs) {
      if (!o["results"].contains(m.name)) continue;
      found = true;
      EXPECT_EQ(o["results"][m.name]["unit"], m.unit) << m.name;
    }
    EXPECT_TRUE(found) << m.name << " is reported by none of the models";
  }
}

TEST(Schema, CommittedSchemaIsTheGeneratedOne) {
  const Json committed =
      Json::parse(testing::read_file(std::string(NICSIM_SCENARIOS_DIR) + "/scenario.schema.json"),
                  nullptr, false);
  const Json generated = Json::parse(api::scenario_schema(), nullptr, false);
  EXPECT_EQ(committed, generated)
      << "regenerate: build/native/nicsim --schema > scenarios/scenario.schema.json";
}

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

TEST(Presets, EveryPresetIsValidRunsAndMeetsItsReferenceValues) {
  const auto ids = preset_ids();
  ASSERT_GE(ids.size(), 4u);
  for (const auto& id : ids) {
    const std::string text = testing::preset(id);
    EXPECT_EQ(api::validate(text, ""), "[]") << id;
    // A preset that replays the user's access log runs on a small log of our own; without one
    // it is refused, naming workload.trace.
    const Json doc = Json::parse(text, nullptr, false);
    const bool needs_log = doc["workload"].value("trace", "") == "log";
    std::vector<WebRequest> log;
    if (needs_log) {
      const api::RunResult refused = api::run(text, "");
      EXPECT_FALSE(refused.ok) << id;
      EXPECT_NE(refused.json.find("workload.trace"), std::string::npos) << refused.json;
      for (std::uint32_t i = 0; i < 4000; ++i) log.push_back({(i * 7919u) % (1 + i % 400), 5000});
    }
    const api::RunResult run = api::run(text, "", needs_log ? &log : nullptr);
    ASSERT_TRUE(run.ok) << id << ": " << run.json;
    const Json out = Json::parse(run.json, nullptr, false);
    EXPECT_EQ(out["scenario"], id) << "file name and id must agree";
    // A check with a known_miss must keep missing, so its explanation stays true.
    for (const auto& c : out["checks"]) {
      const bool known_miss = c.contains("known_miss");
      EXPECT_EQ(c["pass"].get<bool>(), !known_miss)
          << id << ": " << (known_miss ? "a known miss now passes: " : "") << c.dump();
    }
    // Every bus cycle of the window is in exactly one category: the shares sum to 1
    // for the main run and for every sweep point. The cache-only web mode has no bus.
    if (out["results"].contains("bus_cycles") == false) {
      // tcp-stream models the SINIC paper's host, which has no PCI bus.
      if (out["parameters"]["workload"]["kind"] == "tcp-stream") continue;
      EXPECT_EQ(out["parameters"]["workload"]["web_mode"], "cache-only") << id;
      continue;
    }
    std::vector<const Json*> runs = {&out["results"]};
    for (const auto& e : out["sweep"]) runs.push_back(&e["results"]);
    for (const Json* r : runs) {
      double sum = 0;
      for (auto it = r->begin(); it != r->end(); ++it) {
        if (it.key().rfind("bus_util_", 0) == 0) sum += it.value()["value"].get<double>();
      }
      EXPECT_NEAR(sum, 1.0, 1e-9) << id;
      EXPECT_GT((*r)["bus_cycles"]["value"].get<double>(), 0) << id;
    }
  }
}

}  // namespace
}  // namespace nicsim
