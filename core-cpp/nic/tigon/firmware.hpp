// The Tigon's event-driven firmware as data (the thesis §3.1.2–§3.3): the events of Table 3.1,
// the code paths of their handlers with what each executes, the firmware variants of §3.3.1,
// and which CPU handles which event (Table 3.4, a user's own partition, or dynamic dispatch).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nicsim {

// X(name, label, kind, code bytes): Table 3.1's events. The order here is the event register's bit
// order from the least significant bit; PRI picks the most significant set bit, so the last event
// has the highest priority. The thesis does not give the bit order (digest §8); ours is chosen
// to finish work in progress before starting new work: DMA completions, then index updates,
// then the mailbox and BD fetches, and new packets last (receive before send, since a full
// receive buffer drops frames while a slow send only waits). With new packets first, a flood
// of minimum-sized frames starves the mailbox and the index updates: receive livelock.
#define NICSIM_TIGON_EVENTS(X)                                                \
  X(SendDataReady, "Send Data Ready", "firmware", 3072)                       \
  X(ReceiveComplete, "Receive Complete", "hardware", 7680)                    \
  X(SendBdReady, "Send Buffer Descriptor Ready", "firmware", 1024)            \
  X(ReceiveBdReady, "Receive Buffer Descriptor Ready", "firmware", 1024)      \
  X(Mailbox, "Mailbox", "hardware", 2560)                                     \
  X(UpdateSendConsumer, "Update Send Consumer", "firmware", 512)              \
  X(UpdateReturnProducer, "Update Receive Return Producer", "firmware", 1024) \
  X(DmaReadComplete, "DMA Read Complete", "hardware", 2560)                   \
  X(DmaWriteComplete, "DMA Write Complete", "hardware", 2048)

enum class TigonEvent : std::uint8_t {
#define NICSIM_X(name, label, kind, code_bytes) name,
  NICSIM_TIGON_EVENTS(NICSIM_X)
#undef NICSIM_X
      Count
};
constexpr int kTigonEvents = static_cast<int>(TigonEvent::Count);

// X(name, event, label, instructions, shared_loads, shared_stores): one code path of a handler.
// Instructions are chosen (the thesis lists none; the derivation is in the scenarios' parameter
// notes and core-cpp/README.md). Shared accesses are words of data that must live in the
// external SRAM whatever the variant (§3.2.2: rings, DMA and MAC descriptors, indices shared
// across handlers), counted from what the path touches: a 16-byte send BD is 2 loads through
// the 8-byte data cache, a 32-byte receive or return BD 4, a DMA descriptor 4 stores (host
// address, SRAM address, length, flags), a MAC descriptor 2, an index 1.
#define NICSIM_TIGON_PATHS(X)                                                                    \
  X(MailboxRead, Mailbox, "read the mailboxes, raise BD Ready", 23, 2, 2)                        \
  X(SendBdFetch, SendBdReady, "enqueue a DMA read of new send BDs", 42, 2, 5)                    \
  X(SendBdIdle, SendBdReady, "nothing new to fetch (or a fetch in flight)", 12, 2, 0)            \
  X(ReceiveBdFetch, ReceiveBdReady, "enqueue a DMA read of new receive BDs", 122, 2, 5)          \
  X(ReceiveBdIdle, ReceiveBdReady, "nothing new to fetch (or a fetch in flight)", 35, 2, 0)      \
  X(ReadDoneSendBds, DmaReadComplete, "send BDs arrived: advance producer, raise SDR", 50, 4, 2) \
  X(ReadDoneReceiveBds, DmaReadComplete, "receive BDs arrived: advance producer", 43, 4, 2)      \
  X(ReadDoneSendData, DmaReadComplete, "packet data arrived: advance consumer", 53, 8, 2)        \
  X(SendData, SendDataReady, "enqueue the data DMA and the MAC descriptor", 250, 12, 7)          \
  X(SendDataWait, SendDataReady, "transmit buffer full: wait", 23, 3, 0)                         \
  X(SendConsumerDma, UpdateSendConsumer, "enqueue a DMA write of the consumer index", 43, 1, 5)  \
  X(SendConsumerLocal, UpdateSendConsumer, "publish the index; interrupt the host", 25, 1, 2)    \
  X(Receive, ReceiveComplete, "enqueue data and return-BD DMA writes", 248, 24, 14)              \
  X(ReceiveNoBuffer, ReceiveComplete, "no receive BD on the NIC: drop the frame", 45, 3, 1)      \
  X(ReturnProducerDma, UpdateReturnProducer, "enqueue a DMA write of the producer", 126, 1, 5)   \
  X(WriteDoneData, DmaWriteComplete, "a packet reached the host", 19, 2, 1)                      \
  X(WriteDoneReturnBd, DmaWriteComplete, "a return BD reached the host", 19, 2, 1)               \
  X(WriteDoneIndex, DmaWriteComplete, "an index reached the host: interrupt", 26, 2, 2)

enum class TigonPath : std::uint8_t {
#define NICSIM_X(name, event, label, instructions, loads, stores) name,
  NICSIM_TIGON_PATHS(NICSIM_X)
#undef NICSIM_X
      Count
};
constexpr int kTigonPaths = static_cast<int>(TigonPath::Count);

struct TigonPathInfo {
  const char* name;
  TigonEvent event;
  const char* label;
  std::int64_t instructions;
  std::int64_t shared_loads;
  std::int64_t shared_stores;
};
const TigonPathInfo& tigon_path_info(TigonPath p);
const char* tigon_event_name(TigonEvent e);   // "SendDataReady"
const char* tigon_event_label(TigonEvent e);  // "Send Data Ready"
bool tigon_event_is_hardware(TigonEvent e);

// §3.3.1's firmware versions, plus a user-drawn static partition and dynamic dispatch (§3.6).
enum class TigonFirmware : std::uint8_t { Release, Bsd, Parallel, Custom, Dynamic };
const char* tigon_firmware_name(TigonFirmware f);

// Which CPUs may handle an event: bit 0 CPU A, bit 1 CPU B.
enum CpuMask : std::uint8_t { kCpuA = 1, kCpuB = 2, kCpuBoth = 3 };

// Why two handlers on different CPUs need the hardware semaphore (Tables 3.2 and 3.3): they
// share a DMA channel, or data that both write. The thesis's single-writer sharing
// (Mailbox ↔ SBDR/RBDR, DRC ↔ RC, §3.2.2) needs no lock.
bool tigon_events_conflict(TigonEvent a, TigonEvent b, bool send_consumer_by_dma);

// One thing two different handlers share (Tables 3.2 and 3.3): a DMA channel's descriptor queue,
// or data, which needs the semaphore across CPUs when both handlers update it (`lock`).
struct TigonShare {
  const char* kind;    // "read channel", "write channel" or "data"
  const char* what;    // "the DMA read channel", "the producer index of ..."
  const char* source;  // "Table 3.2" or "Table 3.3"
  bool lock;
};
// What handlers of `a` and `b` (a != b) share; tigon_events_conflict is "a == b or a share locks".
std::vector<TigonShare> tigon_shares(TigonEvent a, TigonEvent b, bool send_consumer_by_dma);

using TigonPartition = std::array<std::uint8_t, kTigonEvents>;  // CpuMask per event
TigonPartition tigon_table_3_4();                               // Table 3.4

// The partition a firmware runs (§3.3.1): RELEASE and BSD put every event on CPU A, PARALLEL
// splits them as Table 3.4, custom takes `custom`, dynamic lets either CPU take any event.
TigonPartition tigon_partition(TigonFirmware f, const TigonPartition& custom);
// RELEASE and BSD leave CPU B idle (§3.3.1).
bool tigon_cpu_runs(TigonFirmware f, int cpu);
// Whether a handler of `e` on `cpu` takes the hardware semaphore: dynamic dispatch always (the
// shared register, §3.6), an event on both CPUs, or one that conflicts with an event the other
// CPU may run (Tables 3.2 and 3.3).
bool tigon_lock_needed(TigonFirmware f, const TigonPartition& p, bool send_consumer_by_dma, int cpu,
                       TigonEvent e);

// Handler code size in bytes, the last column of NICSIM_TIGON_EVENTS (§3.2.2: about 21 KB in
// all). Chosen split: Table 3.4's CPU B handlers fill its 8 KB scratch pad exactly and CPU A's
// fit its 16 KB, as the thesis says.
std::int64_t tigon_code_bytes(TigonEvent e);

}  // namespace nicsim
