// What the fuzz targets share: the presets, and a run of a valid scenario with its work capped,
// so that fuzzing explores the parser and the validator (and the model's first steps on odd
// settings) rather than spending its time simulating.
#pragma once
#include <string>
#include <vector>

#include "scenario/json.hpp"
#include "workload/web_trace.hpp"

namespace nicsim::fuzz {

struct Preset {
  std::string id;
  std::string text;
};
// scenarios/*.json (not the schema), sorted by id; read once.
const std::vector<Preset>& presets();

// Validates `scenario_text` with `overrides` (path → value, as --set gives them); when it is
// valid, runs it with the caps below applied and checks the output. Returns true if it ran.
// A model fault (an error that is not about the input) is written to stderr, and aborts when
// the environment has NICSIM_FUZZ_FAULTS=abort (so libFuzzer keeps the input).
bool validate_and_run(const std::string& scenario_text, const Json& overrides,
                      const std::vector<WebRequest>* access_log = nullptr);

}  // namespace nicsim::fuzz
