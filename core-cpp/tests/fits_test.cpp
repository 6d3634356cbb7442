// Fitted or predicted: every fit names checks that exist, a fitted check is reported so, and a
// known miss is validated and reported as one.
#include "scenario/fits.hpp"

#include <gtest/gtest.h>

#include "scenario/params.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::errors_of;
using testing::has_error;
using testing::minimal;

// The reference ids of a preset, or empty when the preset does not exist.
std::vector<std::string> reference_ids(const std::string& preset) {
  const Json doc = Json::parse(testing::preset(preset), nullptr, false);
  std::vector<std::string> ids;
  if (!doc.is_object() || !doc.contains("reference")) return ids;
  for (const auto& r : doc["reference"]) ids.push_back(r["id"].get<std::string>());
  return ids;
}

TEST(Fits, EveryFitNamesAParameterAndExistingChecks) {
  ASSERT_FALSE(parameter_fits().empty());
  for (const auto& f : parameter_fits()) {
    const std::string path = f.path;
    bool found = false;
    for (const auto& p : parameter_registry()) {
      const std::string q = p.path;
      found = found || q == path || (path.back() == '.' && q.compare(0, path.size(), path) == 0);
    }
    EXPECT_TRUE(found) << path << " names no parameter of the registry";
    EXPECT_FALSE(f.checks.empty()) << path;
    for (const std::string check : f.checks) {
      const std::size_t hash = check.find('#');
      ASSERT_NE(hash, std::string::npos) << path << ": '" << check << "' is not preset#reference";
      const auto ids = reference_ids(check.substr(0, hash));
      EXPECT_NE(std::find(ids.begin(), ids.end(), check.substr(hash + 1)), ids.end())
          << path << ": fitted_to names '" << check << "', which no preset's reference has";
    }
  }
}

TEST(Fits, ListParametersCarriesFittedTo) {
  const Json info = parameter_info_json();
  bool seen = false;
  for (const auto& p : info) {
    if (p["path"] == "system.tigon.sram_bandwidth_mbs") {
      seen = true;
      EXPECT_EQ(p["fitted_to"][0], "tigon-one-or-two-cpus#parallel-1472") << p.dump();
    }
    if (p["path"] == "system.bus.clock_mhz") {
      EXPECT_FALSE(p.contains("fitted_to")) << p.dump();
    }
  }
  EXPECT_TRUE(seen);
  // A family: every per-path instruction count carries the family's checks.
  EXPECT_FALSE(fitted_to("system.tigon.instructions.send_data").empty());
}

TEST(Fits, AFittedCheckIsReportedFittedAndOthersPredicted) {
  const Json out = testing::run_ok(testing::preset("tigon-vs-asic"));
  bool fitted = false, predicted = false;
  for (const auto& c : out["checks"]) {
    if (c["id"] == "tigon-1472") {
      fitted = true;
      EXPECT_EQ(c["basis"], "fitted") << c.dump();  // the SRAM bandwidth was tuned on 1553
    }
    if (c["id"] == "asic-1472") {
      predicted = true;
      EXPECT_EQ(c["basis"], "predicted") << c.dump();
    }
    EXPECT_EQ(c["outcome"], c["pass"].get<bool>() ? "pass" : "fail") << c.dump();
  }
  EXPECT_TRUE(fitted && predicted) << out["checks"].dump();
}

Json claim(const Json& extra = Json::object()) {
  Json r = {{"id", "r"},          {"source", "s"},
            {"description", "d"}, {"metric", "bus_utilization"},
            {"expected", 0.0},    {"comparison", "at_most"},
            {"tolerance", 0},     {"kind", "qualitative"}};
  for (auto it = extra.begin(); it != extra.end(); ++it) r[it.key()] = it.value();
  return r;
}

TEST(Fits, AKnownMissIsValidatedAndReported) {
  const Json e = errors_of(minimal({{"reference", {claim({{"known_miss", 3}})}}}));
  EXPECT_TRUE(has_error(e, "reference[0].known_miss", "must be a string")) << e.dump();
  const Json f = errors_of(minimal({{"reference", {claim({{"known_miss", ""}})}}}));
  EXPECT_TRUE(has_error(f, "reference[0].known_miss", "non-empty")) << f.dump();
  const Json g = errors_of(minimal({{"reference", {claim(), claim()}}}));
  EXPECT_TRUE(has_error(g, "reference[1].id", "repeats")) << g.dump();
  // The bus is busy, so "at most 0" misses: an explained miss; "at most 2" passes: unexpected.
  const Json run = {{"duration_us", 300}, {"warmup_us", 100}};
  const Json out = testing::run_ok(
      minimal({{"run", run},
               {"reference",
                {claim({{"known_miss", "why"}}),
                 claim({{"id", "q"}, {"expected", 2.0}, {"known_miss", "why"}})}}}));
  ASSERT_EQ(out["checks"].size(), 2u);
  EXPECT_EQ(out["checks"][0]["outcome"], "known_miss") << out["checks"].dump();
  EXPECT_EQ(out["checks"][0]["known_miss"], "why");
  EXPECT_FALSE(out["checks"][0]["pass"].get<bool>());
  EXPECT_EQ(out["checks"][1]["outcome"], "unexpected_pass") << out["checks"].dump();
  EXPECT_EQ(out["checks"][0]["basis"], "predicted");
}

}  // namespace
}  // namespace nicsim
