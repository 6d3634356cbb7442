// The cache behaviour of protocol stacks (Nahum, Yates, Kurose, Towsley, "Cache Behavior of
// Network Protocols", SIGMETRICS 1997): the x-kernel TCP/IP and UDP/IP fast paths over FDDI with
// the paper's in-memory driver, run packet after packet through a host cache hierarchy.
//
// The paper does not publish its binary's layout, so each procedure group ("region") is a code
// footprint at a chosen address executed a chosen number of instructions per call, and each
// layer owns a data region at a chosen address. Addresses are offsets from the text segment
// (code) and the data segment (data); both segments start on a 1 MB boundary (IRIX's 0x400000
// and 0x10000000 are), so a code and a data offset equal modulo the L2's size collide in the
// unified L2 exactly as the numbers say.
#pragma once
#include <array>
#include <cstdint>

#include "host/cache/cache_hierarchy.hpp"

namespace nicsim {

// The paper's eight configurations, in the order of its Table 3.
enum class ProtoPath : std::uint8_t {
  TcpSendOff = 0,
  TcpSendOn,
  TcpRecvOff,
  TcpRecvOn,
  UdpSendOff,
  UdpSendOn,
  UdpRecvOff,
  UdpRecvOn,
};
constexpr int kProtoPaths = 8;
const char* proto_path_name(ProtoPath p);  // "tcp-send-cksum-off" ...
bool proto_path_from_name(const char* n, ProtoPath* out);
inline bool path_is_tcp(ProtoPath p) { return static_cast<int>(p) < 4; }
inline bool path_is_send(ProtoPath p) { return (static_cast<int>(p) & 2) == 0; }
inline bool path_has_checksum(ProtoPath p) { return (static_cast<int>(p) & 1) != 0; }

// The paper §3.2: hot (the state the previous packet left), cold (every cache flushed before
// each packet), ideal (every L1 reference hits), ideal-I / ideal-D (only instruction / data
// references do; Fig 6).
enum class CacheMode : std::uint8_t { Hot = 0, Cold, Ideal, IdealI, IdealD };
const char* cache_mode_name(CacheMode m);

// link-order: the chosen addresses; cord: the path's procedures packed together in the order
// the packet runs them, as the paper's CORD re-link does (§6).
enum class CodeLayout : std::uint8_t { LinkOrder = 0, Cord };

// Table 8's machines; custom takes the hierarchy parameters as given.
enum class HostMachine : std::uint8_t { Custom = 0, M1994, M1996, M1998 };
const char* host_machine_name(HostMachine m);

// Procedure groups of the fast paths, each owned by one layer.
enum class ProtoRegion : std::uint8_t {
  UserSend = 0,  // the test program and x-kernel socket-like send entry
  UserRecv,
  TcpOutput,
  TcpInput,  // header prediction; on the send side it takes the ACKs
  UdpOutput,
  UdpInput,
  IpOutput,
  IpInput,
  FddiOutput,  // the in-memory driver, with the simulated peer (§3)
  FddiInput,
  Msg,       // x-kernel message routines (push/pop headers), called by every layer
  Event,     // x-kernel event and map routines
  Checksum,  // the UCSD checksum loop (unrolled)
};
constexpr int kProtoRegions = 13;
const char* proto_region_name(ProtoRegion r);

// Who owns a line, for the views and the per-layer counts.
enum class ProtoLayer : std::uint8_t { User = 0, Tcp, Udp, Ip, Fddi, Msg, Event, Checksum };
constexpr int kProtoLayers = 8;
const char* proto_layer_name(ProtoLayer l);
ProtoLayer region_layer(ProtoRegion r);

// Data regions: one per layer (control blocks, headers, driver state) and the two payload
// buffers (the user's send buffer; the receive buffer the in-memory device fills).
enum class ProtoData : std::uint8_t {
  User = 0,
  Tcp,
  Udp,
  Ip,
  Fddi,
  Msg,
  Event,
  SendBuffer,
  ReceiveBuffer,
};
constexpr int kProtoData = 9;
const char* proto_data_name(ProtoData d);

struct CodeRegionConfig {
  std::int64_t offset = 0;        // bytes from the text segment's start
  std::int64_t bytes = 0;         // the code footprint the fast path runs through
  std::int64_t instructions = 0;  // instructions per call
};
struct DataRegionConfig {
  std::int64_t offset = 0;  // bytes from the data segment's start
  std::int64_t bytes = 0;
};

struct ProtoCacheConfig {
  ProtoPath path = ProtoPath::UdpSendOff;
  CacheMode mode = CacheMode::Hot;
  CodeLayout layout = CodeLayout::LinkOrder;
  HostMachine machine = HostMachine::Custom;
  std::int64_t payload_bytes = 4096;
  std::int64_t ack_every = 2;  // §3: the simulated TCP receiver ACKs every other packet
  // The CPU: single-issue, so cycles = instructions x CPI + cache stall cycles.
  std::int64_t cpu_mhz = 100;
  std::int64_t protocol_cpi_x100 = 140;  // load and branch interlocks of the protocol code
  std::int64_t checksum_cpi_x100 = 100;  // the unrolled loop overlaps its loads (§4)
  std::int64_t checksum_instructions_per_word = 4;
  // The hierarchy (the paper's baseline: Table 1 and §3.1).
  std::int64_t l1_kbytes = 16, l1_line_bytes = 16, l2_kbytes = 1024, l2_line_bytes = 128;
  std::int64_t ways = 1;  // every cache (the paper's Table 7 sweeps them together)
  WritePolicy write = WritePolicy::WriteBack;
  bool inclusive = true;
  std::int64_t l2_read_cycles = 11, l2_write_cycles = 11;
  std::int64_t memory_read_cycles = 141, memory_write_cycles = 147;
  std::array<CodeRegionConfig, kProtoRegions> code{};
  std::array<DataRegionConfig, kProtoData> data{};
};

// The hierarchy a run uses: the machine's Table 8 values, or the parameters as given.
CacheHierarchyConfig hierarchy_config(const ProtoCacheConfig& c);
std::int64_t effective_cpu_mhz(const ProtoCacheConfig& c);

}  // namespace nicsim
