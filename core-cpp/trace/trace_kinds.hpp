// Trace record kinds, components and the other tables trace fields use. Their one definition is
// core-cpp/trace/trace_kinds.json; core-cpp/scripts/gen-trace.mjs generates trace/gen/
// trace_kinds.gen.hpp from it (the enums, names and one typed record builder per kind, rec::*)
// and the web's decoder, web/trace/records.gen.ts. The build regenerates both.
#pragma once
#include <cstdint>

#include "trace/gen/trace_kinds.gen.hpp"

namespace nicsim {

const char* trace_kind_name(TraceKind k);
const char* component_name(Component c);
const char* purpose_name(Purpose p);
const char* bus_phase_name(BusPhase p);
const char* bus_category_name(BusCategory c);

// Component fields carry the device instance (second NIC = 1) in their high byte.
constexpr std::uint16_t component_id(Component c, unsigned instance = 0) {
  return static_cast<std::uint16_t>(static_cast<unsigned>(c) | (instance << 8));
}

}  // namespace nicsim
