// One struct per config section (scenario → validated Config → core).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "eta/eta_config.hpp"
#include "nic/cache/nic_data_cache.hpp"
#include "nic/tigon/firmware.hpp"
#include "offload/offload_config.hpp"
#include "protocache/protocache_config.hpp"
#include "sim/time.hpp"
#include "sinic/sinic_config.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {

enum class Direction : std::uint8_t { Send = 0, Receive = 1, Bidirectional = 2 };
enum class WorkloadKind : std::uint8_t {
  Udp = 0,
  TcpSegments = 1,
  CpuBenchmark = 2,
  Web = 3,
  TcpStream = 4,  // netperf TCP stream / maerts (the SINIC paper §5.2)
  IpRouter = 5,   // Click forwarding between two NICs (the thesis §3.4.2, Table 3.6)
  // One web file through a conventional or an offload adapter (the TCP offload paper).
  TcpOffload = 6,
  EtaAio = 7,  // the userver on the baseline or ETA+AIO (seed 001, Brecht et al. 2006)
  // one packet at a time through the host caches (seed 002)
  ProtocolCache = 8,
};
// ip-router: the clients' frames, all of workload.datagram_bytes, or a fixed mix of sizes.
enum class FrameMix : std::uint8_t { Fixed = 0, Imix = 1 };
// web: how much of the machine a trace runs through (the thesis §4.2: the trace-driven cache
// simulator behind Figs 4.3-4.5), or every request through host, rings, bus, NIC and wire
// (§4.4-4.5: the prototype server behind Tables 4.3-4.7).
enum class WebMode : std::uint8_t { CacheOnly = 0, FullSystem = 1 };

// How the server sends a file (the thesis §4.1.1, Table 4.3).
enum class SendApi : std::uint8_t { Sendfile = 0, Write = 1 };

// The web server host of full-system mode (the thesis §4.4: thttpd on FreeBSD 4.6, Table 4.2's
// Athlon XP; costs are CPU time at the 2200+'s 1.8 GHz, scaled by clock).
struct WebServerConfig {
  std::int64_t cpu_mhz = 1800;               // Table 4.2: 2200+ 1.8 GHz, 2600+ 2.1 GHz
  SendApi api = SendApi::Sendfile;           // Table 4.3
  Time request_cost = 0;                     // parse, look up the file, build the HTTP header
  Time connection_cost = 0;                  // accept and close a persistent connection
  std::int64_t requests_per_connection = 0;  // 0 = the trace's fitted value
  Time packet_cost = 0;                // TCP/IP output and the driver's descriptors, per segment
  Time receive_cost = 0;               // per received packet (ACK or request)
  Time interrupt_cost = 0;             // enter and leave the interrupt handler
  Time copy_cost_per_kb = 0;           // write(): user-to-kernel copy from DRAM, per 1024 B
  Time copy_cached_cost_per_kb = 0;    // write(): ... of file pages still in the CPU's L2
  std::int64_t cpu_cache_kb = 0;       // write(): the CPU's L2, holding recently copied files
  Time file_info_cost = 0;             // per request when thttpd does not cache file info
  Time map_cost_per_page = 0;          // write(): mmap page faults of a file not mapped
  std::int64_t mapped_files = 0;       // write(): thttpd's mmap cache, files
  std::int64_t file_cache_mb = 0;      // the OS file cache (main memory)
  Time disk_latency = 0;               // seek and rotation per read
  std::int64_t disk_mbps = 0;          // media rate, MB/s (10^6 bytes)
  std::int64_t connections = 0;        // persistent connections per NIC (infinite demand)
  std::int64_t http_header_bytes = 0;  // response header (status line, fields)
  std::int64_t request_bytes = 0;      // HTTP request (GET line and fields)
  std::int64_t ack_every = 0;          // the client acknowledges every n segments
  std::int64_t packets_per_send = 0;   // segments posted per send task (one mailbox write)
};

struct HostConfig {
  Time send_cost = 0;                   // build one UDP packet and post its descriptor (S1)
  Time receive_cost = 0;                // pass one received packet up the stack
  Time interrupt_cost = 0;              // enter and leave the interrupt handler
  Time send_complete_cost = 0;          // recycle one completed send descriptor
  std::int64_t pio_buffer_entries = 0;  // host bridge posted-write buffer
};

struct DriverConfig {
  std::int64_t send_ring_size = 0;
  std::int64_t receive_ring_size = 0;
  std::int64_t return_ring_size = 0;
  std::int64_t receive_buffers_posted = 0;
  bool send_consumer_by_pio = false;
};

enum class BusModel : std::uint8_t { Fixed = 0, Pci = 1 };
enum class BusProtocol : std::uint8_t { Pci = 0, PciX = 1 };

struct BusConfig {
  BusModel model = BusModel::Pci;
  BusProtocol protocol = BusProtocol::Pci;
  std::int64_t width_bits = 0;
  std::int64_t clock_mhz = 0;              // nominal: 33, 66, 100, 133
  std::int64_t overhead_cycles = 0;        // fixed model: cycles = overhead + ceil(bytes / width)
  std::int64_t arbitration_cycles = 0;     // REQ# to GNT# on an idle bus, for a master not parked
  Time memory_latency = 0;                 // DMA read: main memory (and cache probe) latency
  std::int64_t write_wait_cycles = 0;      // posted memory write: target wait before data
  std::int64_t target_wait_cycles = 0;     // programmed I/O to a device register
  std::int64_t initial_latency_limit = 0;  // clocks from FRAME# to first TRDY#, else Retry
  std::int64_t delayed_slots = 0;          // delayed-transaction entries in the host bridge
  std::int64_t retry_gap_cycles = 0;       // REQ# deasserted after a STOP# termination
  std::int64_t read_disconnect_bytes = 0;  // host bridge prefetch boundary (0 = none)
  std::int64_t bridge_read_mbps = 0;       // host bridge memory-to-bus read stream (0 = unlimited)
  std::int64_t write_buffer_bytes = 0;     // host bridge posted-write buffer (0 = unlimited)
  std::int64_t latency_timer = 0;          // master latency timer, clocks
  bool dual_address = false;               // buffers above 4 GB need a dual address cycle
  std::int64_t mmrbc = 0;                  // PCI-X maximum memory read byte count
  Time cycle() const;  // exact period of the nominal clock (33 MHz is 33.33 MHz: 30 ns)
  // After a Retry or a disconnect the master drops REQ# for the retry gap and requests again
  // this long after the tenure's end (pci_facts §7).
  Time retry_gap() const { return (retry_gap_cycles > 1 ? retry_gap_cycles - 1 : 0) * cycle(); }
};

struct NicDelays {
  Time mailbox = 0;    // mailbox write seen → descriptor fetch issued
  Time bd = 0;         // descriptor fetched → data fetch issued
  Time tx_frame = 0;   // data in transmit buffer → handed to the MAC
  Time rx_frame = 0;   // frame in receive buffer → data write issued
  Time interrupt = 0;  // index written → interrupt line asserted
};

struct NicConfig {
  std::int64_t send_bd_bytes = 0;
  std::int64_t receive_bd_bytes = 0;
  std::int64_t return_bd_bytes = 0;
  std::int64_t index_bytes = 0;
  std::int64_t bd_fetch_max = 0;
  std::int64_t tx_buffer_bytes = 0;
  std::int64_t rx_buffer_bytes = 0;
  std::int64_t dma_queue_depth = 0;
  std::int64_t dma_max_burst = 0;     // 0 = unlimited
  bool send_consumer_by_pio = false;  // the driver reads the send consumer index by PIO
  std::int64_t send_coalesce_bds = 0;
  Time send_coalesce_timer = 0;
  std::int64_t receive_coalesce_bds = 0;
  Time receive_coalesce_timer = 0;
  NicDelays delays;
};

enum class NicModel : std::uint8_t {
  Fixed = 0,
  Tigon = 1,
  // The four NICs of the SINIC paper, run by workload.kind tcp-stream.
  CnicOffChip = 2,
  CnicOnChip = 3,
  Sinic = 4,
  VSinic = 5,
};

// The Tigon (the thesis §3.1, Table 3.5; nic_facts §3).
struct TigonConfig {
  TigonFirmware firmware = TigonFirmware::Release;
  bool code_in_sram = false;      // SRAM-CODE: every handler fetched from the external SRAM
  bool data_in_sram = false;      // SRAM-DATA: private data in the external SRAM too
  TigonPartition partition{};     // Custom: the CPUs each event may run on
  bool semaphore_allowed = true;  // false: refuse partitions that would need the lock
  std::int64_t clock_mhz = 0;
  std::int64_t dispatch_instructions = 0;     // the PRI/JOFF loop (§3.1.2: four instructions)
  std::int64_t icache_line_instructions = 0;  // 64-byte line / 4-byte instructions
  std::int64_t icache_miss_cycles = 0;        // a fetch that misses the one-line cache
  std::int64_t scratch_load_cycles_a = 0;     // Table 3.5, CPU A, code in SRAM
  std::int64_t scratch_load_cycles_b = 0;     // Table 3.5, CPU B
  std::int64_t scratch_store_cycles = 0;      // scratch store issue, code in SRAM
  Time sram_load = 0;                         // Table 3.5: about 82 ns
  Time sram_store = 0;                        // Table 3.5: 170 MB/s of 4-byte stores
  double load_fraction = 0;                   // loads per instruction of private data
  double store_fraction = 0;
  double release_scratch_fraction_send = 0;     // RELEASE: scratch share, Table 3.4's CPU B set
  double release_scratch_fraction_receive = 0;  // RELEASE: scratch share, the other handlers
  double bsd_scratch_fraction_send = 0;         // BSD: the same, Table 3.4's CPU B set
  double bsd_scratch_fraction_receive = 0;      // BSD: the same, the other handlers
  double bsd_instruction_scale = 0;             // BSD: instructions relative to RELEASE
  std::int64_t sram_bandwidth_mbs = 0;          // §3.4.1: 800 MB/s
  std::int64_t sram_burst_bytes = 0;            // DMA and MAC move data through SRAM in bursts
  Time sram_window = 0;                         // how far back the contention estimate looks
  Time semaphore_access = 0;                    // one read or write of the semaphore register
  std::array<std::int64_t, kTigonPaths> instructions{};
};

struct LinkConfig {
  std::int64_t rate_mbps = 0;
  std::int64_t preamble_bytes = 0;
  std::int64_t ifg_bytes = 0;
  Time propagation = 0;
};

struct WorkloadConfig {
  WorkloadKind kind = WorkloadKind::Udp;
  Direction direction = Direction::Send;
  // tcp-segments: each segment is a header buffer and a content buffer (zero-copy sendfile,
  // thesis §4.1.1); the client acknowledges every ack_every segments.
  std::int64_t segment_bytes = 0;
  std::int64_t segment_header_bytes = 0;
  std::int64_t ack_every = 0;
  std::int64_t datagram_bytes = 0;
  std::int64_t packets = 0;  // 0 = infinite demand
  Time peer_jitter = 0;
  Time packet_interval = 0;  // offered rate per direction: at most one packet per interval
  Time start = 0;            // first datagram offered (after driver initialisation)
  // cpu-benchmark (Table 3.5): which Tigon CPUs run the LMbench-style loops.
  std::uint8_t benchmark_cpus = kCpuA;
  // web (the thesis Ch.4): a trace of Table 4.1, or the uploaded access log (trace_from_log).
  WebMode web_mode = WebMode::CacheOnly;
  WebTraceId trace = WebTraceId::Nasa;
  bool trace_from_log = false;
  std::uint64_t trace_requests = 0;   // 0 = Table 4.1's count
  std::uint64_t trace_seed = 1;       // the generated trace's own draw, not the run's seed
  std::uint64_t warmup_requests = 0;  // not counted
  FrameMix frame_mix = FrameMix::Fixed;
};

struct RunConfig {
  Time duration = 0;
  Time warmup = 0;
  Time sample_interval = 0;
  std::uint64_t seed = 0;
  Time trace_start = 0;
  Time trace_end = 0;
  std::int64_t trace_max_records = 0;
};

struct DiskConfig {
  std::int64_t rate_mbps = 0;  // background DMA writes (disk reads into memory); 0 = none
  std::int64_t burst_bytes = 0;
};

struct Config {
  std::int64_t nics = 1;
  NicCacheConfig nic_cache;  // per NIC (the thesis §4.3); capacity 0 = no cache
  // workload.trace "log": the requests of the access log the user opened (parsed and checked
  // in the browser); not owned, lives for the run.
  const std::vector<WebRequest>* access_log = nullptr;
  NicModel nic_model = NicModel::Fixed;
  WebServerConfig server;  // web full-system mode
  TigonConfig tigon;
  DiskConfig disk;
  HostConfig host;
  DriverConfig driver;
  BusConfig bus;
  NicConfig nic;
  LinkConfig link;
  SinicSystemConfig sinic;  // host CPU, L2, CNIC/SINIC/V-SINIC, TCP stream (the SINIC paper)
  OffloadConfig offload;    // the TCP offload paper: one file, E1000 or offload adapter
  EtaConfig eta;            // the baseline and ETA+AIO servers of seed 001 (workload.kind eta-aio)
  // protocol fast paths through the host caches (seed 002)
  ProtoCacheConfig protocache;
  WorkloadConfig workload;
  RunConfig run;
};

// Frame and wire sizes (thesis §3.3.2: 8 UDP + 20 IP + 14 Ethernet + 4 CRC = 46 bytes).
constexpr std::int64_t kEthernetHeaderBytes = 14;
constexpr std::int64_t kIpHeaderBytes = 20;
constexpr std::int64_t kUdpHeaderBytes = 8;
constexpr std::int64_t kCrcBytes = 4;
constexpr std::int64_t kMtuBytes = 1500;  // Ethernet's largest payload: a 1518-byte frame
constexpr std::int64_t kUdpIpEthCrcBytes =
    kUdpHeaderBytes + kIpHeaderBytes + kEthernetHeaderBytes + kCrcBytes;
constexpr std::int64_t kMinFrameBytes = 64;
constexpr std::uint32_t kUdpFrameHeaderBytes =
    kEthernetHeaderBytes + kIpHeaderBytes + kUdpHeaderBytes;
inline std::int64_t frame_bytes(std::int64_t datagram) {
  return datagram + kUdpIpEthCrcBytes < kMinFrameBytes ? kMinFrameBytes
                                                       : datagram + kUdpIpEthCrcBytes;
}

}  // namespace nicsim
