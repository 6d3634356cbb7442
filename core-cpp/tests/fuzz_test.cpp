// Bad input never crashes the core: every preset, mutated at random (values replaced by other
// types or out-of-range numbers, fields deleted or added, structure broken), goes through
// validate() and run(); each call must return (an error value or a result), never abort.
#include <dirent.h>
#include <gtest/gtest.h>

#include "sim/rng.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

Json random_value(Rng& rng) {
  switch (rng.below(10)) {
    case 0:
      return Json();
    case 1:
      return Json(rng.below(2) == 0);
    case 2:
      return Json(-static_cast<double>(rng.below(1000000)));
    case 3:
      return Json(1e300);
    case 4:
      return Json(static_cast<double>(rng.below(3000)) + 0.5);
    case 5:
      return Json("x");
    case 6:
      return Json::array({1, "a", nullptr});
    case 7:
      return Json::object({{"k", 1}});
    case 8:
      return Json(static_cast<std::int64_t>(rng.below(100)));
    default:
      return Json("unlimited");
  }
}

// Collects pointers to every value in the document (objects and arrays included).
void collect(Json& j, std::vector<Json*>* out) {
  out->push_back(&j);
  if (j.is_object() || j.is_array()) {
    for (auto& child : j) collect(child, out);
  }
}

std::vector<std::string> presets() {
  std::vector<std::string> ids;
  if (DIR* dir = opendir(NICSIM_SCENARIOS_DIR)) {
    while (dirent* ent = readdir(dir)) {
      const std::string name = ent->d_name;
      if (name.size() > 5 && name.substr(name.size() - 5) == ".json" &&
          name.find(".schema.") == std::string::npos) {
        ids.push_back(name.substr(0, name.size() - 5));
      }
    }
    closedir(dir);
  }
  return ids;
}

TEST(Fuzz, MutatedScenariosNeverCrashTheCore) {
  Rng rng(20261122);
  int runs = 0, rejected = 0;
  for (const auto& id : presets()) {
    const Json original = Json::parse(testing::preset(id), nullptr, false);
    for (int round = 0; round < 250; ++round) {
      Json doc = original;
      const int edits = 1 + static_cast<int>(rng.below(3));
      for (int e = 0; e < edits; ++e) {
        std::vector<Json*> nodes;
        collect(doc, &nodes);
        Json* target = nodes[rng.below(nodes.size())];
        switch (rng.below(4)) {
          case 0:
            *target = random_value(rng);
            break;  // replace with another type or value
          case 1:
            if (target->is_object() && !target->empty()) target->erase(target->begin());
            break;
          case 2:
            if (target->is_object()) (*target)["unexpected_field"] = random_value(rng);
            break;
          default:
            if (target->is_array()) target->push_back(random_value(rng));
            break;
        }
      }
      // Keep runs short so the test stays fast; a mutation may still override these.
      if (doc.is_object() && doc.contains("run") && doc["run"].is_object()) {
        doc["run"]["duration_us"] = 50;
        doc["run"]["warmup_us"] = 10;
      }
      // Likewise a web trace's length (the generated trace is shared between runs).
      if (doc.is_object() && doc.contains("workload") && doc["workload"].is_object() &&
          doc["workload"].contains("trace_requests")) {
        doc["workload"]["trace_requests"] = 3000;
      }
      const std::string text = dump_json(doc);
      const std::string errors = api::validate(text, "");
      const api::RunResult r = api::run(text, "");
      if (!r.ok) {
        ++rejected;
        EXPECT_NE(r.json.find("\"errors\""), std::string::npos) << id;
      } else {
        ++runs;
        EXPECT_EQ(errors, "[]") << id << ": run succeeded, so validation must agree";
      }
    }
    // Broken text, and overrides of every shape.
    const std::string text = testing::preset(id);
    for (std::size_t cut : {std::size_t{1}, text.size() / 3, text.size() - 2}) {
      EXPECT_FALSE(api::run(text.substr(0, cut), "").ok) << id;
    }
    for (const char* ov : {"[]", "null", "{\"run.seed\": -1}", "{\"system.bus.model\": 3}",
                           "{\"workload.direction\": {}}", "{\"\": 1}", "{\"system\": 1}"}) {
      EXPECT_FALSE(api::run(text, ov).ok) << id << " " << ov;
    }
  }
  EXPECT_GT(rejected, 100);
  EXPECT_GT(runs, 10) << "some mutations are harmless and must still run";
}

}  // namespace
}  // namespace nicsim
