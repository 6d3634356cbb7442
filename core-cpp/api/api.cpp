#include "api/api.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>
#ifndef __EMSCRIPTEN__
#include <mutex>
#include <thread>
#endif

#include "api/system.hpp"
#include "api/system_info.hpp"
#include "nic/tigon/firmware.hpp"
#include "scenario/compare.hpp"
#include "scenario/fits.hpp"
#include "scenario/params.hpp"
#include "scenario/scenario.hpp"
#include "scenario/tour.hpp"

namespace nicsim::api {

namespace {

Json errors_json(const Errors& errors) {
  Json arr = Json::array();
  for (const auto& e : errors) arr.push_back({{"path", e.path}, {"message", e.message}});
  return arr;
}

Json metrics_json(const RunOutput& r) {
  Json m = Json::object();
  for (const auto& x : r.metrics) {
    // Filled in place: an initializer list builds each pair as an array first, and this runs
    // for the main run and every sweep point.
    Json entry = Json::object();
    auto& fields = *entry.get_ptr<Json::object_t*>();
    fields.emplace("unit", x.unit);
    fields.emplace("value", x.value);
    m[x.name] = std::move(entry);
  }
  return m;
}

const Json* find_sweep_entry(const Json& sweep, const SweepSpec& spec, const Json& at) {
  for (const auto& entry : sweep) {
    if (entry["value"] != at[spec.parameter]) continue;
    if (!spec.series_parameter.empty() && entry["series"] != at[spec.series_parameter]) continue;
    return &entry;
  }
  return nullptr;
}

}  // namespace

std::string validate(const std::string& scenario_json, const std::string& overrides_json) {
  Scenario s;
  return dump_json(errors_json(load_scenario(scenario_json, overrides_json, &s)));
}

namespace {

// The fault document: the model reported a bug and stopped.
std::string fault_json(const std::string& where, const std::string& message) {
  return dump_json(
      Json{{"errors", Json::array({{{"path", where}, {"message", "model fault: " + message}}})}});
}

// The errors a run of the scenario would refuse it with: the scenario's own, and for a replayed
// log, that one came and what replaying it costs.
Errors run_errors(const std::string& scenario_json, const std::string& overrides_json,
                  const std::vector<WebRequest>* access_log, Scenario* s) {
  Errors errors = load_scenario(scenario_json, overrides_json, s);
  if (errors.empty() && s->config.workload.kind == WorkloadKind::Web &&
      s->config.workload.trace_from_log && (access_log == nullptr || access_log->empty())) {
    errors.push_back({"workload.trace",
                      "\"log\" replays an access log: open one with \"Bring your own log\" "
                      "(none is loaded), or choose berkeley, ibm, nasa, rice or worldcup"});
  }
  if (errors.empty() && access_log != nullptr && !access_log->empty())
    errors = check_log_replay(*s, *access_log);  // ids, bytes and the replay's work
  return errors;
}

// Loads the scenario and checks that a replayed log came with it. False: `*err` is the errors
// document.
bool prepare(const std::string& scenario_json, const std::string& overrides_json,
             const std::vector<WebRequest>* access_log, Scenario* s, std::string* err) {
  const Errors errors = run_errors(scenario_json, overrides_json, access_log, s);
  s->config.access_log = access_log;
  if (errors.empty()) return true;
  *err = dump_json(Json{{"errors", errors_json(errors)}});
  return false;
}

// The sweep's points in output order: each series value in turn, every sweep value within it.
Json sweep_points(const Scenario& s) {
  Json points = Json::array();
  if (!s.sweep.present) return points;
  std::vector<Json> series_values = s.sweep.series_values;
  if (series_values.empty()) series_values.push_back(Json());
  for (const auto& sv : series_values) {
    for (const auto& v : s.sweep.values) {
      Json p = {{"value", v}};
      if (!sv.is_null()) p["series"] = sv;
      points.push_back(p);
    }
  }
  return points;
}

// The document of the main run: everything but the sweep's entries and the checks.
Json main_document(const Scenario& s, const RunOutput& main) {
  Json out = Json::object();
  out["format"] = "nicsim-results/1";
  out["scenario"] = s.id;
  out["seed"] = s.config.run.seed;
  out["parameters"] = effective_parameters(s.config);
  out["system"] = system_json(s.config);
  out["results"] = metrics_json(main);
  Json series = Json::array();
  for (const auto& ts : main.series) {
    series.push_back({{"name", ts.name},
                      {"unit", ts.unit},
                      {"interval_ps", ts.interval_ps},
                      {"start_ps", ts.interval_ps},  // the first sample is one interval in
                      {"values", ts.values}});
  }
  out["series"] = std::move(series);
  Json hists = Json::array();
  for (const auto& h : main.histograms) {
    hists.push_back(
        {{"name", h.name}, {"unit", h.unit}, {"bin_width", h.bin_width}, {"weights", h.weights}});
  }
  out["histograms"] = std::move(hists);
  if (s.sweep.present) {
    out["sweep_spec"] = {
        {"parameter", s.sweep.parameter},
        {"series_parameter",
         s.sweep.series_parameter.empty() ? Json() : Json(s.sweep.series_parameter)}};
  } else {
    out["sweep_spec"] = nullptr;
  }
  out["sweep"] = Json::array();
  out["checks"] = Json::array();
  out["trace"] = {{"records", main.trace.size()},
                  {"dropped", main.trace_dropped},
                  {"start_ps", main.trace_start},
                  {"end_ps", main.trace_end}};
  return out;
}

// The entry of sweep point `point` ({value, series}) from its run's output.
Json entry_of(const Json& point, const RunOutput& r) {
  Json entry = {{"value", point["value"]}, {"results", metrics_json(r)}};
  if (point.contains("series")) entry["series"] = point["series"];
  return entry;
}

// Sweep point `point`'s configuration (its values were validated with the scenario).
Config point_config(const Scenario& s, const Json& point) {
  Config cfg =
      sweep_point_config(s, point["value"], point.contains("series") ? point["series"] : Json());
  cfg.access_log = s.config.access_log;
  return cfg;
}

// The main run's configuration with sweep point `point`'s values set, and nothing else done:
// enough for what a single field decides (shared_setup), at a fraction of point_config's cost
// (which sets every parameter's default first), paid once per point before the first view.
Config swept_config(const Scenario& s, const Json& point) {
  Config cfg = s.config;
  if (const ParamSpec* p = find_param(s.sweep.parameter)) p->set(cfg, point["value"]);
  if (point.contains("series")) {
    if (const ParamSpec* p = find_param(s.sweep.series_parameter)) p->set(cfg, point["series"]);
  }
  return cfg;
}

// Sweep point `point` run without a trace: its entry, or false with the fault.
bool point_entry(const Scenario& s, const Json& point, Json* entry, std::string* fault) {
  RunOutput r = run_model(point_config(s, point), false);
  if (!r.fault.empty()) {
    *fault = r.fault;
    return false;
  }
  *entry = entry_of(point, r);
  return true;
}

// The index of the sweep point whose parameters are the main run's own (the scenario already
// sets the swept parameters to one of their values), or -1. Its run would be the main run again:
// the same parameters build the same configuration, and a run's results do not depend on whether
// it records a trace. Compared strictly (16384 and 16384.0 are different inputs).
long main_point(const Scenario& s, const Json& points) {
  auto same = [&](const std::string& path, const Json& v) {
    const auto it = s.params.find(path);
    return it != s.params.end() && it->second.type() == v.type() && it->second == v;
  };
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Json& p = points[i];
    if (same(s.sweep.parameter, p["value"]) &&
        (!p.contains("series") || same(s.sweep.series_parameter, p["series"])))
      return static_cast<long>(i);
  }
  return -1;
}

// The reference checks, read from the main run's results and the sweep's entries of `out`.
Json checks_json(const Scenario& s, const Json& out) {
  const Json& sweep = out["sweep"];
  Json checks = Json::array();
  // The value of a metric in the main run (point = null) or at a sweep point.
  auto value_of = [&](const std::string& metric, const Json& point, double* v) {
    const Json* results = &out["results"];
    if (!point.is_null()) {
      const Json* entry = find_sweep_entry(sweep, s.sweep, point);
      results = entry ? &(*entry)["results"] : nullptr;
    }
    if (results == nullptr) return false;
    auto it = results->find(metric);
    if (it == results->end()) return false;
    *v = (*it)["value"].get<double>();
    return true;
  };
  for (const auto& ref : s.reference) {
    double simulated = 0, base = 1;
    bool found = value_of(ref.metric, ref.at, &simulated);
    if (ref.relative) found = found && value_of(ref.relative_metric, ref.relative_at, &base);
    // A relative claim's expected value is the factor times the other run's value.
    const double expected = ref.relative ? ref.expected * base : ref.expected;
    bool pass = false;
    if (found) {
      const double tol = ref.tolerance * std::fabs(expected);
      if (ref.comparison == "within") pass = std::fabs(simulated - expected) <= tol;
      if (ref.comparison == "at_least") pass = simulated >= expected - tol;
      if (ref.comparison == "at_most") pass = simulated <= expected + tol;
    }
    Json c = {{"id", ref.id},
              {"source", ref.source},
              {"description", ref.description},
              {"metric", ref.metric},
              {"expected", expected},
              {"simulated", found ? Json(simulated) : Json()},
              {"unit", ref.unit},
              {"tolerance", ref.tolerance},
              {"comparison", ref.comparison},
              {"kind", ref.kind},
              {"pass", pass}};
    // Fitted: some parameter was tuned on this very check (scenario/fits.hpp), so agreement
    // shows only that the fit holds; predicted otherwise.
    c["basis"] = check_basis(s.id, ref.id);
    // A known miss keeps its raw result in "pass"; the outcome says whether it still misses.
    if (!ref.known_miss.empty()) {
      c["known_miss"] = ref.known_miss;
      c["outcome"] = pass ? "unexpected_pass" : "known_miss";
    } else {
      c["outcome"] = pass ? "pass" : "fail";
    }
    if (!ref.at.is_null()) c["at"] = ref.at;
    if (ref.relative) {
      c["factor"] = ref.expected;
      c["relative_to"] = {
          {"metric", ref.relative_metric}, {"at", ref.relative_at}, {"value", base}};
    }
    checks.push_back(c);
  }
  return checks;
}

// Loads the scenario. False: `*result` holds the errors, as input errors.
bool load(const std::string& scenario_json, const std::string& overrides_json,
          const std::vector<WebRequest>* access_log, Scenario* s, RunResult* result) {
  if (prepare(scenario_json, overrides_json, access_log, s, &result->json)) return true;
  result->input_error = true;
  return false;
}

// Loads the scenario and runs its main run. False: `*result` holds the errors or the fault.
bool start_main(const std::string& scenario_json, const std::string& overrides_json,
                const std::vector<WebRequest>* access_log, Scenario* s, RunOutput* main,
                RunResult* result) {
  if (!load(scenario_json, overrides_json, access_log, s, result)) return false;
  *main = run_model(s->config, true);
  if (!main->fault.empty()) {
    result->json = fault_json("", main->fault);
    return false;
  }
  return true;
}

// A sweep point's run: its entry, or the fault that stopped it.
struct PointRun {
  Json entry;
  std::string fault;
};

#ifndef __EMSCRIPTEN__
// Which open point a free worker takes next, given the setup (shared_setup) each point builds
// first and the one each worker holds: its own setup's points first, then points that build
// nothing, then a setup no worker holds, and only then, rather than wait, one of the setup with
// the most points open (built a second time). The browser's pool chooses the same way
// (web/engine/pool.ts), for the same reason: a web trace is most of a short run's work. -1: none.
long next_point(const std::vector<std::string>& setups, const std::vector<char>& open,
                const std::vector<std::string>& held, std::size_t worker) {
  const std::string& mine = held[worker];
  long none = -1, fresh = -1;
  for (std::size_t i = 0; i < setups.size(); ++i) {
    if (!open[i]) continue;
    const std::string& k = setups[i];
    if (!k.empty() && k == mine) return static_cast<long>(i);
    if (k.empty()) {
      if (none < 0) none = static_cast<long>(i);
    } else if (fresh < 0 && std::find(held.begin(), held.end(), k) == held.end()) {
      fresh = static_cast<long>(i);
    }
  }
  if (none >= 0) return none;
  if (fresh >= 0) return fresh;
  // The first of the setups with the most points open, and its last open point.
  auto open_of = [&](const std::string& k) {
    std::size_t n = 0;
    for (std::size_t j = 0; j < setups.size(); ++j) n += open[j] && setups[j] == k;
    return n;
  };
  const std::string* most = nullptr;
  std::size_t most_open = 0;
  for (std::size_t i = 0; i < setups.size(); ++i) {
    if (!open[i]) continue;
    if (const std::size_t n = open_of(setups[i]); n > most_open) {
      most = &setups[i];
      most_open = n;
    }
  }
  long best = -1;
  for (std::size_t i = 0; i < setups.size(); ++i)
    if (open[i] && most != nullptr && setups[i] == *most) best = static_cast<long>(i);
  return best;
}
#endif

// The main run (with its trace) and every sweep point but `reused` (the main run answers it),
// over `workers` threads: the calling thread starts with the main run, the others with points.
// Each point's run is the same whichever thread runs it (what a thread keeps only saves work),
// so the results are a serial run's.
void run_all(const Scenario& s, const Json& points, long reused, unsigned workers, RunOutput* main,
             std::vector<PointRun>* runs) {
  std::vector<char> open(points.size(), 1);
  if (reused >= 0) open[static_cast<std::size_t>(reused)] = 0;
  const std::size_t left = points.size() - (reused >= 0 ? 1 : 0);
  auto run_point_at = [&](std::size_t i) {
    PointRun& r = (*runs)[i];
    point_entry(s, points[i], &r.entry, &r.fault);  // false: the fault is set
  };
#ifndef __EMSCRIPTEN__
  const std::size_t threads = std::min<std::size_t>(std::max(1u, workers), left + 1);
#else
  (void)workers;
  const std::size_t threads = 1;
#endif
  if (threads <= 1) {
    *main = run_model(s.config, true);
    if (!main->fault.empty()) return;
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (!open[i]) continue;
      run_point_at(i);
      if (!(*runs)[i].fault.empty()) return;  // the document reports the first fault
    }
    return;
  }
#ifndef __EMSCRIPTEN__
  std::vector<std::string> setups(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    if (open[i]) setups[i] = shared_setup(swept_config(s, points[i]));
  std::mutex lock;
  std::vector<std::string> held(threads);
  held[0] = shared_setup(s.config);
  auto work = [&](std::size_t w) {
    for (;;) {
      long i;
      {
        const std::lock_guard<std::mutex> guard(lock);
        i = next_point(setups, open, held, w);
        if (i < 0) return;
        open[static_cast<std::size_t>(i)] = 0;
        held[w] = setups[static_cast<std::size_t>(i)];
      }
      run_point_at(static_cast<std::size_t>(i));
    }
  };
  std::vector<std::thread> others;
  others.reserve(threads - 1);
  for (std::size_t w = 1; w < threads; ++w) others.emplace_back(work, w);
  *main = run_model(s.config, true);
  work(0);
  for (std::thread& t : others) t.join();
#endif
}

}  // namespace

std::string validate_run(const std::string& scenario_json, const std::string& overrides_json,
                         const std::vector<WebRequest>* access_log) {
  Scenario s;
  return dump_json(errors_json(run_errors(scenario_json, overrides_json, access_log, &s)));
}

RunResult run(const std::string& scenario_json, const std::string& overrides_json,
              const std::vector<WebRequest>* access_log, unsigned workers) {
  RunResult result;
  Scenario s;
  if (!load(scenario_json, overrides_json, access_log, &s, &result)) return result;
  const Json points = sweep_points(s);
  const long reused = main_point(s, points);
  RunOutput main;
  std::vector<PointRun> runs(points.size());
  run_all(s, points, reused, workers, &main, &runs);
  if (!main.fault.empty()) {
    result.json = fault_json("", main.fault);
    return result;
  }
  Json out = main_document(s, main);
  Json& sweep = out["sweep"];
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (static_cast<long>(i) == reused) {
      sweep.push_back(entry_of(points[i], main));
    } else if (!runs[i].fault.empty()) {
      result.json = fault_json("sweep", runs[i].fault);
      return result;
    } else {
      sweep.push_back(std::move(runs[i].entry));
    }
  }
  out["checks"] = checks_json(s, out);
  result.ok = true;
  result.json = dump_json(out);
  result.trace = std::move(main.trace);
  return result;
}

unsigned default_workers() {
#ifdef __EMSCRIPTEN__
  return 1;
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
}

RunResult run_main(const std::string& scenario_json, const std::string& overrides_json,
                   const std::vector<WebRequest>* access_log) {
  RunResult result;
  Scenario s;
  RunOutput main;
  if (!start_main(scenario_json, overrides_json, access_log, &s, &main, &result)) return result;
  Json out = main_document(s, main);
  const Json points = sweep_points(s);
  if (points.empty()) {
    out["checks"] = checks_json(s, out);  // nothing to wait for: the complete document
  } else {
    out["pending"] = {{"sweep_points", points}, {"checks", s.reference.size()}};
    // What each point's run builds first and keeps (shared_setup), for a pool to give the
    // points that share it to the same instance.
    Json setups = Json::array();
    for (const Json& p : points) setups.push_back(shared_setup(swept_config(s, p)));
    out["pending"]["setups"] = std::move(setups);
    out["pending"]["main_setup"] = shared_setup(s.config);
    // The point the main run already answers: its entry, so that nobody runs it again.
    if (const long k = main_point(s, points); k >= 0)
      out["pending"]["main_point"] = {{"index", k}, {"entry", entry_of(points[k], main)}};
    result.pending_points = points.size();
  }
  result.ok = true;
  result.json = dump_json(out);
  result.trace = std::move(main.trace);
  return result;
}

namespace {

// The scenario the last sweep point on this thread loaded, kept for the next point of the same
// sweep. Loading validates every point's config, so loading again for each point made a sweep's
// setup grow with the square of its points, and in the browser kept the JSON code hot enough to
// be recompiled optimised while the points ran, on the same cores.
struct LoadedScenario {
  bool valid = false;
  std::string scenario_json, overrides_json;
  Scenario s;
};

// The loaded scenario for a point, or null with `*result` holding the errors.
const Scenario* load_for_point(const std::string& scenario_json, const std::string& overrides_json,
                               const std::vector<WebRequest>* access_log, RunResult* result) {
  thread_local LoadedScenario last;
  // A replayed log may change between calls (setAccessLog): its scenario is loaded every time.
  const bool replay = access_log != nullptr && !access_log->empty();
  if (!replay && last.valid && last.scenario_json == scenario_json &&
      last.overrides_json == overrides_json) {
    return &last.s;
  }
  last.valid = false;
  Scenario s;
  if (!load(scenario_json, overrides_json, access_log, &s, result)) return nullptr;
  last.s = std::move(s);
  last.scenario_json = scenario_json;
  last.overrides_json = overrides_json;
  last.valid = !replay;
  return &last.s;
}

}  // namespace

RunResult run_point(const std::string& scenario_json, const std::string& overrides_json,
                    std::size_t index, const std::vector<WebRequest>* access_log) {
  RunResult result;
  const Scenario* loaded = load_for_point(scenario_json, overrides_json, access_log, &result);
  if (loaded == nullptr) return result;
  const Scenario& s = *loaded;
  const Json points = sweep_points(s);
  if (index >= points.size()) {
    result.input_error = true;
    result.json = dump_json(Json{
        {"errors",
         Json::array({{{"path", "sweep"},
                       {"message", "no sweep point " + std::to_string(index) + " (the sweep has " +
                                       std::to_string(points.size()) + ")"}}})}});
    return result;
  }
  Json entry;
  std::string fault;
  if (!point_entry(s, points[index], &entry, &fault)) {
    result.json = fault_json("sweep", fault);
    return result;
  }
  result.ok = true;
  result.json = dump_json(entry);
  return result;
}

RunResult finish(const std::string& scenario_json, const std::string& overrides_json,
                 const std::string& main_json, const std::string& entries_json) {
  RunResult result;
  Scenario s;
  Errors errors = load_scenario(scenario_json, overrides_json, &s);
  if (!errors.empty()) {
    result.input_error = true;
    result.json = dump_json(Json{{"errors", errors_json(errors)}});
    return result;
  }
  auto refuse = [&](const std::string& path, const std::string& message) {
    result.input_error = true;
    result.json =
        dump_json(Json{{"errors", Json::array({{{"path", path}, {"message", message}}})}});
    return result;
  };
  Json out, entries;
  std::string err;
  if (!parse_json(main_json, &out, &err) || !out.is_object() || !out.contains("pending"))
    return refuse("main", "not the document of a main run with its sweep pending");
  if (!parse_json(entries_json, &entries, &err) || !entries.is_array())
    return refuse("entries", "not a JSON array of sweep entries");
  const Json points = sweep_points(s);
  if (entries.size() != points.size()) {
    return refuse("entries", std::to_string(entries.size()) + " sweep entries for " +
                                 std::to_string(points.size()) + " sweep points");
  }
  // The point the main run answered may come as null: its entry is the one the main run handed
  // over (taken from the main document as the core wrote it, so the numbers keep their form).
  const Json& pending = out["pending"];
  if (pending.is_object() && pending.contains("main_point")) {
    const Json& mp = pending["main_point"];
    const Json& index = mp.is_object() && mp.contains("index") ? mp["index"] : Json();
    if (index.is_number_integer() && index.get<long long>() >= 0 &&
        static_cast<unsigned long long>(index.get<long long>()) < entries.size() &&
        entries[index.get<std::size_t>()].is_null() && mp.contains("entry"))
      entries[index.get<std::size_t>()] = mp["entry"];
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Json& e = entries[i];
    const bool same = e.is_object() && e.contains("results") && e.contains("value") &&
                      e["value"] == points[i]["value"] &&
                      e.contains("series") == points[i].contains("series") &&
                      (!points[i].contains("series") || e["series"] == points[i]["series"]);
    if (!same)
      return refuse("entries",
                    "entry " + std::to_string(i) + " is not sweep point " + std::to_string(i));
  }
  out.erase("pending");
  out["sweep"] = std::move(entries);
  out["checks"] = checks_json(s, out);
  result.ok = true;
  result.json = dump_json(out);
  return result;
}

namespace {

// RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// A value as text: strings as they are, numbers as JSON writes them, nothing for null.
std::string csv_value(const Json& v) {
  if (v.is_null()) return "";
  return csv_field(v.is_string() ? v.get<std::string>() : dump_json(v));
}

std::string csv_text(const Json& v) { return v.is_string() ? v.get<std::string>() : ""; }

// A member of an object, or null (a const Json's operator[] must not be asked for a missing key).
const Json& member(const Json& j, const std::string& key) {
  static const Json none;
  if (!j.is_object()) return none;
  const auto it = j.find(key);
  return it == j.end() ? none : *it;
}

}  // namespace

// One row per sweep point (a column per metric, with its unit) or, without a sweep, one row per
// metric. Every row has the header's number of fields; lines end with LF.
std::string to_csv(const std::string& output_json) {
  Json out;
  std::string err;
  if (!parse_json(output_json, &out, &err) || !out.is_object()) return "";
  std::string csv;
  const Json& sweep = member(out, "sweep");
  if (sweep.is_array() && !sweep.empty()) {
    const Json& spec = member(out, "sweep_spec");
    const bool has_series = member(spec, "series_parameter").is_string();
    // The metrics of every point, in order of first appearance (points may differ).
    std::vector<std::pair<std::string, std::string>> metrics;
    for (const auto& e : sweep) {
      const Json& results = member(e, "results");
      if (!results.is_object()) continue;
      for (auto it = results.begin(); it != results.end(); ++it) {
        bool seen = false;
        for (const auto& m : metrics) seen = seen || m.first == it.key();
        if (!seen) metrics.emplace_back(it.key(), csv_text(member(it.value(), "unit")));
      }
    }
    csv += csv_field(csv_text(member(spec, "parameter")));
    if (has_series) csv += "," + csv_field(csv_text(member(spec, "series_parameter")));
    for (const auto& m : metrics)
      csv += "," + csv_field(m.second.empty() ? m.first : m.first + " (" + m.second + ")");
    csv += "\n";
    for (const auto& e : sweep) {
      csv += csv_value(member(e, "value"));
      if (has_series) csv += "," + csv_value(member(e, "series"));
      for (const auto& m : metrics) {
        csv += "," + csv_value(member(member(member(e, "results"), m.first), "value"));
      }
      csv += "\n";
    }
    return csv;
  }
  csv += "metric,value,unit\n";
  const Json& results = member(out, "results");
  if (!results.is_object()) return csv;
  for (auto it = results.begin(); it != results.end(); ++it) {
    csv += csv_field(it.key()) + "," + csv_value(member(it.value(), "value")) + "," +
           csv_field(csv_text(member(it.value(), "unit"))) + "\n";
  }
  return csv;
}

std::string parameter_info() { return dump_json(parameter_info_json()); }

std::string scenario_schema() {
  // Parameter sections, nested as in the files.
  Json sections = Json::object();
  Json paths = Json::array();
  for (const auto& p : parameter_registry()) {
    paths.push_back(p.path);
    Json leaf = {{"description", std::string(p.description) +
                                     (p.unit[0] ? std::string(" (") + p.unit + ")" : "")}};
    if (p.type == ParamType::Choice) {
      leaf["enum"] = p.choices;
    } else {
      leaf["type"] = p.type == ParamType::Integer ? "integer" : "number";
      leaf["minimum"] = p.min;
      leaf["maximum"] = p.max;
    }
    leaf["default"] = p.def;
    const std::vector<std::string> parts = split_path(p.path);
    Json* node = &sections;
    for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
      Json& child = (*node)["properties"][parts[k]];
      if (!child.contains("type")) {
        child["type"] = "object";
        child["additionalProperties"] = false;
      }
      node = &child;
    }
    (*node)["properties"][parts.back()] = leaf;
  }
  const Json strings = {{"type", "array"}, {"items", {{"type", "string"}}}};
  const Json axis = {{"type", "object"},
                     {"required", {"parameter", "values"}},
                     {"properties",
                      {{"parameter", {{"enum", paths}}},
                       {"values", {{"type", "array"}, {"minItems", 1}, {"maxItems", 200}}}}}};
  Json sweep = axis;
  sweep["properties"]["series"] = axis;
  sweep["properties"]["series"]["additionalProperties"] = false;
  sweep["additionalProperties"] = false;
  Json metric_names = Json::array();
  for (const auto& m : result_metrics()) metric_names.push_back(m.name);
  const Json reference = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required",
       {"id", "source", "description", "metric", "expected", "comparison", "tolerance", "kind"}},
      {"properties",
       {{"id", {{"type", "string"}}},
        {"source", {{"type", "string"}, {"description", "seed and section, figure or table"}}},
        {"description", {{"type", "string"}}},
        {"metric", {{"enum", metric_names}}},
        {"at",
         {{"type", "object"},
          {"description", "sweep parameter → value of the sweep point compared"}}},
        {"relative_to",
         {{"type", "object"},
          {"additionalProperties", false},
          {"description",
           "a qualitative claim: expected = factor × this metric at this sweep point"},
          {"properties", {{"metric", {{"enum", metric_names}}}, {"at", {{"type", "object"}}}}}}},
        {"expected", {{"type", "number"}}},
        {"unit", {{"type", "string"}}},
        {"comparison", {{"enum", {"within", "at_least", "at_most"}}}},
        {"tolerance", {{"type", "number"}, {"minimum", 0}, {"maximum", 10}}},
        {"kind", {{"enum", {"exact", "approximate", "qualitative"}}}},
        {"known_miss",
         {{"type", "string"},
          {"minLength", 1},
          {"description",
           "a prediction that misses at steady state: why, from the mechanism (the check then "
           "must miss)"}}}}}};
  Json schema = {
      {"$schema", "http://json-schema.org/draft-07/schema#"},
      {"title", "nicsim scenario"},
      {"description",
       "Generated by `nicsim --schema` from the core's parameter registry; a test keeps this file "
       "in step."},
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"format", "id", "title", "summary"}},
      {"properties",
       {{"$schema", {{"type", "string"}}},
        {"format", {{"const", 1}}},
        {"id", {{"type", "string"}, {"pattern", "^[a-z0-9-]{1,64}$"}}},
        {"title", {{"type", "string"}}},
        {"summary", {{"type", "string"}}},
        {"notice", strings},
        {"tags", strings},
        {"views",
         {{"type", "array"},
          {"items",
           {{"enum",
             Json(std::vector<std::string>(allowed_views().begin(), allowed_views().end()))}}}}},
        {"chart",
         {{"type", "object"},
          {"additionalProperties", false},
          {"properties",
           {{"x", {{"type", "string"}}},
            {"y", {{"type", "string"}}},
            {"also", {{"type", "array"}, {"items", {{"type", "string"}}}}},
            {"limit", {{"type", "string"}}}}}}},
        {"parameter_notes",
         {{"type", "object"},
          {"propertyNames", {{"enum", paths}}},
          {"additionalProperties", {{"type", "string"}}}}},
        {"system", sections["properties"]["system"]},
        {"workload", sections["properties"]["workload"]},
        {"run", sections["properties"]["run"]},
        {"sweep", sweep},
        {"reference", {{"type", "array"}, {"items", reference}}},
        {"tour", tour_schema()},
        {"compare", compare_schema(paths, metric_names)}}}};
  return dump_json(schema, 2);
}

std::string trace_kind_names() {
  Json arr = Json::array();
  for (std::uint16_t k = 0; k < static_cast<std::uint16_t>(TraceKind::Count); ++k) {
    arr.push_back(trace_kind_name(static_cast<TraceKind>(k)));
  }
  return dump_json(arr);
}

std::string component_names() {
  Json arr = Json::array();
  for (std::uint16_t k = 0; k < static_cast<std::uint16_t>(Component::Count); ++k) {
    arr.push_back(component_name(static_cast<Component>(k)));
  }
  return dump_json(arr);
}

std::string purpose_names() {
  Json arr = Json::array();
  for (std::uint16_t k = 0; k < static_cast<std::uint16_t>(Purpose::Count); ++k) {
    arr.push_back(purpose_name(static_cast<Purpose>(k)));
  }
  return dump_json(arr);
}

std::string tigon_info() {
  Json events = Json::array(), paths = Json::array(), table = Json::array();
  const TigonPartition t34 = tigon_table_3_4();
  for (int e = 0; e < kTigonEvents; ++e) {
    const auto ev = static_cast<TigonEvent>(e);
    events.push_back({{"name", tigon_event_name(ev)},
                      {"label", tigon_event_label(ev)},
                      {"hardware", tigon_event_is_hardware(ev)},
                      {"code_bytes", tigon_code_bytes(ev)}});
    table.push_back(t34[static_cast<std::size_t>(e)] == kCpuA ? "A" : "B");
  }
  for (int p = 0; p < kTigonPaths; ++p) {
    const TigonPathInfo& info = tigon_path_info(static_cast<TigonPath>(p));
    paths.push_back(
        {{"name", info.name}, {"event", static_cast<int>(info.event)}, {"label", info.label}});
  }
  return dump_json(Json{{"events", events}, {"paths", paths}, {"table_3_4", table}});
}

std::uint64_t null_loop(std::uint64_t events) { return run_null_loop(events); }

}  // namespace nicsim::api
