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

struct RunResult {
  bool ok = false;  // false: `json` is {"errors": [...]} (bad input or a model fault)
  bool input_error = false;
  std::string json;                // the output document (core-cpp/README.md), compact
  std::vector<TraceRecord> trace;  // of the main run
};
// `access_log`: the requests of an uploaded log, for workload.trace "log" (else unused).
RunResult run(const std::string& scenario_json, const std::string& overrides_json,
              const std::vector<WebRequest>* access_log = nullptr);

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
