// The one façade over the core, used by the native CLI and by the embind bindings alike:
// validate(scenario) → errors, run(scenario) → results (+ trace).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"
#include "workload/web_trace.hpp"

namespace nicsim::api {

// JSON array of {"path", "message"}; empty array when valid.
std::string validate(const std::string& scenario_json, const std::string& overrides_json);

// validate() and the checks a run adds when it replays an access log (that one is loaded, and
// what replaying it costs): a scenario it passes, run() and run_main() take.
std::string validate_run(const std::string& scenario_json, const std::string& overrides_json,
                         const std::vector<WebRequest>* access_log);

struct RunResult {
  bool ok = false;  // false: `json` is {"errors": [...]} (bad input or a model fault)
  bool input_error = false;
  std::string json;                // the output document (core-cpp/README.md), compact
  std::vector<TraceRecord> trace;  // of the main run
  std::size_t pending_points = 0;  // run_main: sweep points still to run (0: json is complete)
};
// `access_log`: the requests of an uploaded log, for workload.trace "log" (else unused).
// `workers`: how many threads share the main run and the sweep's points, as the browser's pool
// shares them among its workers (each thread keeps what its runs build, as a worker's instance
// does); the document is byte-identical for any count. Native builds only: WebAssembly runs one.
RunResult run(const std::string& scenario_json, const std::string& overrides_json,
              const std::vector<WebRequest>* access_log = nullptr, unsigned workers = 1);
// The CLI's default for `workers`: one per core (std::thread::hardware_concurrency), at least one.
unsigned default_workers();

// run() in three steps, so that the sweep's points can run in parallel (one module instance
// each) and the main run be shown before they end; finish(run_main, run_point 0..n-1) is
// byte-identical to run().
//
// The main run: the output document with an empty sweep and, when the scenario has a sweep,
// "pending": {"sweep_points": [{value, series?}...], "checks": n} and no checks yet (every check
// waits, as any may read a sweep point). When the scenario sets the swept parameters to one of
// their points, the main run is that point's run: "main_point": {"index", "entry"} hands over
// its entry (run() uses it too). "setups" (by point) and "main_setup" name what each run builds
// first and an instance keeps for its next runs (shared_setup: a web run's generated trace; ""
// none), so that the points sharing one can go to one instance. Without a sweep it is run()'s
// complete document.
RunResult run_main(const std::string& scenario_json, const std::string& overrides_json,
                   const std::vector<WebRequest>* access_log = nullptr);
// Sweep point `index` of run_main's "sweep_points": its sweep entry {value, series?, results}.
RunResult run_point(const std::string& scenario_json, const std::string& overrides_json,
                    std::size_t index, const std::vector<WebRequest>* access_log = nullptr);
// run_main's document with the entries (a JSON array, in sweep_points' order; null at
// main_point's index takes the main run's entry) and the checks.
RunResult finish(const std::string& scenario_json, const std::string& overrides_json,
                 const std::string& main_json, const std::string& entries_json);

// The output document as CSV: the sweep table when there is a sweep, else metric,value,unit.
std::string to_csv(const std::string& output_json);

std::string parameter_info();    // JSON array of parameter specs
std::string scenario_schema();   // JSON Schema (draft-07) of a scenario file, from the registry
std::string trace_kind_names();  // JSON array, index = kind id
std::string component_names();   // JSON array, index = component id
std::string purpose_names();     // JSON array, index = purpose id
// The Tigon's firmware tables: {events:[{name,label,hardware}], paths:[{name,event,label}],
// table_3_4:[cpu per event]} — index = the ids in TigonHandler/TigonRegister trace records.
std::string tigon_info();
std::uint64_t null_loop(std::uint64_t events);

}  // namespace nicsim::api
