#include "trace/trace_kinds.hpp"

namespace nicsim {

const char* trace_kind_name(TraceKind k) {
  switch (k) {
#define NICSIM_X(name, doc) \
  case TraceKind::name:     \
    return #name;
    NICSIM_TRACE_KINDS(NICSIM_X)
#undef NICSIM_X
    case TraceKind::Count:
      break;
  }
  return "?";
}

const char* component_name(Component c) {
  switch (c) {
#define NICSIM_X(name, str) \
  case Component::name:     \
    return str;
    NICSIM_COMPONENTS(NICSIM_X)
#undef NICSIM_X
    case Component::Count:
      break;
  }
  return "?";
}

const char* purpose_name(Purpose p) {
  switch (p) {
#define NICSIM_X(name, str) \
  case Purpose::name:       \
    return str;
    NICSIM_PURPOSES(NICSIM_X)
#undef NICSIM_X
    case Purpose::Count:
      break;
  }
  return "?";
}

const char* bus_phase_name(BusPhase p) {
  switch (p) {
#define NICSIM_X(name, str) \
  case BusPhase::name:      \
    return str;
    NICSIM_BUS_PHASES(NICSIM_X)
#undef NICSIM_X
    case BusPhase::Count:
      break;
  }
  return "?";
}

const char* bus_category_name(BusCategory c) {
  switch (c) {
#define NICSIM_X(name, str) \
  case BusCategory::name:   \
    return str;
    NICSIM_BUS_CATEGORIES(NICSIM_X)
#undef NICSIM_X
    case BusCategory::Count:
      break;
  }
  return "?";
}

}  // namespace nicsim
