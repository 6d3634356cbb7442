#include "scenario/params.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>

#include "scenario/fits.hpp"
#include "scenario/param_fields.hpp"

namespace nicsim {

namespace {

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

// Per-event partition and per-path instruction parameters, generated from the firmware tables.
std::uint8_t cpu_mask_of(const std::string& v) {
  return v == "A" ? kCpuA : v == "B" ? kCpuB : v == "both" ? kCpuBoth : 0;
}
const char* cpu_mask_name(std::uint8_t m) {
  return m == kCpuA ? "A" : m == kCpuB ? "B" : m == kCpuBoth ? "both" : "none";
}
template <int I>
void set_partition(Config& c, const Json& v) {
  c.tigon.partition[I] = cpu_mask_of(v.get<std::string>());
}
template <int I>
Json get_partition(const Config& c) {
  return Json(cpu_mask_name(c.tigon.partition[I]));
}
template <int I>
void set_instructions(Config& c, const Json& v) {
  c.tigon.instructions[I] = static_cast<std::int64_t>(v.get<double>());
}
template <int I>
Json get_instructions(const Config& c) {
  return Json(c.tigon.instructions[I]);
}
// Registry paths are const char*: the generated ones are kept alive here.
const char* snake_path(const std::string& prefix, const char* camel) {
  static std::deque<std::string> names;
  names.push_back(prefix + snake_case(camel));
  return names.back().c_str();
}

void add_tigon_params(std::vector<ParamSpec>& r);
void add_server_params(std::vector<ParamSpec>& r);

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
  r.push_back({"system.nic_cache.kbytes",
               ParamType::Integer,
               0,
               1048576,
               {},
               0,
               "KB",
               "seed 000 §4.2: caches of 64 KB to 16 MB simulated; 4, 8 and 16 MB per NIC in the "
               "prototype (Tables 4.4-4.7)",
               "NIC data cache on each NIC (0 = none)",
               [](Config& c, const Json& v) {
                 c.nic_cache.capacity_bytes = static_cast<std::uint64_t>(v.get<double>()) * 1024;
               },
               [](const Config& c) { return Json(c.nic_cache.capacity_bytes / 1024); }});
  r.push_back({"system.nic_cache.block_bytes",
               ParamType::Integer,
               512,
               65536,
               {},
               4096,
               "bytes",
               "seed 000 §4.4.2: 4 KB, the OS page size; 512 B to 8 KB in Fig 4.5",
               "NIC data cache block size (a power of two)",
               [](Config& c, const Json& v) {
                 c.nic_cache.block_bytes = static_cast<std::uint32_t>(v.get<double>());
               },
               [](const Config& c) { return Json(c.nic_cache.block_bytes); }});
  r.push_back({"system.nic_cache.replacement",
               ParamType::Choice,
               0,
               0,
               {"lru", "lfu", "fifo"},
               "lru",
               "",
               "seed 000 §4.4.2: the prototype's LRU; LFU and FIFO in Fig 4.4",
               "NIC data cache replacement policy",
               [](Config& c, const Json& v) {
                 replacement_from_name(v.get<std::string>(), &c.nic_cache.replacement);
               },
               [](const Config& c) { return Json(replacement_name(c.nic_cache.replacement)); }});
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
  add_server_params(r);
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
  r.push_back({"system.driver.send_consumer_by_pio",
               ParamType::Choice,
               0,
               0,
               {false, true},
               false,
               "",
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
  r.push_back({"system.bus.bridge_read_mbps",
               ParamType::Integer,
               0,
               100000,
               {},
               0,
               "MB/s",
               "chosen: the rate at which the host bridge streams main memory onto the bus during "
               "a DMA read; 0 = as fast as the bus. Above it the bridge inserts wait states. The "
               "web presets set 270 MB/s, fitted to seed 000 §4.2 (at 66 MHz the NASA server's "
               "bus is 92% busy, 30% content, 62% overhead, for 5% more content than at 33 MHz) "
               "and §4.7 (memory bandwidth limits the server)",
               "Host bridge DMA read stream rate",
               INT_FIELD(bus.bridge_read_mbps)});
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
       {"udp", "tcp-segments", "cpu-benchmark", "web", "tcp-stream", "ip-router", "tcp-offload",
        "eta-aio", "protocol-cache"},
       "udp",
       "",
       "thesis §3.3.2 (UDP microbenchmarks), §4.1.1 (a web server's zero-copy TCP segments), "
       "Table 3.5 (the Tigon CPU benchmark), Ch.4 (web traces) and Table 3.6 (the Click IP "
       "router)",
       "UDP datagrams, TCP segments sent as a header buffer plus a content buffer, the Tigon CPU "
       "benchmark, a web server's trace, or an IP router forwarding between two NICs",
       [](Config& c, const Json& v) {
         const std::string k = v.get<std::string>();
         c.workload.kind = k == "tcp-segments"    ? WorkloadKind::TcpSegments
                           : k == "cpu-benchmark" ? WorkloadKind::CpuBenchmark
                           : k == "web"           ? WorkloadKind::Web
                           : k == "tcp-stream"    ? WorkloadKind::TcpStream
                           : k == "ip-router"     ? WorkloadKind::IpRouter
                           : k == "tcp-offload"   ? WorkloadKind::TcpOffload
                           : k == "eta-aio"       ? WorkloadKind::EtaAio
                                                  : WorkloadKind::Udp;
         if (k == "protocol-cache") c.workload.kind = WorkloadKind::ProtocolCache;
       },
       [](const Config& c) {
         if (c.workload.kind == WorkloadKind::ProtocolCache) return Json("protocol-cache");
         return Json(c.workload.kind == WorkloadKind::TcpSegments    ? "tcp-segments"
                     : c.workload.kind == WorkloadKind::CpuBenchmark ? "cpu-benchmark"
                     : c.workload.kind == WorkloadKind::Web          ? "web"
                     : c.workload.kind == WorkloadKind::TcpStream    ? "tcp-stream"
                     : c.workload.kind == WorkloadKind::IpRouter     ? "ip-router"
                     : c.workload.kind == WorkloadKind::TcpOffload   ? "tcp-offload"
                     : c.workload.kind == WorkloadKind::EtaAio       ? "eta-aio"
                                                                     : "udp");
       }});
  r.push_back({"workload.frame_mix",
               ParamType::Choice,
               0,
               0,
               {"fixed", "imix"},
               "fixed",
               "",
               "chosen: the thesis's router traces (NLANR ADV, AIX, MEM) are not published with "
               "it; imix is the simple Internet mix, 7 minimum-size frames, 4 of 594 bytes and 1 "
               "of 1518 bytes",
               "ip-router: every frame of workload.datagram_bytes, or the Internet mix",
               [](Config& c, const Json& v) {
                 c.workload.frame_mix =
                     v.get<std::string>() == "imix" ? FrameMix::Imix : FrameMix::Fixed;
               },
               [](const Config& c) {
                 return Json(c.workload.frame_mix == FrameMix::Imix ? "imix" : "fixed");
               }});
  r.push_back({"workload.benchmark_cpus",
               ParamType::Choice,
               0,
               0,
               {"A", "B", "both"},
               "A",
               "",
               "seed 000 Table 3.5: the benchmark on CPU A only, CPU B only, or both at once",
               "cpu-benchmark: which Tigon CPUs run the LMbench-style loops",
               [](Config& c, const Json& v) {
                 c.workload.benchmark_cpus = cpu_mask_of(v.get<std::string>());
               },
               [](const Config& c) { return Json(cpu_mask_name(c.workload.benchmark_cpus)); }});
  r.push_back({"workload.web_mode",
               ParamType::Choice,
               0,
               0,
               {"cache-only", "full-system"},
               "cache-only",
               "",
               "seed 000 §4.2: the trace-driven cache simulator behind Figs 4.3-4.5 (no time, no "
               "packets: what share of each response's content the NIC caches already hold); "
               "§4.4-4.5: the prototype server behind Tables 4.3-4.7 (every request through host, "
               "rings, bus, NIC and wire)",
               "web: how much of the machine the trace runs through",
               [](Config& c, const Json& v) {
                 c.workload.web_mode = v.get<std::string>() == "full-system" ? WebMode::FullSystem
                                                                             : WebMode::CacheOnly;
               },
               [](const Config& c) {
                 return Json(c.workload.web_mode == WebMode::FullSystem ? "full-system"
                                                                        : "cache-only");
               }});
  r.push_back({"workload.trace",
               ParamType::Choice,
               0,
               0,
               {"berkeley", "ibm", "nasa", "rice", "worldcup", "log"},
               "nasa",
               "",
               "seed 000 Table 4.1: five traces, generated from their published statistics "
               "with fitted popularity (chosen, see core-cpp/workload/web_trace.cpp); \"log\" "
               "replays the access log the user opened",
               "web: the requests the server answers",
               [](Config& c, const Json& v) {
                 const std::string name = v.get<std::string>();
                 c.workload.trace_from_log = name == "log";
                 if (!c.workload.trace_from_log) web_trace_from_name(name, &c.workload.trace);
               },
               [](const Config& c) {
                 return Json(c.workload.trace_from_log ? "log" : web_trace_name(c.workload.trace));
               }});
  r.push_back({"workload.trace_requests",
               ParamType::Integer,
               0,
               20000000,
               {},
               0,
               "requests",
               "seed 000 Table 4.1: 0 replays the trace's full request count (245,820 for Rice to "
               "15,568,217 for IBM); fewer replays its first requests, faster",
               "web: requests replayed",
               [](Config& c, const Json& v) {
                 c.workload.trace_requests = static_cast<std::uint64_t>(v.get<double>());
               },
               [](const Config& c) { return Json(c.workload.trace_requests); }});
  r.push_back({"workload.trace_seed",
               ParamType::Integer,
               0,
               9007199254740991.0,
               {},
               1,
               "",
               "fitted: a generated trace stands in for one of the thesis's logs (seed 000 Table "
               "4.1), and a log is one fixed list of requests, so the trace is drawn from its own "
               "seed, not run.seed; the popularity, size and locality parameters were fitted with "
               "draw 1 (core-cpp/workload/web_trace.cpp), so the draw is part of the fit. Another "
               "draw has the same statistics but other popular files, and the heavy size tails "
               "move what a cache holds: over draws 1-20 NASA's two-NIC reduction at 4 MB is "
               "8.7% +- 6.4 (draw 1: 12.5%; Table 4.4: 13%) and Rice's at 4 MB 29.3% +- 4.2 "
               "(draw 1: 27.9%; Table 4.4: 26%)",
               "web: which draw of the generated trace (another seed draws another trace with the "
               "same statistics)",
               [](Config& c, const Json& v) {
                 c.workload.trace_seed = static_cast<std::uint64_t>(v.get<double>());
               },
               [](const Config& c) { return Json(c.workload.trace_seed); }});
  r.push_back({"workload.warmup_requests",
               ParamType::Integer,
               0,
               20000000,
               {},
               0,
               "requests",
               "seed 000 §4.2: the thesis counts every request from an empty cache",
               "web: first requests not counted (they only warm the caches)",
               [](Config& c, const Json& v) {
                 c.workload.warmup_requests = static_cast<std::uint64_t>(v.get<double>());
               },
               [](const Config& c) { return Json(c.workload.warmup_requests); }});
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
  r.push_back(
      {"workload.rate_kpps",
       ParamType::Number,
       0,
       100000,
       {},
       0,
       "thousand packets/s",
       "chosen: infinite demand unless asked; seed 000 Fig 3.5 measures at a rate low "
       "enough that no packet is dropped",
       "Offered packets per second in each direction, in thousands (0 = as fast as possible)",
       [](Config& c, const Json& v) {
         const double k = v.get<double>();
         c.workload.packet_interval = k > 0 ? static_cast<Time>(std::llround(1e9 / k)) : 0;
       },
       [](const Config& c) {
         return Json(c.workload.packet_interval > 0
                         ? 1e9 / static_cast<double>(c.workload.packet_interval)
                         : 0.0);
       }});
  // ---- run ----
  r.push_back({"run.duration_us",
               ParamType::Number,
               0.001,
               10000000,
               {},
               1000,
               "µs",
               "chosen (up to 10 s: a web server's few rare, costly requests need a 4 s window "
               "(web-sendfile-vs-write's write()), and a window must be able to double to show "
               "it has settled)",
               "Simulated time of one run",
               TIME_FIELD(run.duration, kUsScale)});
  r.push_back({"run.warmup_us",
               ParamType::Number,
               0,
               1000000,
               {},
               200,
               "µs",
               "chosen: long enough to fill the rings and reach steady state (up to 1 s: an "
               "overloaded NIC's receive buffer takes hundreds of ms to settle)",
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
       "chosen (a generated web trace is drawn from workload.trace_seed, not from this)",
       "Seed of the run's one random generator",
       [](Config& c, const Json& v) { c.run.seed = static_cast<std::uint64_t>(v.get<double>()); },
       [](const Config& c) { return Json(c.run.seed); }});
  r.push_back({"run.trace.start_us",
               ParamType::Number,
               0,
               2000000,
               {},
               0,
               "µs",
               "chosen",
               "Start of the traced window",
               TIME_FIELD(run.trace_start, kUsScale)});
  r.push_back({"run.trace.end_us",
               ParamType::Number,
               0,
               2000000,
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
  add_tigon_params(r);
  add_sinic_params(r);
  add_offload_params(r);
  add_eta_params(r);
  add_protocache_params(r);  // protocache/protocache_params.cpp
  return r;
}

#define NUM_FIELD(field)                                       \
  [](Config& c, const Json& v) { c.field = v.get<double>(); }, \
      [](const Config& c) { return Json(c.field); }
#define BOOL_FIELD(field)                                    \
  [](Config& c, const Json& v) { c.field = v.get<bool>(); }, \
      [](const Config& c) { return Json(c.field); }

void add_tigon_params(std::vector<ParamSpec>& r) {
  constexpr double kNsScale = 1000.0;
  constexpr double kUsScale = 1000000.0;
  r.push_back(
      {"system.nic.model",
       ParamType::Choice,
       0,
       0,
       {"fixed", "tigon", "cnic-off-chip", "cnic-on-chip", "sinic", "v-sinic"},
       "fixed",
       "",
       "seed 000 §2.3 (a descriptor-ring ASIC, standing in for the Intel PRO/1000 MT) and §3.1 "
       "(the Tigon); seed 003 §6 (the conventional NIC off and on chip, SINIC, V-SINIC: "
       "workload.kind tcp-stream)",
       "A fixed-function NIC, or the Tigon running event-driven firmware on two CPUs; or one of "
       "the SINIC paper's four NICs",
       [](Config& c, const Json& v) { nic_model_from_name(v.get<std::string>(), &c.nic_model); },
       [](const Config& c) { return Json(nic_model_name(c.nic_model)); }});
  r.push_back(
      {"system.tigon.firmware",
       ParamType::Choice,
       0,
       0,
       {"release", "release-sram-both", "bsd", "parallel", "parallel-sram-code",
        "parallel-sram-data", "parallel-sram-both", "custom", "dynamic"},
       "release",
       "",
       "seed 000 §3.3.1: RELEASE 12.4.13 and BSD run on CPU A only; PARALLEL splits the "
       "handlers as Table 3.4; the -sram variants put code, data or both in the external SRAM "
       "(same as system.tigon.code_in_sram / data_in_sram); custom uses "
       "system.tigon.partition; dynamic lets either CPU take any event under the semaphore (§3.6)",
       "Which firmware runs on the Tigon",
       [](Config& c, const Json& v) {
         const std::string f = v.get<std::string>();
         c.tigon.firmware = f == "bsd"                    ? TigonFirmware::Bsd
                            : f.rfind("parallel", 0) == 0 ? TigonFirmware::Parallel
                            : f == "custom"               ? TigonFirmware::Custom
                            : f == "dynamic"              ? TigonFirmware::Dynamic
                                                          : TigonFirmware::Release;
         if (f == "release-sram-both" || f == "parallel-sram-both" || f == "parallel-sram-code")
           c.tigon.code_in_sram = true;
         if (f == "release-sram-both" || f == "parallel-sram-both" || f == "parallel-sram-data")
           c.tigon.data_in_sram = true;
       },
       [](const Config& c) { return Json(tigon_firmware_name(c.tigon.firmware)); }});
  r.push_back({"system.tigon.code_in_sram",
               ParamType::Choice,
               0,
               0,
               {false, true},
               false,
               "",
               "seed 000 §3.3.1: the SRAM-CODE and SRAM-BOTH variants",
               "Fetch every handler's code from the external SRAM instead of the scratch pads",
               BOOL_FIELD(tigon.code_in_sram)});
  r.push_back({"system.tigon.data_in_sram",
               ParamType::Choice,
               0,
               0,
               {false, true},
               false,
               "",
               "seed 000 §3.3.1: the SRAM-DATA and SRAM-BOTH variants",
               "Keep the handlers' private data in the external SRAM instead of the scratch pads",
               BOOL_FIELD(tigon.data_in_sram)});
#define NICSIM_X(name, label, kind, code_bytes)                                                \
  r.push_back({snake_path("system.tigon.partition.", #name),                                   \
               ParamType::Choice,                                                              \
               0,                                                                              \
               0,                                                                              \
               {"A", "B", "both"},                                                             \
               cpu_mask_name(tigon_table_3_4()[static_cast<int>(TigonEvent::name)]),           \
               "",                                                                             \
               "seed 000 Table 3.4 by default; used when system.tigon.firmware is \"custom\"", \
               "custom firmware: the CPU that handles " label,                                 \
               set_partition<static_cast<int>(TigonEvent::name)>,                              \
               get_partition<static_cast<int>(TigonEvent::name)>});
  NICSIM_TIGON_EVENTS(NICSIM_X)
#undef NICSIM_X
  r.push_back(
      {"system.tigon.semaphore",
       ParamType::Choice,
       0,
       0,
       {"as-needed", "never"},
       "as-needed",
       "",
       "seed 000 §3.1.1: one hardware semaphore; §3.2.2: handlers on different CPUs that share "
       "a DMA channel or data must synchronise",
       "custom firmware: take the semaphore where two CPUs share, or refuse such a partition",
       [](Config& c, const Json& v) {
         c.tigon.semaphore_allowed = v.get<std::string>() != "never";
       },
       [](const Config& c) { return Json(c.tigon.semaphore_allowed ? "as-needed" : "never"); }});
  r.push_back({"system.tigon.clock_mhz",
               ParamType::Integer,
               1,
               1000,
               {},
               88,
               "MHz",
               "seed 000 §3.1.1: two 88 MHz MIPS R4000-based CPUs",
               "Clock of each Tigon CPU",
               INT_FIELD(tigon.clock_mhz)});
  r.push_back({"system.tigon.dispatch_instructions",
               ParamType::Integer,
               1,
               100,
               {},
               4,
               "instructions",
               "seed 000 §3.1.2: the dispatch loop is four instructions using PRI and JOFF",
               "Instructions of one pass of the event dispatch loop",
               INT_FIELD(tigon.dispatch_instructions)});
  r.push_back(
      {"system.tigon.icache_line_instructions",
       ParamType::Integer,
       1,
       64,
       {},
       16,
       "instructions",
       "seed 000 §3.4.1: a one-line 64-byte instruction cache, one miss per 16 instructions",
       "Instructions per instruction-cache line (a miss every this many from SRAM)",
       INT_FIELD(tigon.icache_line_instructions)});
  r.push_back({"system.tigon.icache_miss_cycles",
               ParamType::Integer,
               1,
               100,
               {},
               7,
               "cycles",
               "seed 000 §3.4.1: a miss costs about 7 cycles (the 82 ns SRAM latency at 88 MHz); "
               "Table 3.5's 65 MIPS from SRAM",
               "Cycles of an instruction fetch that misses the one-line cache",
               INT_FIELD(tigon.icache_miss_cycles)});
  r.push_back({"system.tigon.scratch_load_cycles_a",
               ParamType::Integer,
               1,
               20,
               {},
               3,
               "cycles",
               "seed 000 Table 3.5: 37.79 ns on CPU A (one more cycle, 46.75 ns, when the code is "
               "in the scratch pad too)",
               "Latency of a load from CPU A's scratch pad",
               INT_FIELD(tigon.scratch_load_cycles_a)});
  r.push_back({"system.tigon.scratch_load_cycles_b",
               ParamType::Integer,
               1,
               20,
               {},
               3,
               "cycles",
               "seed 000 Table 3.5: 35.11–37.91 ns on CPU B",
               "Latency of a load from CPU B's scratch pad",
               INT_FIELD(tigon.scratch_load_cycles_b)});
  r.push_back(
      {"system.tigon.scratch_store_cycles",
       ParamType::Integer,
       1,
       20,
       {},
       1,
       "cycles",
       "seed 000 Table 3.5: stores to the scratch pad pipeline (230 MB/s with code in SRAM)",
       "Issue cycles of a store to the scratch pad while code comes from SRAM",
       INT_FIELD(tigon.scratch_store_cycles)});
  r.push_back({"system.tigon.sram_load_ns",
               ParamType::Number,
               1,
               10000,
               {},
               81.9,
               "ns",
               "seed 000 Table 3.5: 81.90 ns load latency of the external SRAM",
               "Latency of a load from the external SRAM",
               TIME_FIELD(tigon.sram_load, kNsScale)});
  r.push_back({"system.tigon.sram_store_ns",
               ParamType::Number,
               1,
               10000,
               {},
               23.5,
               "ns",
               "seed 000 Table 3.5: 170 MB/s of 4-byte stores into the SRAM with code in the "
               "scratch pad (23.5 ns each)",
               "Time of one store into the external SRAM",
               TIME_FIELD(tigon.sram_store, kNsScale)});
  r.push_back(
      {"system.tigon.load_fraction",
       ParamType::Number,
       0,
       1,
       {},
       0.2,
       "per instruction",
       "chosen: a typical share of loads in MIPS integer code; the thesis gives none",
       "Loads per handler instruction (private data, and the shared words counted per path)",
       NUM_FIELD(tigon.load_fraction)});
  r.push_back({"system.tigon.store_fraction",
               ParamType::Number,
               0,
               1,
               {},
               0.1,
               "per instruction",
               "chosen: a typical share of stores in MIPS integer code",
               "Stores per handler instruction",
               NUM_FIELD(tigon.store_fraction)});
  r.push_back(
      {"system.tigon.release_scratch_fraction_send",
       ParamType::Number,
       0,
       1,
       {},
       0.8,
       "",
       "chosen: the thesis does not say which code and data the manufacturer placed in the "
       "scratch pad (§3.2.1); fitted so RELEASE's UDP send leaves the Ethernet limit near 1000 "
       "bytes (Fig 3.6; fitted_to names the checks)",
       "RELEASE: share of the send handlers' code fetches and private data in the scratch pad",
       NUM_FIELD(tigon.release_scratch_fraction_send)});
  r.push_back(
      {"system.tigon.release_scratch_fraction_receive",
       ParamType::Number,
       0,
       1,
       {},
       0.0,
       "",
       "chosen: fitted so RELEASE's UDP receive never reaches the Ethernet limit (Fig 3.8); "
       "its bidirectional 938 Mb/s is sram_burst_bytes's fit",
       "RELEASE: share of the other handlers' code fetches and private data in the scratch pad",
       NUM_FIELD(tigon.release_scratch_fraction_receive)});
  r.push_back(
      {"system.tigon.bsd_scratch_fraction_send",
       ParamType::Number,
       0,
       1,
       {},
       1.0,
       "",
       "chosen: BSD is object code only (§3.3.1); fitted with bsd_scratch_fraction_receive "
       "and bsd_instruction_scale to BSD's send knee near 1000 bytes (Fig 3.6), its receive "
       "knee near 1200 bytes (Fig 3.8) and PARALLEL's +146% and +37% over BSD at 18 and 1472 "
       "bytes (Fig 3.10)",
       "BSD: share of the send handlers' code fetches and private data in the scratch pad",
       NUM_FIELD(tigon.bsd_scratch_fraction_send)});
  r.push_back({"system.tigon.bsd_scratch_fraction_receive",
               ParamType::Number,
               0,
               1,
               {},
               0.95,
               "",
               "chosen: fitted with bsd_scratch_fraction_send (see there)",
               "BSD: share of the other handlers' code fetches and private data in the scratch pad",
               NUM_FIELD(tigon.bsd_scratch_fraction_receive)});
  r.push_back({"system.tigon.bsd_instruction_scale",
               ParamType::Number,
               0.1,
               3,
               {},
               1.1,
               "",
               "chosen: fitted with bsd_scratch_fraction_send (see there)",
               "BSD: instructions of every handler relative to RELEASE",
               NUM_FIELD(tigon.bsd_instruction_scale)});
  r.push_back({"system.tigon.sram_bandwidth_mbs",
               ParamType::Integer,
               1,
               100000,
               {},
               426,
               "MB/s",
               "chosen: seed 000 §3.4.1 gives a 64-bit, 50 MHz memory bus (400 MB/s) and also "
               "\"800 MB/s\" (digest §9, inconsistency 5); 426, near the bus's figure, is fitted "
               "so PARALLEL's bidirectional throughput at 1472 bytes is Fig 3.10's 1553 Mb/s at "
               "steady state (from 30 ms, once the receive buffer has filled)",
               "Bandwidth of the external SRAM shared by both CPUs, the DMA engine and the MAC",
               INT_FIELD(tigon.sram_bandwidth_mbs)});
  r.push_back({"system.tigon.sram_burst_bytes",
               ParamType::Integer,
               8,
               65536,
               {},
               96,
               "bytes",
               "chosen: how much the DMA engine and the MAC move per SRAM tenure (twelve 64-bit "
               "beats); fitted so RELEASE's bidirectional throughput at 1472 bytes is 938 Mb/s",
               "Bytes the DMA engine or the MAC moves through the SRAM at a time",
               INT_FIELD(tigon.sram_burst_bytes)});
  r.push_back({"system.tigon.sram_window_us",
               ParamType::Number,
               1,
               1000,
               {},
               16,
               "µs",
               "chosen: a few handler times, long enough to average many bursts",
               "How far back the SRAM contention estimate looks",
               TIME_FIELD(tigon.sram_window, kUsScale)});
  r.push_back({"system.tigon.semaphore_ns",
               ParamType::Number,
               0,
               10000,
               {},
               82,
               "ns",
               "chosen: one access to the semaphore register, as long as an SRAM load (Table 3.5)",
               "Time to acquire or to release the hardware semaphore",
               TIME_FIELD(tigon.semaphore_access, kNsScale)});
#define NICSIM_X(name, event, label, instructions, loads, stores)                               \
  r.push_back({snake_path("system.tigon.instructions.", #name),                                 \
               ParamType::Integer,                                                              \
               1,                                                                               \
               100000,                                                                          \
               {},                                                                              \
               instructions,                                                                    \
               "instructions",                                                                  \
               "chosen: the thesis lists no instruction counts; derived from Fig 3.5's shares " \
               "and the throughputs of Figs 3.6-3.10 (core-cpp/README.md, Tigon calibration)",  \
               #event ": " label,                                                               \
               set_instructions<static_cast<int>(TigonPath::name)>,                             \
               get_instructions<static_cast<int>(TigonPath::name)>});
  NICSIM_TIGON_PATHS(NICSIM_X)
#undef NICSIM_X
}

}  // namespace

const std::vector<ParamSpec>& parameter_registry() {
  static const std::vector<ParamSpec> registry = build_registry();
  return registry;
}

const ParamSpec* find_param(const std::string& path) {
  // By path, sorted once: every parameter of a scenario and of each sweep point is looked up
  // here (a scan of the registry was a third of reading a scenario, more in WebAssembly).
  static const std::vector<const ParamSpec*> by_path = [] {
    std::vector<const ParamSpec*> v;
    for (const auto& p : parameter_registry()) v.push_back(&p);
    std::stable_sort(v.begin(), v.end(), [](const ParamSpec* a, const ParamSpec* b) {
      return std::strcmp(a->path, b->path) < 0;
    });
    return v;
  }();
  const auto it = std::lower_bound(
      by_path.begin(), by_path.end(), path,
      [](const ParamSpec* p, const std::string& key) { return key.compare(p->path) > 0; });
  return it != by_path.end() && path == (*it)->path ? *it : nullptr;
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

const std::vector<ValueRule>& value_rules() {
  static const std::vector<ValueRule> rules = {
      // validate(NicCacheConfig): power-of-two blocks, a cache of whole blocks (kbytes counts
      // 1024-byte units).
      {"system.nic_cache.block_bytes", true, 0, nullptr, 1},
      {"system.nic_cache.kbytes", false, 0, "system.nic_cache.block_bytes", 1024},
      // check_protocache_config: power-of-two caches, lines and ways; whole 32-bit words.
      {"system.host_cache.l1_kbytes", true, 0, nullptr, 1},
      {"system.host_cache.l1_line_bytes", true, 0, nullptr, 1},
      {"system.host_cache.l2_kbytes", true, 0, nullptr, 1},
      {"system.host_cache.l2_line_bytes", true, 0, nullptr, 1},
      {"system.host_cache.ways", true, 0, nullptr, 1},
      {"workload.payload_bytes", false, 4, nullptr, 1},
  };
  return rules;
}

const ValueRule* value_rule(const std::string& path) {
  for (const ValueRule& r : value_rules()) {
    if (path == r.path) return &r;
  }
  return nullptr;
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
    if (const ValueRule* rule = value_rule(p.path)) {
      if (rule->power_of_two) j["power_of_two"] = true;
      if (rule->step > 0) j["step"] = rule->step;
      if (rule->multiple_of != nullptr) {
        j["multiple_of"] = {{"path", rule->multiple_of}, {"factor", rule->multiple_factor}};
      }
    }
    j["unit"] = p.unit;
    j["origin"] = p.origin;
    j["description"] = p.description;
    // The checks this parameter was fitted to (scenario/fits.hpp); absent when none.
    if (const auto fits = fitted_to(p.path); !fits.empty()) j["fitted_to"] = fits;
    out.push_back(j);
  }
  return out;
}

std::string snake_case(const char* camel) {
  std::string out;
  for (const char* ch = camel; *ch; ++ch) {
    if (*ch >= 'A' && *ch <= 'Z') {
      if (ch != camel) out += '_';
      out += static_cast<char>(*ch - 'A' + 'a');
    } else {
      out += *ch;
    }
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

namespace {
// Replaces each leaf of `node` (a registry index) with that parameter's value in `config`.
void fill_leaves(Json* node, const Config& config) {
  const auto& registry = parameter_registry();
  for (auto& value : *node) {
    if (value.is_object()) {
      fill_leaves(&value, config);
    } else {
      value = registry[value.get<std::size_t>()].get(config);
    }
  }
}
}  // namespace

Json effective_parameters(const Config& config) {
  // The nesting is the same for every config: built once, with each leaf the index of its
  // registry entry (the last, for a path named twice), then copied and filled per run (building
  // it from the paths was a sixth of a run's work outside its event loop).
  static const Json shape = [] {
    Json out = Json::object();
    const auto& registry = parameter_registry();
    for (std::size_t i = 0; i < registry.size(); ++i) {
      const std::vector<std::string> parts = split_path(registry[i].path);
      Json* node = &out;
      for (std::size_t k = 0; k + 1 < parts.size(); ++k) node = &(*node)[parts[k]];
      (*node)[parts.back()] = i;
    }
    return out;
  }();
  Json out = shape;
  fill_leaves(&out, config);
  return out;
}

}  // namespace nicsim

namespace nicsim {
namespace {

// The web server host of full-system mode (the thesis §4.4). CPU costs are at the Athlon XP
// 2200+'s 1.8 GHz and scale with system.server.cpu_mhz; the "fitted" ones were fitted by
// core-cpp/scripts/calibrate_web.py to Table 4.4 (2200/33) and Table 4.3 (2600/66).
void add_server_params(std::vector<ParamSpec>& r) {
  constexpr double kNsScale = 1000.0;
  constexpr double kUsScale = 1000000.0;
  r.push_back({"system.server.cpu_mhz",
               ParamType::Integer,
               500,
               5000,
               {},
               1800,
               "MHz",
               "seed 000 Table 4.2: Athlon XP 2200+ 1.8 GHz, 2600+ 2.1 GHz",
               "web full-system: the server CPU's clock; every server cost scales with it",
               INT_FIELD(server.cpu_mhz)});
  r.push_back({"system.server.send_api",
               ParamType::Choice,
               0,
               0,
               {"sendfile", "write"},
               "sendfile",
               "",
               "seed 000 §4.1.1 and Table 4.3: zero-copy sendfile, or mmap and write (a copy into "
               "the kernel); the NIC cache is used with sendfile only (§4.3.2)",
               "web full-system: how thttpd sends a file",
               [](Config& c, const Json& v) {
                 c.server.api =
                     v.get<std::string>() == "write" ? SendApi::Write : SendApi::Sendfile;
               },
               [](const Config& c) {
                 return Json(c.server.api == SendApi::Write ? "write" : "sendfile");
               }});
  r.push_back({"system.server.request_cost_ns",
               ParamType::Number,
               0,
               1e7,
               {},
               30000,
               "ns",
               "chosen, fitted: with the connection and packet costs, Table 4.4's IBM and World "
               "Cup request rates (19443 and 13551 req/s, CPU-bound)",
               "web full-system: CPU per request (read and parse it, look up the file, build the "
               "HTTP header, the send system call)",
               TIME_FIELD(server.request_cost, kNsScale)});
  r.push_back({"system.server.connection_cost_ns",
               ParamType::Number,
               0,
               1e7,
               {},
               120000,
               "ns",
               "chosen, fitted: accept, handshake, close and socket set-up; with the requests per "
               "connection it is what makes small-file traces CPU-bound (IBM, World Cup)",
               "web full-system: CPU per persistent connection, shared by its requests",
               TIME_FIELD(server.connection_cost, kNsScale)});
  r.push_back({"system.server.requests_per_connection",
               ParamType::Integer,
               0,
               100000,
               {},
               0,
               "requests",
               "chosen: 0 takes the trace's fitted value (see core-cpp/host/web_server.cpp; the "
               "thesis's replayer groups a client's requests within 15 s into one connection, "
               "§4.4.3, and the traces' clients are not published)",
               "web full-system: requests carried by one persistent connection",
               INT_FIELD(server.requests_per_connection)});
  r.push_back({"system.server.packet_cost_ns",
               ParamType::Number,
               0,
               1e7,
               {},
               3750,
               "ns",
               "chosen, fitted: TCP/IP output and the driver's send descriptors per segment, so "
               "that NASA and Rice stay bus-bound even with a 16 MB cache (Table 4.4; the check "
               "fitted_to names is NASA's 1481 Mb/s)",
               "web full-system: CPU per TCP segment sent",
               TIME_FIELD(server.packet_cost, kNsScale)});
  r.push_back({"system.server.receive_cost_ns",
               ParamType::Number,
               0,
               1e7,
               {},
               1500,
               "ns",
               "chosen: TCP input of one ACK or request packet, and its receive buffer",
               "web full-system: CPU per packet received from a client",
               TIME_FIELD(server.receive_cost, kNsScale)});
  r.push_back({"system.server.interrupt_cost_ns",
               ParamType::Number,
               0,
               1e7,
               {},
               2000,
               "ns",
               "chosen: about 3600 cycles to enter and leave the driver's interrupt handler",
               "web full-system: CPU to enter and leave the interrupt handler",
               TIME_FIELD(server.interrupt_cost, kNsScale)});
  r.push_back({"system.server.copy_ns_per_kb",
               ParamType::Number,
               0,
               1e7,
               {},
               1500,
               "ns",
               "chosen, fitted with map_ns_per_page to Table 4.3 (NASA's and Rice's write penalty: "
               "large files whose pages come from DRAM, which the NICs' DMA reads share) over 1 s "
               "windows; held when map_ns_per_page was refitted over 4 s, as fitting both drives "
               "it to copy_cached_ns_per_kb or below (a copy from DRAM no dearer than from L2)",
               "web full-system, write: CPU to copy 1024 bytes of a file not in the CPU's L2",
               TIME_FIELD(server.copy_cost_per_kb, kNsScale)});
  r.push_back({"system.server.copy_cached_ns_per_kb",
               ParamType::Number,
               0,
               1e7,
               {},
               600,
               "ns",
               "chosen, fitted to Table 4.3 (IBM's and World Cup's write penalty: small hot files "
               "whose pages stay in the CPU's L2)",
               "web full-system, write: CPU to copy 1024 bytes of a file still in the CPU's L2",
               TIME_FIELD(server.copy_cached_cost_per_kb, kNsScale)});
  r.push_back({"system.server.cpu_cache_kb",
               ParamType::Integer,
               0,
               65536,
               {},
               256,
               "KB",
               "the Athlon XP 2200+ and 2600+ (Thoroughbred) have a 256 KB L2 (Table 4.2's CPUs)",
               "web full-system, write: the CPU's L2, which keeps recently copied files",
               INT_FIELD(server.cpu_cache_kb)});
  r.push_back({"system.server.file_info_ns",
               ParamType::Number,
               0,
               1e7,
               {},
               0,
               "ns",
               "0 = thttpd caches file information (Tables 4.4-4.7); Table 4.3 ran without that "
               "optimization (seed 000 §4.3.2). Its presets set 6000, chosen: IBM's sendfile "
               "throughput is 424 Mb/s in Table 4.3 against 468 in Table 4.7, about 5 µs more per "
               "request at 2.1 GHz",
               "web full-system: CPU per request to look up a file's information (stat, open)",
               TIME_FIELD(server.file_info_cost, kNsScale)});
  r.push_back({"system.server.map_ns_per_page",
               ParamType::Number,
               0,
               1e7,
               {},
               67500,
               "ns",
               "chosen, fitted to Table 4.3's NASA and Rice write throughputs (Rice's write "
               "penalty is the largest: many distinct files, so the most mapping) over the "
               "preset's 4 s window, least squares of the two relative errors with "
               "copy_ns_per_kb held: mmap, a page fault per 4 KB page and a later munmap with its "
               "TLB flush, for a file thttpd has not kept mapped; more than a minor fault alone "
               "costs, as it lumps whatever else the write path pays per newly mapped page",
               "web full-system, write: CPU per page of a file that must be mapped",
               TIME_FIELD(server.map_cost_per_page, kNsScale)});
  r.push_back({"system.server.mapped_files",
               ParamType::Integer,
               1,
               10000000,
               {},
               2000,
               "files",
               "chosen: thttpd's mmap cache keeps about 2000 files mapped (mmc.c's "
               "DESIRED_MAX_MAPPED_FILES; unverified)",
               "web full-system, write: files thttpd keeps mapped (least recently used go)",
               INT_FIELD(server.mapped_files)});
  r.push_back({"system.server.file_cache_mb",
               ParamType::Integer,
               1,
               1000000,
               {},
               1536,
               "MB",
               "chosen: of the prototype's 2 GB (seed 000 §4.4.1), what FreeBSD leaves for file "
               "pages after the kernel and the server",
               "web full-system: the OS file cache (files not in it are read from disk)",
               INT_FIELD(server.file_cache_mb)});
  r.push_back({"system.server.disk_latency_us",
               ParamType::Number,
               0,
               1e6,
               {},
               9500,
               "µs",
               "chosen, fitted to Berkeley's 767 req/s (Table 4.4; no check reads that rate, so "
               "fitted_to is empty); a 10,000 rpm SCSI disk's seek and rotation are about 5-8 ms "
               "(seed 000 §4.4.1: two 36 GB SCSI disks)",
               "web full-system: seek and rotation per disk read (one disk queue)",
               TIME_FIELD(server.disk_latency, kUsScale)});
  r.push_back({"system.server.disk_mbps",
               ParamType::Integer,
               1,
               100000,
               {},
               40,
               "MB/s",
               "chosen: the media rate of a 2002 SCSI disk",
               "web full-system: disk transfer rate once positioned",
               INT_FIELD(server.disk_mbps)});
  r.push_back({"system.server.connections",
               ParamType::Integer,
               1,
               1024,
               {},
               16,
               "connections",
               "chosen: enough persistent connections per NIC that the server never waits for a "
               "client (the replayers' infinite demand, seed 000 §4.4.3)",
               "web full-system: client connections per NIC, each asking for its next file as "
               "soon as the last one arrives",
               INT_FIELD(server.connections)});
  r.push_back({"system.server.http_header_bytes",
               ParamType::Integer,
               0,
               1400,
               {},
               240,
               "bytes",
               "chosen: a thttpd 2.22 response header (status line, Server, Content-Type, Date, "
               "Last-Modified, Accept-Ranges, Connection, Content-Length)",
               "web full-system: HTTP response header bytes, before the content",
               INT_FIELD(server.http_header_bytes)});
  r.push_back({"system.server.request_bytes",
               ParamType::Integer,
               1,
               1400,
               {},
               300,
               "bytes",
               "chosen: a GET line and a few header fields",
               "web full-system: HTTP request bytes from the client",
               INT_FIELD(server.request_bytes)});
  r.push_back({"system.server.ack_every",
               ParamType::Integer,
               1,
               64,
               {},
               2,
               "segments",
               "chosen: delayed ACKs acknowledge every second segment (RFC 1122)",
               "web full-system: the client acknowledges every n segments",
               INT_FIELD(server.ack_every)});
  r.push_back({"system.server.packets_per_send",
               ParamType::Integer,
               1,
               64,
               {},
               4,
               "segments",
               "chosen: TCP output queues a few segments per pass through the driver",
               "web full-system: segments the server posts per send task (one mailbox write)",
               INT_FIELD(server.packets_per_send)});
}

}  // namespace
}  // namespace nicsim
