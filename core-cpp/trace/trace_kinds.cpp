#include "trace/trace_kinds.hpp"

#include "nic/tigon/firmware.hpp"
#include "sinic/sinic_regs.hpp"

namespace nicsim {

namespace {
template <class E, std::size_t N>
const char* lookup(E v, const char* const (&names)[N]) {
  const auto i = static_cast<std::size_t>(v);
  return i < N ? names[i] : "?";
}

constexpr bool same(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

// The Tigon's events and handler paths carry model data (code sizes, instruction counts) in
// nic/tigon/firmware.hpp; their names there must be the trace definition's, in its order.
constexpr const char* kFirmwareEvents[] = {
#define NICSIM_X(name, label, kind, code_bytes) #name,
    NICSIM_TIGON_EVENTS(NICSIM_X)
#undef NICSIM_X
};
constexpr const char* kFirmwarePaths[] = {
#define NICSIM_X(name, event, label, instructions, loads, stores) #name,
    NICSIM_TIGON_PATHS(NICSIM_X)
#undef NICSIM_X
};
template <std::size_t N, std::size_t M>
constexpr bool same_list(const char* const (&a)[N], const char* const (&b)[M]) {
  if (N != M) return false;
  for (std::size_t i = 0; i < N; ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}
static_assert(same_list(kFirmwareEvents, kTigonEventIds),
              "NICSIM_TIGON_EVENTS must list trace_kinds.json's tigonEvent table, in order");
static_assert(same_list(kFirmwarePaths, kTigonPathIds),
              "NICSIM_TIGON_PATHS must list trace_kinds.json's tigonPath table, in order");
static_assert(static_cast<int>(NicReg::Doorbell) + 1 == kNicRegisterCount &&
                  same(kNicRegisterIds[static_cast<int>(NicReg::Doorbell)], "Doorbell"),
              "NicReg must follow trace_kinds.json's nicRegister table");
static_assert(static_cast<int>(VnicRx::Done) + 1 == kVnicStateCount &&
                  same(kVnicStateIds[static_cast<int>(VnicRx::Deferred)], "Deferred"),
              "VnicRx must follow trace_kinds.json's vnicState table");
}  // namespace

const char* trace_kind_name(TraceKind k) { return lookup(k, kTraceKindNames); }
const char* component_name(Component c) { return lookup(c, kComponentNames); }
const char* purpose_name(Purpose p) { return lookup(p, kPurposeNames); }
const char* bus_phase_name(BusPhase p) { return lookup(p, kBusPhaseNames); }
const char* bus_category_name(BusCategory c) { return lookup(c, kBusCategoryNames); }

}  // namespace nicsim
