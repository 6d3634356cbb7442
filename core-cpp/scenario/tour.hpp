// A scenario's guided tour: narrated steps that move the time cursor, highlight parts
// of the machine, ask the class to predict, run a variant and reveal. The core only validates the
// block (the player is the web app's); errors name the field and the allowed values or range.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "scenario/json.hpp"
#include "scenario/scenario.hpp"
#include "sim/status.hpp"

namespace nicsim {

// Parts of the machine a step may highlight: the trace's component names (NICSIM_COMPONENTS)
// and the parts of the system diagram the model has but the trace does not name as components
// (the rings' host copies, the mailbox registers, the NIC's buffers, the interrupt line).
const std::set<std::string>& tour_parts();

// What a tour is checked against: the scenario's own parameters (file values, no overrides, so
// an override never invalidates the tour), the views it opens and its sweep.
struct TourContext {
  const std::map<std::string, Json>* params = nullptr;
  const std::vector<std::string>* views = nullptr;  // empty: any allowed view
  const SweepSpec* sweep = nullptr;
};

// Validates `tour` (the scenario's "tour" field) and appends errors such as
// "tour[2].at_us: must be within the trace window 0–40 µs".
void check_tour(const Json& tour, const TourContext& ctx, Errors* errors);

// The JSON Schema of the "tour" field (for `nicsim --schema`).
Json tour_schema();

}  // namespace nicsim
