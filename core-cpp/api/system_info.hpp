// What a view needs to know about the configured system, as the core builds it from a validated
// Config: the output JSON's "system" block (core-cpp/README.md). The views take the firmware's
// partition, the frame layout, clock periods, ring sizes and the bus timing from here instead
// of re-deriving them from the parameters.
#pragma once
#include "scenario/config.hpp"
#include "scenario/json.hpp"

namespace nicsim::api {

Json system_json(const Config& cfg);

}  // namespace nicsim::api
