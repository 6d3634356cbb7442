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

}  // namespace nicsim
