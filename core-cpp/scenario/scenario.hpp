// A scenario file → one validated Scenario. Every input from outside is validated here, once,
// with errors that name the field and the allowed values.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "scenario/config.hpp"
#include "scenario/json.hpp"
#include "sim/status.hpp"

namespace nicsim {

struct MetricInfo {
  const char* name;
  const char* unit;
  const char* description;
};
// Every metric a run reports (reference values may name only these).
const std::vector<MetricInfo>& result_metrics();
// The views a scenario may open (scenario.views).
const std::set<std::string>& allowed_views();

// A scenario document reduced to its main run: no sweep, no reference values, and no tour (its
// steps name sweep points). What an A/B side, the bench and single-point tests run.
void keep_main_run_only(Json* doc);

struct SweepSpec {
  bool present = false;
  std::string parameter;
  std::vector<Json> values;
  std::string series_parameter;  // empty when the sweep has no series
  std::vector<Json> series_values;
};

struct ReferenceSpec {
  std::string id, source, description, metric, unit, comparison, kind;
  Json at;  // object of sweep parameter → value, or null for the main run
  // A qualitative claim compares with another run: the expected value is then `expected` times
  // `relative_metric` at `relative_at` (an ordering, a ratio, a crossover).
  bool relative = false;
  std::string relative_metric;
  Json relative_at;
  double expected = 0;
  double tolerance = 0;
  // A prediction that misses, with the reason from the mechanism; empty when the check should
  // pass. Such a check must keep missing (the note stays true).
  std::string known_miss;
};

struct Scenario {
  std::string id;
  std::map<std::string, Json> params;  // flat path → value, scenario then overrides
  Config config;                       // the main run's config
  SweepSpec sweep;
  std::vector<ReferenceSpec> reference;
};

// Validates scenario text and overrides text (a JSON object of path → value; "" means none).
Errors load_scenario(const std::string& scenario_text, const std::string& overrides_text,
                     Scenario* out);

// The access log a scenario's runs would replay (api::run, workload.trace "log"): each request
// within the limits (check_requests), and the cache blocks the cache-only runs reference, summed
// over the main run and the sweep points, within kMaxReplayedBlocks. `s` passed load_scenario.
Errors check_log_replay(const Scenario& s, const std::vector<WebRequest>& log);

// The complete config of sweep point (`value`, `series`; null: no series) of a scenario that
// passed load_scenario (which validated every point's).
Config sweep_point_config(const Scenario& s, const Json& value, const Json& series);

// The config of one run: defaults, then `params`. Cross-field rules are checked; errors name
// `context` (e.g. "sweep point workload.datagram_bytes=18").
Errors build_config(const std::map<std::string, Json>& params, const std::string& context,
                    Config* out);

}  // namespace nicsim
