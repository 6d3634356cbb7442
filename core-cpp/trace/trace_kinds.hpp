// The one list of trace record kinds and components. web/engine/traceKinds.ts mirrors it;
// a Vitest test compares the two through the wasm build's traceKindNames()/componentNames().
#pragma once
#include <cstdint>

namespace nicsim {

// X(name, field meanings a..e). Append only: ids are positions, and saved traces use them.
#define NICSIM_TRACE_KINDS(X)                                                                   \
  X(RunStart, "a=direction(0 send,1 receive,2 bidirectional) b=datagram bytes")                 \
  X(DriverPostSendBd, "S1 a=packet b=send ring slot c=frame bytes")                             \
  X(MailboxWrite, "S2 a=mailbox(0 send prod,1 receive prod,2 return cons,3 intr ack) b=value")  \
  X(MailboxArrive, "a=mailbox b=value: the PIO write reached the NIC")                          \
  X(BusTxnStart, "a=txn b=master(component) c=bytes d=purpose e=packet")                        \
  X(BusTxnEnd, "a=txn b=master c=bytes d=purpose e=packet")                                     \
  X(BusRefused, "a=master(component): bus busy, the master is called back when free")           \
  X(DmaQueued, "a=dma b=purpose c=bytes d=packet e=queue depth after")                          \
  X(DmaDone, "a=dma b=purpose c=bytes d=packet")                                                \
  X(DmaQueueFull, "a=purpose: the DMA channel's queue refused a request")                       \
  X(IndexUpdate,                                                                                \
    "a=ring(0 send,1 receive,2 return) b=copy(0 host,1 nic) c=producer d=consumer e=size")      \
  X(RingFull, "a=ring: the producer found no free slot")                                        \
  X(DriverStall, "a=ring: the driver waits for ring space")                                     \
  X(DriverResume, "a=ring")                                                                     \
  X(TxBufferFull, "a=packet: data fetch waits for transmit buffer space")                       \
  X(MacTxStart, "S5 a=packet b=frame bytes c=MAC queue left (Tigon): frame starts on the wire") \
  X(MacTxEnd, "a=packet b=frame bytes")                                                         \
  X(PeerTxStart, "a=packet b=frame bytes: peer starts a frame towards the NIC")                 \
  X(MacRxDone, "R1 a=packet b=frame bytes c=MAC receive queue (Tigon): frame is in the buffer") \
  X(RxDrop, "a=packet b=reason(0 no receive descriptor,1 receive buffer full)")                 \
  X(InterruptRaise, "S6/R4 a=cause bits(1 send,2 receive) b=trigger(0 count,1 timer)")          \
  X(IsrStart, "a=interrupt number")                                                             \
  X(IsrEnd, "a=interrupt number b=packets received c=sends completed")                          \
  X(HostDeliver, "a=packet b=UDP payload bytes: handed to the protocol stack")                  \
  X(SendComplete, "a=packet: the driver recycled the send descriptor")                          \
  X(PeerRxDone, "a=packet b=frame bytes: the peer received the frame")                          \
  X(CoalesceTimer, "a=cause bits: the coalescing timer expired")                                \
  X(HostCpuBusy, "a=task(0 send,1 interrupt service) b=duration ps low c=duration ps high")     \
  X(BusPhase,                                                                                   \
    "a=master(component) b=phase c=cycles d=category e=txn: lasts until the next BusPhase")     \
  X(BusRequest, "a=master(component) b=packet: REQ# asserted (again after a Retry or a cut)")   \
  X(BusGrant, "a=master(component) b=txn: GNT# given")                                          \
  X(RegisterRead, "a=register(0 send consumer) b=value: a PIO read returned to the CPU")        \
  X(TigonRegister, "a=cpu(0 A,1 B) b=event register bits (pending and ready) c=mask bits")      \
  X(TigonHandler,                                                                               \
    "a=event b=cpu c=path d=duration ps e=packet: the dispatch loop started a handler")         \
  X(TigonHandlerEnd, "a=event b=cpu c=path: the handler ran to completion")                     \
  X(TigonSemaphore, "a=cpu b=op(0 spinning,1 acquired,2 released) c=event")                     \
  X(SramLoad, "a=SRAM utilisation per mille b=wait per access ps c=cpu: at a handler's start")  \
  X(MacTxQueued, "a=packet b=MAC transmit queue depth after: SDR queued a MAC descriptor")      \
  X(MacRxTaken, "a=packet b=MAC receive queue depth after: Receive Complete took a frame")      \
  X(TigonSnapshot,                                                                              \
    "a=DMA read queue b=DMA write queue c=MAC transmit queue d=MAC receive queue: the Tigon's " \
    "queues as a trace window opens mid-run (its event registers are recorded with it)")        \
  X(WebRequest,                                                                                 \
    "a=request b=file c=content bytes d=NIC e=blocks found in its cache (cache-only: at a µs)") \
  X(NicCacheBlock,                                                                              \
    "a=slot b=file c=block d=what(0 hit,1 insert,2 evict,3 invalidate): a NIC cache block")     \
  X(WebServe,                                                                                   \
    "a=request b=file c=content bytes d=NIC e=file cache(0 miss,1 hit): the server takes a "    \
    "request, looks up the file and builds the HTTP header")                                    \
  X(DiskRead,                                                                                   \
    "a=request b=file c=bytes d=(0 start,1 done): a file-cache miss read from disk; the "       \
    "server process waits for it")                                                              \
  X(WebSend,                                                                                    \
    "a=request b=NIC c=packets d=api(0 sendfile,1 write) e=bytes copied into the kernel: the "  \
    "response is handed to TCP")                                                                \
  X(CacheCommand,                                                                               \
    "a=packet b=command(0 append_mm,1 append_cache,2 cache_insert) c=bytes d=NIC cache offset " \
    "e=send ring slot: the driver put a Fig 4.11 command in a send descriptor")                 \
  X(WebResponseDone,                                                                            \
    "a=request b=NIC c=content bytes d=connection: the client has the whole response")          \
  /* issue 6 (seed 003): SINIC / V-SINIC and the host's CPU time */                             \
  X(CpuPart,                                                                                    \
    "a=part(0 driver,1 stack,2 copy,3 user) b=duration ns c=packet: the CPU starts a unit")     \
  X(SinicCopy,                                                                                  \
    "a=direction(0 receive,1 transmit) b=VNIC c=packet d=bytes e=what(0 whole,1 header only, "  \
    "payload deferred,2 payload FIFO to user buffer,3 piece with MORE)")                        \
  X(L2Copy, "a=packet b=bytes c=lines missed (DRAM) d=lines: the kernel copies to the user")    \
  X(FifoLevel, "a=receive FIFO bytes b=VNICs bound to packets: after a frame arrived")          \
  /* issue 5: one web request's path through the server (seed 000 Figs 4.1, 4.2) */             \
  X(WebAsk, "a=request b=packet (its frame) c=NIC d=connection: a client asks for a file")      \
  X(WebSegment,                                                                                 \
    "a=packet b=request c=NIC d=header bytes (TCP/IP, HTTP: nic_pkt_append_mm) e=content "      \
    "bytes: TCP hands the driver one segment; its CacheCommand records follow")                 \
  X(NicCacheAppend,                                                                             \
    "a=packet b=bytes: the NIC copies cached content into its transmit buffer (Fig 4.12 "       \
    "steps 2 and 4, nic_pkt_append_cache)")                                                     \
  /* issue 6: SINIC registers and VNICs (seed 003 §3.1, nic_facts §1) */                      \
  X(NicRegister,                                                                                \
    "a=register(0 RxData,1 RxDone,2 RxWait,3 TxData,4 TxDone,5 TxWait,6 IntrStatus,7 "          \
    "IntrMask,8 doorbell) b=VNIC (65535 device-wide) c=value bits 31..0 d=value bits "          \
    "63..32 e=access ns (RxWait/TxWait: until satisfied): the driver read or wrote a NIC "      \
    "register (SINIC values laid out as nic_facts §1.3)")                                       \
  X(VnicState,                                                                                  \
    "a=VNIC b=state(0 free,1 posted,2 copying,3 payload deferred,4 done) c=packet d=bytes "     \
    "(posted: requested; copying: this copy; deferred: left in the FIFO; done: last "           \
    "copy) e=receive FIFO bytes: a receive VNIC changed state (as the trace window "            \
    "opens: every VNIC not free)")

enum class TraceKind : std::uint16_t {
#define NICSIM_X(name, doc) name,
  NICSIM_TRACE_KINDS(NICSIM_X)
#undef NICSIM_X
      Count
};

// clang-format off
#define NICSIM_COMPONENTS(X)   \
  X(HostCpu, "host_cpu")       \
  X(Driver, "driver")          \
  X(Bus, "bus")                \
  X(Nic, "nic")                \
  X(DmaRead, "dma_read")       \
  X(DmaWrite, "dma_write")     \
  X(MacTx, "mac_tx")           \
  X(MacRx, "mac_rx")           \
  X(WireTx, "wire_tx")         \
  X(WireRx, "wire_rx")         \
  X(Peer, "peer")              \
  X(HostBridge, "host_bridge") \
  X(Disk, "disk")              \
  X(TigonCpu, "tigon_cpu")     \
  X(Sram, "sram")
// clang-format on

enum class Component : std::uint16_t {
#define NICSIM_X(name, str) name,
  NICSIM_COMPONENTS(NICSIM_X)
#undef NICSIM_X
      Count
};

// What a bus transaction or DMA carries (trace fields "purpose").
#define NICSIM_PURPOSES(X)                              \
  X(SendBdFetch, "send descriptor fetch")               \
  X(SendDataFetch, "send data fetch")                   \
  X(RecvBdFetch, "receive descriptor fetch")            \
  X(RecvDataWrite, "receive data write")                \
  X(ReturnBdWrite, "return descriptor write")           \
  X(SendConsumerWrite, "send consumer index write")     \
  X(ReturnProducerWrite, "return producer index write") \
  X(MailboxPio, "mailbox write") X(DiskTransfer, "disk transfer") X(RegisterRead, "register read")

// Phases of a PCI/PCI-X bus tenure (thesis §4.1.2; pci_facts §2, §9).
#define NICSIM_BUS_PHASES(X)     \
  X(Arbitration, "arbitration")  \
  X(Address, "address")          \
  X(DualAddress, "dual address") \
  X(Attribute, "attribute")      \
  X(Turnaround, "turnaround")    \
  X(Wait, "wait")                \
  X(Data, "data")                \
  X(Stop, "stop") X(Idle, "idle") X(SplitResponse, "split response") X(BusIdle, "bus idle")

enum class BusPhase : std::uint16_t {
#define NICSIM_X(name, str) name,
  NICSIM_BUS_PHASES(NICSIM_X)
#undef NICSIM_X
      Count
};

// Every bus cycle belongs to exactly one of these (thesis Figs 4.6/4.7 and §4.2).
#define NICSIM_BUS_CATEGORIES(X)                 \
  X(Content, "packet content")                   \
  X(NetworkHeaders, "network headers")           \
  X(AppHeaders, "application headers")           \
  X(Descriptors, "descriptors and ring indices") \
  X(OtherDevices, "other devices")               \
  X(ArbitrationCycles, "arbitration")            \
  X(AddressCycles, "address")                    \
  X(WaitCycles, "wait/stall")                    \
  X(RetryCycles, "retry") X(TurnaroundCycles, "turnaround") X(IdleCycles, "idle")

enum class BusCategory : std::uint16_t {
#define NICSIM_X(name, str) name,
  NICSIM_BUS_CATEGORIES(NICSIM_X)
#undef NICSIM_X
      Count
};

enum class Purpose : std::uint16_t {
#define NICSIM_X(name, str) name,
  NICSIM_PURPOSES(NICSIM_X)
#undef NICSIM_X
      Count
};

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
