#include "scenario/params.hpp"

#include <cmath>

namespace nicsim {

namespace {

Time to_ps(const Json& v, double scale) {
  return static_cast<Time>(std::llround(v.get<double>() * scale));
}
double from_ps(Time t, double scale) { return static_cast<double>(t) / scale; }

// Field accessors generated per parameter (captureless lambdas become function pointers).
#define INT_FIELD(field)                                                                  \
  [](Config& c, const Json& v) { c.field = static_cast<std::int64_t>(v.get<double>()); }, \
      [](const Config& c) { return Json(c.field); }
#define TIME_FIELD(field, scale)                               \
  [](Config& c, const Json& v) { c.field = to_ps(v, scale); }, \
      [](const Config& c) { return Json(from_ps(c.field, scale)); }

const char* direction_name(Direction d) {
  switch (d) {
    case Direction::Send:
      return "send";
    case Direction::Receive:
      return "receive";
    case Direction::Bidirectional:
      return "bidirectional";
  }
  return "send";
}

std::vector<ParamSpec> build_registry() {
  constexpr double kNsScale = 1000.0;
  constexpr double kUsScale = 1000000.0;
  constexpr double kBig = 1e9;
  std::vector<ParamSpec> r;
  // ---- system ----
  r.push_back({"system.nics",
               ParamType::Integer,
               1,
               2,
               {},
               1,
               "NICs",
               "thesis §2.3 / §4.4: one NIC for the microbenchmarks, two for the web server",
               "NICs on the bus, each with its own rings, driver, wire and peer",
               INT_FIELD(nics)});
  r.push_back({"system.disk.rate_mbps",
               ParamType::Integer,
               0,
               4000,
               {},
               0,
               "Mb/s",
               "chosen: no disk traffic unless a scenario asks (thesis §2.3: a SCSI controller "
               "shares the server's PCI)",
               "Background DMA writes by a disk controller (0 = none)",
               INT_FIELD(disk.rate_mbps)});
  r.push_back({"system.disk.burst_bytes",
               ParamType::Integer,
               8,
               65536,
               {},
               4096,
               "bytes",
               "chosen: one 4 KB page per DMA",
               "Bytes per disk DMA",
               INT_FIELD(disk.burst_bytes)});
  // ---- host ----
  r.push_back({"system.host.send_cost_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               300,
               "ns",
               "chosen: kernel-generated UDP packets (thesis §3.3.2) cost little; small enough "
               "that the host never limits the Ch.2 microbenchmarks",
               "Host CPU time to build one UDP packet and post its send descriptor (S1)",
               TIME_FIELD(host.send_cost, kNsScale)});
  r.push_back({"system.host.receive_cost_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               300,
               "ns",
               "chosen: as send_cost_ns",
               "Host CPU time to pass one received packet up the stack",
               TIME_FIELD(host.receive_cost, kNsScale)});
  r.push_back({"system.host.interrupt_cost_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               1000,
               "ns",
               "chosen: about 2000 cycles of a 2 GHz CPU to enter and leave an interrupt handler",
               "Host CPU time to enter and leave the interrupt handler",
               TIME_FIELD(host.interrupt_cost, kNsScale)});
  r.push_back({"system.host.send_complete_cost_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               50,
               "ns",
               "chosen: freeing one packet buffer",
               "Host CPU time to recycle one completed send descriptor",
               TIME_FIELD(host.send_complete_cost, kNsScale)});
  r.push_back({"system.host.pio_buffer_entries",
               ParamType::Integer,
               1,
               1024,
               {},
               8,
               "writes",
               "chosen: a small posted-write buffer in the host bridge",
               "Mailbox writes the host bridge can hold before the CPU stalls on the next one",
               INT_FIELD(host.pio_buffer_entries)});
  // ---- driver ----
  r.push_back({"system.driver.send_ring_size",
               ParamType::Integer,
               4,
               65536,
               {},
               512,
               "descriptors",
               "nic_facts §3.4: the Tigon send ring holds 512 descriptors (FreeBSD)",
               "Entries in the send ring (one slot is kept empty)",
               INT_FIELD(driver.send_ring_size)});
  r.push_back({"system.driver.receive_ring_size",
               ParamType::Integer,
               4,
               65536,
               {},
               512,
               "descriptors",
               "nic_facts §3.4: the Tigon standard receive ring holds 512",
               "Entries in the receive ring (pre-allocated buffers)",
               INT_FIELD(driver.receive_ring_size)});
  r.push_back({"system.driver.return_ring_size",
               ParamType::Integer,
               4,
               65536,
               {},
               2048,
               "descriptors",
               "nic_facts §3.4: the Tigon receive return ring holds 2048",
               "Entries in the receive return ring",
               INT_FIELD(driver.return_ring_size)});
  r.push_back({"system.driver.receive_buffers_posted",
               ParamType::Integer,
               1,
               65535,
               {},
               511,
               "buffers",
               "chosen: fill the receive ring (one slot kept empty, nic_facts §3.4)",
               "Receive buffers the driver keeps posted",
               INT_FIELD(driver.receive_buffers_posted)});
  r.push_back({"system.driver.send_consumer_by_pio", ParamType::Choice, 0, 0, {false, true}, false, "",
               "seed 000 §3.2 (Table 3.4): PARALLEL's driver reads the send consumer index through "
               "memory-mapped I/O instead of the NIC writing it by DMA",
               "The driver reads the NIC's send consumer index by a PIO register read",
               [](Config& c, const Json& v) {
                 c.driver.send_consumer_by_pio = v.get<bool>();
                 c.nic.send_consumer_by_pio = v.get<bool>();
               },
               [](const Config& c) { return Json(c.driver.send_consumer_by_pio); }});
  // ---- bus ----
  r.push_back(
      {"system.bus.model",
       ParamType::Choice,
       0,
       0,
       {"pci", "fixed"},
       "pci",
       "",
       "thesis §4.1.2: phases of a PCI transfer; \"fixed\" is the foundation's bus and, with "
       "4 overhead cycles on 64-bit/133 MHz, the cost model of seed 004 §2",
       "Detailed PCI/PCI-X phases, or a fixed overhead per transaction",
       [](Config& c, const Json& v) {
         c.bus.model = v.get<std::string>() == "fixed" ? BusModel::Fixed : BusModel::Pci;
       },
       [](const Config& c) { return Json(c.bus.model == BusModel::Fixed ? "fixed" : "pci"); }});
  r.push_back({"system.bus.protocol",
               ParamType::Choice,
               0,
               0,
               {"pci", "pci-x"},
               "pci",
               "",
               "thesis Table 4.2: conventional 64-bit PCI; PCI-X per pci_facts §9",
               "Conventional PCI (33/66 MHz) or PCI-X (66/100/133 MHz, split reads)",
               [](Config& c, const Json& v) {
                 c.bus.protocol =
                     v.get<std::string>() == "pci-x" ? BusProtocol::PciX : BusProtocol::Pci;
               },
               [](const Config& c) {
                 return Json(c.bus.protocol == BusProtocol::PciX ? "pci-x" : "pci");
               }});
  r.push_back({"system.bus.width_bits",
               ParamType::Choice,
               0,
               0,
               {32, 64},
               64,
               "bits",
               "thesis §2.3: 64-bit PCI slots",
               "Width of the I/O bus",
               INT_FIELD(bus.width_bits)});
  r.push_back({"system.bus.clock_mhz",
               ParamType::Choice,
               0,
               0,
               {33, 66, 100, 133},
               33,
               "MHz",
               "thesis Table 4.2: 64-bit/33 MHz PCI (nominal; 33 means 33.33 MHz)",
               "Bus clock (nominal PCI/PCI-X frequency)",
               INT_FIELD(bus.clock_mhz)});
  r.push_back({"system.bus.overhead_cycles",
               ParamType::Integer,
               0,
               1000,
               {},
               8,
               "cycles",
               "chosen: arbitration, address, target latency and turnaround of a short transaction "
               "(pci_facts §12.2); seed 004 §2 uses 4 on PCI-X",
               "Fixed model only: overhead cycles of every transaction",
               INT_FIELD(bus.overhead_cycles)});
  r.push_back(
      {"system.bus.arbitration_cycles",
       ParamType::Integer,
       0,
       16,
       {},
       2,
       "cycles",
       "pci_facts §3: AMD-761 arbitration latency on an idle bus, 2 clocks for a master not "
       "parked (the bus parks on the host bridge); hidden when the bus is busy",
       "REQ# to GNT# on an idle bus",
       INT_FIELD(bus.arbitration_cycles)});
  r.push_back(
      {"system.bus.memory_latency_ns",
       ParamType::Number,
       0,
       10000,
       {},
       350,
       "ns",
       "chosen: main-memory latency seen by a DMA read, incl. the CPU cache probe "
       "(pci_facts §12.1 brackets 150–450 ns). With the 40-clock latency timer it gives the "
       "thesis's split of a web server's PCI traffic (seed 000 §4.2: ~30% overhead at 33 MHz, "
       "about twice that at 66 MHz, content throughput up only a little). Fixed in ns, so it "
       "costs twice the cycles at 66 MHz",
       "Memory stall before a DMA read's first data",
       TIME_FIELD(bus.memory_latency, kNsScale)});
  r.push_back({"system.bus.write_wait_cycles",
               ParamType::Integer,
               0,
               16,
               {},
               1,
               "cycles",
               "chosen: posted writes, fast DEVSEL, 0–2 initial waits (pci_facts §12.1)",
               "Wait cycles before a DMA write's first data",
               INT_FIELD(bus.write_wait_cycles)});
  r.push_back({"system.bus.target_wait_cycles",
               ParamType::Integer,
               0,
               16,
               {},
               2,
               "cycles",
               "chosen: medium DEVSEL decode of a NIC register (pci_facts §2)",
               "Wait cycles of a programmed-I/O write to a NIC register",
               INT_FIELD(bus.target_wait_cycles)});
  r.push_back({"system.bus.initial_latency_limit_cycles",
               ParamType::Integer,
               4,
               64,
               {},
               32,
               "cycles",
               "pci_facts §7: the AMD-761 host bridge retries a read not ready within 32 clocks "
               "(the PCI 2.2 rule for other targets is 16)",
               "Clocks from FRAME# to the first data before the target must Retry",
               INT_FIELD(bus.initial_latency_limit)});
  r.push_back({"system.bus.delayed_transaction_slots",
               ParamType::Integer,
               1,
               16,
               {},
               1,
               "entries",
               "pci_facts §7: the AMD-761 keeps one delayed transaction; other reads are retried, "
               "not queued",
               "Reads the host bridge completes in the background after a Retry",
               INT_FIELD(bus.delayed_slots)});
  r.push_back({"system.bus.retry_gap_cycles",
               ParamType::Integer,
               0,
               16,
               {},
               2,
               "cycles",
               "pci_facts §7: after STOP# the master deasserts REQ# for about 2 clocks",
               "Clocks before a retried or disconnected master asks again",
               INT_FIELD(bus.retry_gap_cycles)});
  r.push_back({"system.bus.read_disconnect_bytes",
               ParamType::Choice,
               0,
               0,
               {"none", 32, 64, 128, 256, 512, 1024, 2048, 4096},
               "none",
               "bytes",
               "chosen: the host bridge's read prefetch ends at a boundary and it disconnects "
               "(pci_facts §5: a cache line, 2 lines or 4 KB on real bridges)",
               "Boundary at which the host bridge disconnects a DMA read burst",
               [](Config& c, const Json& v) {
                 c.bus.read_disconnect_bytes =
                     v.is_string() ? 0 : static_cast<std::int64_t>(v.get<double>());
               },
               [](const Config& c) {
                 return c.bus.read_disconnect_bytes == 0 ? Json("none")
                                                         : Json(c.bus.read_disconnect_bytes);
               }});
  r.push_back(
      {"system.bus.write_buffer_bytes",
       ParamType::Choice,
       0,
       0,
       {"unlimited", 64, 128, 256, 512, 1024, 2048, 4096},
       "unlimited",
       "bytes",
       "chosen: unlimited, so writes are not cut (pci_facts §12.2 notes the posting buffer "
       "filling as the case it leaves out)",
       "Host bridge posted-write buffer: a longer DMA write is disconnected when it fills",
       [](Config& c, const Json& v) {
         c.bus.write_buffer_bytes = v.is_string() ? 0 : static_cast<std::int64_t>(v.get<double>());
       },
       [](const Config& c) {
         return c.bus.write_buffer_bytes == 0 ? Json("unlimited") : Json(c.bus.write_buffer_bytes);
       }});
  r.push_back({"system.bus.latency_timer_cycles",
               ParamType::Integer,
               0,
               255,
               {},
               40,
               "cycles",
               "chosen: 40 clocks, a BIOS setting (pci_facts §3: BIOS menus offered 16–128; "
               "Linux raises values below 16 to 64, FreeBSD, the thesis's OS, keeps the BIOS "
               "value). With two NICs always asking, it sets the burst length, and it counts "
               "clocks: at 66 MHz the same memory stall takes twice the share of each tenure",
               "A master must end its burst once this expires and another master wants the bus",
               INT_FIELD(bus.latency_timer)});
  r.push_back({"system.bus.buffers_above_4gb",
               ParamType::Choice,
               0,
               0,
               {false, true},
               false,
               "",
               "pci_facts §4: the thesis hosts had 2 GB, so no dual address cycles",
               "Buffers above 4 GB need a dual address cycle (one more clock)",
               [](Config& c, const Json& v) { c.bus.dual_address = v.get<bool>(); },
               [](const Config& c) { return Json(c.bus.dual_address); }});
  r.push_back({"system.bus.mmrbc_bytes",
               ParamType::Choice,
               0,
               0,
               {512, 1024, 2048, 4096},
               512,
               "bytes",
               "pci_facts §9: PCI-X maximum memory read byte count, 512 after reset",
               "PCI-X: most bytes one split read request asks for",
               INT_FIELD(bus.mmrbc)});
  // ---- nic ----
  r.push_back({"system.nic.send_bd_bytes",
               ParamType::Integer,
               4,
               256,
               {},
               16,
               "bytes",
               "nic_facts §3.4: Tigon send descriptor is 16 bytes",
               "Size of a send descriptor",
               INT_FIELD(nic.send_bd_bytes)});
  r.push_back({"system.nic.receive_bd_bytes",
               ParamType::Integer,
               4,
               256,
               {},
               32,
               "bytes",
               "nic_facts §3.4: Tigon receive descriptor is 32 bytes",
               "Size of a receive descriptor",
               INT_FIELD(nic.receive_bd_bytes)});
  r.push_back({"system.nic.return_bd_bytes",
               ParamType::Integer,
               4,
               256,
               {},
               32,
               "bytes",
               "nic_facts §3.4: Tigon return descriptor is 32 bytes",
               "Size of a receive return descriptor",
               INT_FIELD(nic.return_bd_bytes)});
  r.push_back({"system.nic.index_bytes",
               ParamType::Integer,
               1,
               64,
               {},
               4,
               "bytes",
               "nic_facts §3.5: 32-bit index words DMA-written to host memory",
               "Size of an index update written by the NIC",
               INT_FIELD(nic.index_bytes)});
  r.push_back({"system.nic.bd_fetch_max",
               ParamType::Integer,
               1,
               256,
               {},
               8,
               "descriptors",
               "chosen: an ASIC NIC fetches several descriptors per DMA (nic_facts §2.3)",
               "Most descriptors fetched by one DMA read",
               INT_FIELD(nic.bd_fetch_max)});
  r.push_back({"system.nic.tx_buffer_bytes",
               ParamType::Integer,
               1518,
               1 << 26,
               {},
               262144,
               "bytes",
               "nic_facts §3.9: about 1/3 of ~800 KB of Tigon buffer memory for transmit",
               "NIC transmit buffer",
               INT_FIELD(nic.tx_buffer_bytes)});
  r.push_back({"system.nic.rx_buffer_bytes",
               ParamType::Integer,
               1518,
               1 << 26,
               {},
               524288,
               "bytes",
               "nic_facts §3.9: the remaining ~2/3 for receive",
               "NIC receive buffer",
               INT_FIELD(nic.rx_buffer_bytes)});
  r.push_back({"system.nic.dma_queue_depth",
               ParamType::Integer,
               1,
               4096,
               {},
               16,
               "requests",
               "chosen: a small DMA descriptor queue per channel (thesis §2.1 names the queues, "
               "not their depth)",
               "Requests each DMA channel (read, write) can hold",
               INT_FIELD(nic.dma_queue_depth)});
  r.push_back({"system.nic.dma_max_burst_bytes",
               ParamType::Choice,
               0,
               0,
               {4, 16, 32, 64, 128, 256, 1024, "unlimited"},
               "unlimited",
               "bytes",
               "nic_facts §3.8: the Tigon's DMA burst cap; drivers normally leave it unlimited",
               "Longest burst the NIC's DMA engine asks for; longer DMAs are split",
               [](Config& c, const Json& v) {
                 c.nic.dma_max_burst =
                     v.is_string() ? 0 : static_cast<std::int64_t>(v.get<double>());
               },
               [](const Config& c) {
                 return c.nic.dma_max_burst == 0 ? Json("unlimited") : Json(c.nic.dma_max_burst);
               }});
  r.push_back({"system.nic.coalesce.send_bds",
               ParamType::Integer,
               1,
               65536,
               {},
               60,
               "descriptors",
               "nic_facts §3.7: Linux acenic TX max coalesced BDs",
               "Send descriptors consumed before the NIC writes the consumer index and interrupts",
               INT_FIELD(nic.send_coalesce_bds)});
  r.push_back({"system.nic.coalesce.send_timer_us",
               ParamType::Number,
               0,
               1e6,
               {},
               400,
               "µs",
               "nic_facts §3.7: Linux acenic TX coal ticks (1 tick = 1 µs)",
               "Longest wait after the first unreported send completion (0 = no timer)",
               TIME_FIELD(nic.send_coalesce_timer, kUsScale)});
  r.push_back(
      {"system.nic.coalesce.receive_bds",
       ParamType::Integer,
       1,
       65536,
       {},
       25,
       "descriptors",
       "nic_facts §3.7: Linux acenic RX max coalesced BDs",
       "Return descriptors produced before the NIC writes the producer index and interrupts",
       INT_FIELD(nic.receive_coalesce_bds)});
  r.push_back({"system.nic.coalesce.receive_timer_us",
               ParamType::Number,
               0,
               1e6,
               {},
               120,
               "µs",
               "nic_facts §3.7: Linux acenic RX coal ticks",
               "Longest wait after the first unreported receive (0 = no timer)",
               TIME_FIELD(nic.receive_coalesce_timer, kUsScale)});
  r.push_back({"system.nic.delays.mailbox_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               40,
               "ns",
               "chosen: a few cycles of an ASIC state machine",
               "Mailbox write seen → descriptor fetch issued",
               TIME_FIELD(nic.delays.mailbox, kNsScale)});
  r.push_back({"system.nic.delays.bd_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               40,
               "ns",
               "chosen: as mailbox_ns",
               "Descriptor fetched → data fetch issued",
               TIME_FIELD(nic.delays.bd, kNsScale)});
  r.push_back({"system.nic.delays.tx_frame_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               40,
               "ns",
               "chosen: as mailbox_ns",
               "Frame in transmit buffer → handed to the MAC",
               TIME_FIELD(nic.delays.tx_frame, kNsScale)});
  r.push_back({"system.nic.delays.rx_frame_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               40,
               "ns",
               "chosen: as mailbox_ns",
               "Frame in receive buffer → data write issued",
               TIME_FIELD(nic.delays.rx_frame, kNsScale)});
  r.push_back({"system.nic.delays.interrupt_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               40,
               "ns",
               "chosen: as mailbox_ns",
               "Index written to the host → interrupt asserted",
               TIME_FIELD(nic.delays.interrupt, kNsScale)});
  // ---- link ----
  r.push_back({"system.link.rate_mbps",
               ParamType::Choice,
               0,
               0,
               {1000, 10000},
               1000,
               "Mb/s",
               "thesis §2.1: Gigabit Ethernet",
               "Ethernet line rate",
               INT_FIELD(link.rate_mbps)});
  r.push_back({"system.link.preamble_bytes",
               ParamType::Integer,
               0,
               64,
               {},
               8,
               "bytes",
               "IEEE 802.3 (nic_facts §2.5): 7 preamble + 1 start delimiter",
               "Preamble on the wire before each frame",
               INT_FIELD(link.preamble_bytes)});
  r.push_back({"system.link.ifg_bytes",
               ParamType::Integer,
               0,
               64,
               {},
               12,
               "bytes",
               "IEEE 802.3 (nic_facts §2.5): 12-byte inter-frame gap",
               "Idle gap on the wire after each frame",
               INT_FIELD(link.ifg_bytes)});
  r.push_back({"system.link.propagation_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               0,
               "ns",
               "chosen: a short cable",
               "Propagation delay of the wire",
               TIME_FIELD(link.propagation, kNsScale)});
  // ---- workload ----
  r.push_back(
      {"workload.kind",
       ParamType::Choice,
       0,
       0,
       {"udp", "tcp-segments"},
       "udp",
       "",
       "thesis §3.3.2 (UDP microbenchmarks) and §4.1.1 (a web server's zero-copy TCP segments)",
       "UDP datagrams, or TCP segments sent as a header buffer plus a content buffer",
       [](Config& c, const Json& v) {
         c.workload.kind =
             v.get<std::string>() == "tcp-segments" ? WorkloadKind::TcpSegments : WorkloadKind::Udp;
       },
       [](const Config& c) {
         return Json(c.workload.kind == WorkloadKind::TcpSegments ? "tcp-segments" : "udp");
       }});
  r.push_back({"workload.segment_bytes",
               ParamType::Integer,
               1,
               1460,
               {},
               1448,
               "bytes",
               "thesis §4.4.1: TCP segments of 1448 bytes of payload",
               "tcp-segments: content bytes per segment",
               INT_FIELD(workload.segment_bytes)});
  r.push_back({"workload.segment_header_bytes",
               ParamType::Integer,
               54,
               120,
               {},
               66,
               "bytes",
               "pci_facts §12.3: Ethernet 14 + IP 20 + TCP 20 + timestamp option 12",
               "tcp-segments: bytes of the header buffer",
               INT_FIELD(workload.segment_header_bytes)});
  r.push_back({"workload.ack_every",
               ParamType::Integer,
               0,
               64,
               {},
               2,
               "segments",
               "chosen: delayed ACKs, one per two full segments (RFC 1122); 0 = no ACKs",
               "tcp-segments: the client sends one ACK per this many segments",
               INT_FIELD(workload.ack_every)});
  r.push_back({"workload.direction",
               ParamType::Choice,
               0,
               0,
               {"send", "receive", "bidirectional"},
               "send",
               "",
               "thesis §3.3.2: UDP send, receive and bidirectional microbenchmarks",
               "Which way UDP datagrams flow (send = host transmits)",
               [](Config& c, const Json& v) {
                 const std::string s = v.get<std::string>();
                 c.workload.direction = s == "receive"         ? Direction::Receive
                                        : s == "bidirectional" ? Direction::Bidirectional
                                                               : Direction::Send;
               },
               [](const Config& c) { return Json(direction_name(c.workload.direction)); }});
  r.push_back({"workload.datagram_bytes",
               ParamType::Integer,
               18,
               1472,
               {},
               1472,
               "bytes",
               "thesis §3.3.2: datagrams of 18 to 1472 bytes (frames of 64 to 1518 bytes)",
               "UDP payload per datagram",
               INT_FIELD(workload.datagram_bytes)});
  r.push_back({"workload.packets",
               ParamType::Integer,
               0,
               10000000,
               {},
               0,
               "packets",
               "thesis §3.3.2: infinite demand (0); a count lets a student follow single packets",
               "Datagrams to send or receive per direction (0 = infinite demand)",
               INT_FIELD(workload.packets)});
  r.push_back({"workload.start_us",
               ParamType::Number,
               0,
               100000,
               {},
               0,
               "µs",
               "chosen: 0 for throughput runs; a few µs lets a student watch the driver's "
               "initialisation (posting receive buffers) before the first packet",
               "When the first datagram is offered",
               TIME_FIELD(workload.start, kUsScale)});
  r.push_back({"workload.peer_jitter_ns",
               ParamType::Number,
               0,
               1e6,
               {},
               0,
               "ns",
               "chosen: the peer sends at exactly line rate unless asked otherwise",
               "Random extra gap (uniform, seeded) between frames the peer sends",
               TIME_FIELD(workload.peer_jitter, kNsScale)});
  // ---- run ----
  r.push_back({"run.duration_us",
               ParamType::Number,
               0.001,
               100000,
               {},
               1000,
               "µs",
               "chosen",
               "Simulated time of one run",
               TIME_FIELD(run.duration, kUsScale)});
  r.push_back({"run.warmup_us",
               ParamType::Number,
               0,
               100000,
               {},
               200,
               "µs",
               "chosen: long enough to fill the rings and reach steady state",
               "Time excluded from the measured rates",
               TIME_FIELD(run.warmup, kUsScale)});
  r.push_back({"run.sample_interval_us",
               ParamType::Number,
               0.001,
               100000,
               {},
               10,
               "µs",
               "chosen",
               "Interval of the sampled time series",
               TIME_FIELD(run.sample_interval, kUsScale)});
  r.push_back(
      {"run.seed",
       ParamType::Integer,
       0,
       9007199254740991.0,
       {},
       1,
       "",
       "chosen",
       "Seed of the run's one random generator",
       [](Config& c, const Json& v) { c.run.seed = static_cast<std::uint64_t>(v.get<double>()); },
       [](const Config& c) { return Json(c.run.seed); }});
  r.push_back({"run.trace.start_us",
               ParamType::Number,
               0,
               100000,
               {},
               0,
               "µs",
               "chosen",
               "Start of the traced window",
               TIME_FIELD(run.trace_start, kUsScale)});
  r.push_back({"run.trace.end_us",
               ParamType::Number,
               0,
               100000,
               {},
               100,
               "µs",
               "chosen",
               "End of the traced window",
               TIME_FIELD(run.trace_end, kUsScale)});
  r.push_back({"run.trace.max_records",
               ParamType::Integer,
               0,
               2000000,
               {},
               200000,
               "records",
               "chosen: 6.4 MB of trace at most",
               "Cap on recorded trace records",
               INT_FIELD(run.trace_max_records)});
  (void)kBig;
  return r;
}

}  // namespace

const std::vector<ParamSpec>& parameter_registry() {
  static const std::vector<ParamSpec> registry = build_registry();
  return registry;
}

const ParamSpec* find_param(const std::string& path) {
  for (const auto& p : parameter_registry()) {
    if (path == p.path) return &p;
  }
  return nullptr;
}

namespace {
std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return dump_json(Json(v));
}
std::string type_name(const Json& v) {
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return "a number";
}
}  // namespace

std::string check_param_value(const ParamSpec& spec, const Json& value) {
  const std::string unit = spec.unit[0] ? std::string(" ") + spec.unit : "";
  if (spec.type == ParamType::Choice) {
    for (const auto& c : spec.choices) {
      if (c.is_number() && value.is_number() && c.get<double>() == value.get<double>()) return "";
      if (c.is_string() && value.is_string() && c == value) return "";
      if (c.is_boolean() && value.is_boolean() && c == value) return "";
    }
    std::string allowed;
    for (const auto& c : spec.choices) {
      if (!allowed.empty()) allowed += ", ";
      allowed += c.is_string() ? "\"" + c.get<std::string>() + "\"" : dump_json(c);
    }
    return "must be one of " + allowed + (unit.empty() ? "" : " (" + std::string(spec.unit) + ")") +
           ", got " +
           (value.is_string() || value.is_number() ? dump_json(value) : type_name(value));
  }
  const std::string range = number_text(spec.min) + " to " + number_text(spec.max) + unit;
  if (!value.is_number()) {
    return "must be a number from " + range + ", got " + type_name(value);
  }
  const double v = value.get<double>();
  if (!std::isfinite(v)) return "must be a finite number from " + range;
  if (spec.type == ParamType::Integer && v != std::floor(v)) {
    return "must be a whole number from " + range + ", got " + dump_json(value);
  }
  if (v < spec.min || v > spec.max) {
    return "is out of range: " + dump_json(value) + "; allowed " + range;
  }
  return "";
}

Json parameter_info_json() {
  Json out = Json::array();
  for (const auto& p : parameter_registry()) {
    Json j;
    j["path"] = p.path;
    j["type"] = p.type == ParamType::Integer  ? "integer"
                : p.type == ParamType::Number ? "number"
                                              : "choice";
    if (p.type == ParamType::Choice) {
      j["choices"] = p.choices;
    } else {
      j["min"] = p.min;
      j["max"] = p.max;
    }
    j["default"] = p.def;
    j["unit"] = p.unit;
    j["origin"] = p.origin;
    j["description"] = p.description;
    out.push_back(j);
  }
  return out;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

Json effective_parameters(const Config& config) {
  Json out = Json::object();
  for (const auto& p : parameter_registry()) {
    const std::vector<std::string> parts = split_path(p.path);
    Json* node = &out;
    for (std::size_t k = 0; k + 1 < parts.size(); ++k) node = &(*node)[parts[k]];
    (*node)[parts.back()] = p.get(config);
  }
  return out;
}

}  // namespace nicsim
