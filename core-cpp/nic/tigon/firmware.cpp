#include "nic/tigon/firmware.hpp"

namespace nicsim {

namespace {
constexpr TigonPathInfo kPaths[] = {
#define NICSIM_X(name, event, label, instructions, loads, stores) \
  {#name, TigonEvent::event, label, instructions, loads, stores},
    NICSIM_TIGON_PATHS(NICSIM_X)
#undef NICSIM_X
};
struct EventInfo {
  const char* name;
  const char* label;
  bool hardware;
  std::int64_t code_bytes;
};
constexpr EventInfo kEvents[] = {
#define NICSIM_X(name, label, kind, code_bytes) {#name, label, kind[0] == 'h', code_bytes},
    NICSIM_TIGON_EVENTS(NICSIM_X)
#undef NICSIM_X
};

using E = TigonEvent;
bool uses_read_channel(E e) {
  return e == E::SendBdReady || e == E::ReceiveBdReady || e == E::SendDataReady ||
         e == E::DmaReadComplete;
}
bool uses_write_channel(E e, bool send_consumer_by_dma) {
  return e == E::ReceiveComplete || e == E::UpdateReturnProducer || e == E::DmaWriteComplete ||
         (e == E::UpdateSendConsumer && send_consumer_by_dma);
}
bool pair_is(E a, E b, E x, E y) { return (a == x && b == y) || (a == y && b == x); }

// Table 3.2: data two handlers share in the released firmware. Both update it (lock), or one
// writes and the other reads, where a stale read is harmless (no lock, §3.2.2).
struct SharedDatum {
  E a, b;
  const char* what;
  bool lock;
};
constexpr SharedDatum kSharedData[] = {
    {E::Mailbox, E::SendBdReady, "the producer index of the driver's send BD ring", false},
    {E::DmaReadComplete, E::SendDataReady, "the producer index of the firmware's send BD ring",
     true},
    {E::DmaReadComplete, E::UpdateSendConsumer, "the consumer index of the firmware's send BD ring",
     true},
    {E::Mailbox, E::ReceiveBdReady, "the producer index of the driver's receive BD ring", false},
    {E::DmaReadComplete, E::ReceiveComplete, "the producer index of the firmware's receive BD ring",
     false},
    {E::ReceiveComplete, E::UpdateReturnProducer,
     "the producer index of the firmware's receive return BD ring", true},
};
}  // namespace

std::vector<TigonShare> tigon_shares(TigonEvent a, TigonEvent b, bool send_consumer_by_dma) {
  std::vector<TigonShare> out;
  if (a == b) return out;
  // Table 3.3: a DMA channel's descriptor queue is one piece of hardware.
  if (uses_read_channel(a) && uses_read_channel(b))
    out.push_back({"read channel", "the DMA read channel", "Table 3.3", true});
  if (uses_write_channel(a, send_consumer_by_dma) && uses_write_channel(b, send_consumer_by_dma))
    out.push_back({"write channel", "the DMA write channel", "Table 3.3", true});
  for (const SharedDatum& d : kSharedData)
    if (pair_is(a, b, d.a, d.b)) out.push_back({"data", d.what, "Table 3.2", d.lock});
  return out;
}

const TigonPathInfo& tigon_path_info(TigonPath p) { return kPaths[static_cast<int>(p)]; }
const char* tigon_event_name(TigonEvent e) { return kEvents[static_cast<int>(e)].name; }
const char* tigon_event_label(TigonEvent e) { return kEvents[static_cast<int>(e)].label; }
bool tigon_event_is_hardware(TigonEvent e) { return kEvents[static_cast<int>(e)].hardware; }

const char* tigon_firmware_name(TigonFirmware f) {
  switch (f) {
    case TigonFirmware::Release:
      return "release";
    case TigonFirmware::Bsd:
      return "bsd";
    case TigonFirmware::Parallel:
      return "parallel";
    case TigonFirmware::Custom:
      return "custom";
    case TigonFirmware::Dynamic:
      return "dynamic";
  }
  return "release";
}

bool tigon_events_conflict(TigonEvent a, TigonEvent b, bool send_consumer_by_dma) {
  if (a == b) return true;  // one handler's private state, now on two CPUs
  for (const TigonShare& s : tigon_shares(a, b, send_consumer_by_dma))
    if (s.lock) return true;
  return false;
}

TigonPartition tigon_table_3_4() {
  TigonPartition p{};
  for (E e : {E::Mailbox, E::DmaWriteComplete, E::ReceiveComplete, E::UpdateReturnProducer})
    p[static_cast<int>(e)] = kCpuA;
  for (E e : {E::DmaReadComplete, E::SendBdReady, E::SendDataReady, E::ReceiveBdReady,
              E::UpdateSendConsumer})
    p[static_cast<int>(e)] = kCpuB;
  return p;
}

std::int64_t tigon_code_bytes(TigonEvent e) { return kEvents[static_cast<int>(e)].code_bytes; }

TigonPartition tigon_partition(TigonFirmware f, const TigonPartition& custom) {
  TigonPartition p{};
  switch (f) {
    case TigonFirmware::Release:
    case TigonFirmware::Bsd:
      p.fill(kCpuA);
      break;
    case TigonFirmware::Parallel:
      p = tigon_table_3_4();
      break;
    case TigonFirmware::Custom:
      p = custom;
      break;
    case TigonFirmware::Dynamic:
      p.fill(kCpuBoth);
      break;
  }
  return p;
}

bool tigon_cpu_runs(TigonFirmware f, int cpu) {
  return cpu == 0 || (f != TigonFirmware::Release && f != TigonFirmware::Bsd);
}

bool tigon_lock_needed(TigonFirmware f, const TigonPartition& p, bool send_consumer_by_dma, int cpu,
                       TigonEvent e) {
  if (f == TigonFirmware::Dynamic) return true;
  if (p[static_cast<std::size_t>(e)] == kCpuBoth) return true;
  const int other = 1 - cpu;
  if (!tigon_cpu_runs(f, other)) return false;
  for (int x = 0; x < kTigonEvents; ++x) {
    if ((p[static_cast<std::size_t>(x)] & (1 << other)) &&
        tigon_events_conflict(e, static_cast<TigonEvent>(x), send_consumer_by_dma))
      return true;
  }
  return false;
}

}  // namespace nicsim
