// The scenario's optional "compare" block (the A/B view): two variants of the scenario, A
// and B, each a label and the parameters it sets, run with the same seed side by side.
//
//   "compare": { "note": "...", "metrics": ["udp_total_throughput"],
//                "a": { "label": "RELEASE", "set": { "system.tigon.firmware": "release" } },
//                "b": { "label": "PARALLEL", "set": {} } }
//
// A variant's "set" is exactly an overrides object: the app sends it with the run, and
// `nicsim <file> --set path=value ...` gives the same main run.
#pragma once
#include <map>
#include <string>

#include "scenario/json.hpp"
#include "sim/status.hpp"

namespace nicsim {

// Validates `compare` against the scenario's own parameters (`params`, flat path → value, before
// any overrides). Errors name the field: "compare.b.set: unknown parameter 'x' ...".
void check_compare(const Json& compare, const std::map<std::string, Json>& params, Errors* errors);

// The block's JSON Schema; `paths` and `metrics` are the enums of parameter paths and metrics.
Json compare_schema(const Json& paths, const Json& metrics);

}  // namespace nicsim
