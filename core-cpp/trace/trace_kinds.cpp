#include "trace/trace_kinds.hpp"

#include "host/host_bridge.hpp"
#include "nic/cache/nic_data_cache.hpp"
#include "nic/ring.hpp"
#include "nic/tigon/firmware.hpp"
#include "scenario/config.hpp"
#include "sinic/sinic_regs.hpp"
#include "sinic/stream_host.hpp"

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
// The model's own enums whose values trace fields carry, against the definition's tables.
template <class E>
constexpr int last(E e) {
  return static_cast<int>(e);
}
static_assert(last(RingId::Return) + 1 == kRingCount, "RingId: trace_kinds.json ring");
static_assert(last(Copy::Nic) + 1 == kCopyCount, "Copy: trace_kinds.json copy");
static_assert(last(Mailbox::InterruptAck) + 1 == kMailboxCount,
              "Mailbox: trace_kinds.json mailbox");
static_assert(last(Register::SendConsumer) + 1 == kHostRegisterCount,
              "Register: trace_kinds.json hostRegister");
static_assert(last(CacheCommandKind::Insert) + 1 == kCacheCommandCount &&
                  last(BdCommand::CacheInsert) + 1 == kCacheCommandCount,
              "CacheCommandKind, BdCommand: trace_kinds.json cacheCommand");
static_assert(last(CpuPart::Count) == kCpuPartCount, "CpuPart: trace_kinds.json cpuPart");
static_assert(last(SendApi::Write) + 1 == kSendApiCount, "SendApi: trace_kinds.json sendApi");
}  // namespace

const char* trace_kind_name(TraceKind k) { return lookup(k, kTraceKindNames); }
const char* component_name(Component c) { return lookup(c, kComponentNames); }
const char* purpose_name(Purpose p) { return lookup(p, kPurposeNames); }
const char* bus_phase_name(BusPhase p) { return lookup(p, kBusPhaseNames); }
const char* bus_category_name(BusCategory c) { return lookup(c, kBusCategoryNames); }

}  // namespace nicsim
