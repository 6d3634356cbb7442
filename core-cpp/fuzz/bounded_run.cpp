#include "fuzz/bounded_run.hpp"

#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "api/api.hpp"
#include "scenario/params.hpp"
#include "scenario/scenario.hpp"

namespace nicsim::fuzz {

namespace {

// chosen: a few microseconds of simulated time and a few hundred web requests take a
// millisecond or two, so libFuzzer tries hundreds of inputs a second.
struct Cap {
  const char* path;
  double max;
  bool zero_means_all;  // 0 asks for everything (workload.trace_requests)
};
constexpr Cap kCaps[] = {
    {"run.duration_us", 40, false},          {"run.warmup_us", 10, false},
    {"run.sample_interval_us", 40, false},   {"run.trace.start_us", 40, false},
    {"run.trace.end_us", 40, false},         {"workload.trace_requests", 200, true},
    {"workload.warmup_requests", 50, false},
};
constexpr std::size_t kMaxSweepValues = 2;

const Cap* cap_of(const std::string& path) {
  for (const auto& c : kCaps)
    if (path == c.path) return &c;
  return nullptr;
}

Json capped(const Cap& c, const Json& v) {
  if (!v.is_number()) return v;
  const double x = v.get<double>();
  if (c.zero_means_all && x == 0) return Json(c.max);
  return x > c.max ? Json(c.max) : v;
}

// Returns true when values were dropped.
bool cap_axis(Json* axis) {
  if (!axis->is_object()) return false;
  auto values = axis->find("values");
  if (values == axis->end() || !values->is_array()) return false;
  const bool dropped = values->size() > kMaxSweepValues;
  while (values->size() > kMaxSweepValues) values->erase(values->size() - 1);
  auto parameter = axis->find("parameter");
  if (parameter == axis->end() || !parameter->is_string()) return dropped;
  if (const Cap* c = cap_of(parameter->get<std::string>())) {
    for (auto& v : *values) v = capped(*c, v);
  }
  return dropped;
}

bool names_a_point(const Json& ref) {
  if (!ref.is_object()) return false;
  if (auto at = ref.find("at"); at != ref.end() && !at->is_null()) return true;
  auto rel = ref.find("relative_to");
  return rel != ref.end() && rel->is_object() && rel->contains("at") && !(*rel)["at"].is_null();
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = [] {
    std::vector<Preset> out;
    const std::string dir = NICSIM_SCENARIOS_DIR;
    if (DIR* d = opendir(dir.c_str())) {
      while (dirent* ent = readdir(d)) {
        const std::string name = ent->d_name;
        if (name.size() <= 5 || name.substr(name.size() - 5) != ".json" ||
            name.find(".schema.") != std::string::npos)
          continue;
        std::ifstream in(dir + "/" + name, std::ios::binary);
        std::stringstream buf;
        buf << in.rdbuf();
        out.push_back({name.substr(0, name.size() - 5), buf.str()});
      }
      closedir(d);
    }
    std::sort(out.begin(), out.end(), [](const Preset& a, const Preset& b) { return a.id < b.id; });
    return out;
  }();
  return all;
}

bool validate_and_run(const std::string& scenario_text, const Json& overrides,
                      const std::vector<WebRequest>* access_log) {
  static const bool verbose = std::getenv("NICSIM_FUZZ_VERBOSE") != nullptr;
  const std::string ov = dump_json(overrides);
  const std::string errors = api::validate(scenario_text, ov);
  if (errors != "[]") {
    if (verbose) std::fprintf(stderr, "fuzz: invalid: %.300s\n", errors.c_str());
    return false;
  }

  // Valid: the same document with fewer sweep points, and the work parameters capped through
  // overrides (which come after the scenario's values).
  Scenario s;
  if (!load_scenario(scenario_text, ov, &s).empty()) std::abort();  // validate() said valid
  Json doc = Json::parse(scenario_text, nullptr, false);
  if (!doc.is_object()) std::abort();
  bool dropped = false;
  if (auto sweep = doc.find("sweep"); sweep != doc.end()) {
    dropped = cap_axis(&*sweep);
    if (sweep->is_object())
      if (auto series = sweep->find("series"); series != sweep->end())
        dropped = cap_axis(&*series) || dropped;
  }
  if (dropped) {
    // Reference values and tour steps may name the points dropped: keep the main run's only.
    doc.erase("tour");
    if (auto ref = doc.find("reference"); ref != doc.end() && ref->is_array()) {
      Json kept = Json::array();
      for (const auto& r : *ref)
        if (!names_a_point(r)) kept.push_back(r);
      *ref = kept;
    }
  }
  Json bounded = overrides.is_object() ? overrides : Json::object();
  for (const auto& c : kCaps) {
    const auto it = s.params.find(c.path);
    const ParamSpec* spec = find_param(c.path);
    const Json value = it != s.params.end() ? it->second : spec ? spec->def : Json();
    bounded[c.path] = capped(c, value);
  }
  api::RunResult r = api::run(dump_json(doc), dump_json(bounded), access_log);
  if (r.ok) {
    // The output must be a JSON object, and its CSV must not crash.
    Json out = Json::parse(r.json, nullptr, false);
    if (!out.is_object()) std::abort();
    (void)api::to_csv(r.json);
    if (verbose) std::fprintf(stderr, "fuzz: ran\n");
    return true;
  }
  // An input error here comes from the caps (a trace window beyond the shortened run, ...).
  if (verbose && r.input_error) std::fprintf(stderr, "fuzz: capped: %.300s\n", r.json.c_str());
  if (!r.input_error) {
    static int reported = 0;
    if (reported++ < 5) std::fprintf(stderr, "fuzz: model fault: %s\n", r.json.c_str());
    const char* mode = std::getenv("NICSIM_FUZZ_FAULTS");
    if (mode != nullptr && std::string(mode) == "abort") std::abort();
  }
  return false;
}

}  // namespace nicsim::fuzz
