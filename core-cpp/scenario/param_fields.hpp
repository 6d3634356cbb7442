// Accessors for parameter registry entries (params.cpp and the model-specific registries): a
// field of Config set from and read back as JSON, in the scenario's units. Captureless lambdas,
// so they become the registry's function pointers.
#pragma once
#include <cmath>
#include <cstdint>

#include "scenario/config.hpp"
#include "scenario/json.hpp"
#include "sim/time.hpp"

namespace nicsim::param_fields {

// A value in the scenario's unit (ns, µs, ...; `scale` ps per unit) to picoseconds and back.
inline Time to_ps(const Json& v, double scale) {
  return static_cast<Time>(std::llround(v.get<double>() * scale));
}
inline double from_ps(Time t, double scale) { return static_cast<double>(t) / scale; }

}  // namespace nicsim::param_fields

#define INT_FIELD(field)                                                                  \
  [](Config& c, const Json& v) { c.field = static_cast<std::int64_t>(v.get<double>()); }, \
      [](const Config& c) { return Json(c.field); }
#define TIME_FIELD(field, scale)                                             \
  [](Config& c, const Json& v) { c.field = param_fields::to_ps(v, scale); }, \
      [](const Config& c) { return Json(param_fields::from_ps(c.field, scale)); }
