// Physical limits every run must respect, checked after each run and each sweep point: a
// result beyond them is a model bug, reported as a fault that names the metric, its value and
// the limit, never shown as a number.
#pragma once
#include <string>

#include "api/system.hpp"

namespace nicsim {

// "" when the run holds every invariant, else the first violation:
// - every metric a finite number, none negative;
// - every fraction (utilisations, shares, hit and drop rates) within [0, 1];
// - the bus cycles by category summing to the elapsed cycles (the bus_util_* shares to 1);
// - the Tigon losing no work (tigon_work_lost 0);
// - each of the run's Bounds (a throughput or packet rate under its wire's or bus's limit over
//   its own measurement window);
// - each of its Ledgers conserving frames (entered = left + dropped + held, 0 <= held <=
//   capacity).
std::string check_invariants(const RunOutput& out);

}  // namespace nicsim
