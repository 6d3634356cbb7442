// The parameters of workload.kind "protocol-cache" ("Cache Behavior of Network Protocols",
// Nahum et al., SIGMETRICS 1997). The hierarchy and the machines are the paper's (Table 1, §3.1,
// Table 8); the fast paths' footprints are chosen (the paper does not publish its binary), their
// addresses and the CPU's CPIs are fitted to Table 3's hot miss rates and Table 4's hot column
// (scenario/fits.cpp); everything else the presets check is a prediction.
#include <cmath>
#include <deque>
#include <string>
#include <utility>

#include "protocache/protocache_config.hpp"
#include "scenario/param_fields.hpp"
#include "scenario/params.hpp"

namespace nicsim {

namespace {

// ---- the chosen footprints and the fitted addresses ----
// Instructions per call from the paper's Tables 9 and 10 (1994 column: latency x clock / CPI):
// about 3000 for a TCP send, 820 for a UDP send; the receive paths from Table 2's latencies with
// the same CPI. Code bytes: a fast path that is a fraction of its procedures (TCP's header
// prediction and output) runs through a larger footprint. Offsets fitted to Table 3 by
// core-cpp/scripts/fit_protocache_layout.cpp (3 coordinate-descent sweeps from a packed start;
// code in the first 48 KB of text; data there, colliding in the L2, or at 64-80 KB).
struct CodeDefault {
  std::int64_t offset, bytes, instructions;
};
constexpr CodeDefault kCode[kProtoRegions] = {
    {32512, 400, 100},     // user_send
    {1280, 600, 150},      // user_recv
    {38912, 10240, 1700},  // tcp_output
    {14080, 2400, 400},    // tcp_input
    {8448, 1024, 250},     // udp_output
    {22528, 1440, 360},    // udp_input
    {18432, 480, 120},     // ip_output
    {19200, 608, 150},     // ip_input
    {20224, 608, 150},     // fddi_output
    {3840, 2816, 700},     // fddi_input
    {9472, 240, 60},       // msg
    {35072, 240, 60},      // event
    {0, 256, 0},           // checksum (instructions follow the payload)
};
struct DataDefault {
  std::int64_t offset, bytes;
};
constexpr DataDefault kData[kProtoData] = {
    {12160, 256},   // user
    {2048, 512},    // tcp
    {256, 128},     // udp
    {8064, 256},    // ip
    {67584, 512},   // fddi
    {35200, 512},   // msg
    {69120, 256},   // event
    {73728, 4096},  // send_buffer
    {81920, 4096},  // receive_buffer
};

std::deque<std::string>& names() {
  static std::deque<std::string> n;
  return n;
}
const char* keep(std::string s) {
  names().push_back(std::move(s));
  return names().back().c_str();
}

template <int R, int F>
void set_code(Config& c, const Json& v) {
  auto& r = c.protocache.code[R];
  const auto x = static_cast<std::int64_t>(v.get<double>());
  (F == 0 ? r.offset : F == 1 ? r.bytes : r.instructions) = x;
}
template <int R, int F>
Json get_code(const Config& c) {
  const auto& r = c.protocache.code[R];
  return Json(F == 0 ? r.offset : F == 1 ? r.bytes : r.instructions);
}
template <int D, int F>
void set_data(Config& c, const Json& v) {
  auto& r = c.protocache.data[D];
  (F == 0 ? r.offset : r.bytes) = static_cast<std::int64_t>(v.get<double>());
}
template <int D, int F>
Json get_data(const Config& c) {
  const auto& r = c.protocache.data[D];
  return Json(F == 0 ? r.offset : r.bytes);
}

template <int R>
void add_code(std::vector<ParamSpec>& r) {
  const std::string base = std::string("workload.code.") + proto_region_name(ProtoRegion(R));
  const char* fitted =
      "fitted: placed so the direct-mapped L1-I conflicts between the procedures give Table 3's "
      "hot I-miss rates (scenario/fits.cpp; core-cpp/scripts/fit_protocache_layout.cpp); the paper "
      "does not "
      "publish its binary's layout";
  r.push_back({keep(base + ".offset"),
               ParamType::Integer,
               0,
               1048576,
               {},
               kCode[R].offset,
               "bytes",
               fitted,
               keep(std::string("protocol-cache: where ") + proto_region_name(ProtoRegion(R)) +
                    "'s code starts in the text segment (link order)"),
               set_code<R, 0>,
               get_code<R, 0>});
  r.push_back({keep(base + ".bytes"),
               ParamType::Integer,
               16,
               65536,
               {},
               kCode[R].bytes,
               "bytes",
               R == static_cast<int>(ProtoRegion::Checksum)
                   ? "chosen: the UCSD loop unrolled to 16 words a turn, 64 instructions (§3)"
                   : "chosen: the procedures the fast path runs through; 4 bytes an instruction, "
                     "more where the fast path is a part of its procedures (TCP)",
               "protocol-cache: the code footprint the fast path runs through",
               set_code<R, 1>,
               get_code<R, 1>});
  if (R != static_cast<int>(ProtoRegion::Checksum)) {
    r.push_back({keep(base + ".instructions"),
                 ParamType::Integer,
                 1,
                 100000,
                 {},
                 kCode[R].instructions,
                 "instructions",
                 "chosen: per-call path lengths summing to the paper's instructions per packet "
                 "(Tables 9 and 10, 1994: about 3000 for a TCP send, 820 for a UDP send; receive "
                 "from Table 2 at the same CPI)",
                 "protocol-cache: instructions per call",
                 set_code<R, 2>,
                 get_code<R, 2>});
  }
}

template <int D>
void add_data(std::vector<ParamSpec>& r) {
  const std::string base = std::string("workload.data.") + proto_data_name(ProtoData(D));
  const bool payload = D >= static_cast<int>(ProtoData::SendBuffer);
  r.push_back({keep(base + ".offset"),
               ParamType::Integer,
               0,
               1048576,
               {},
               kData[D].offset,
               "bytes",
               "fitted: placed so the L1-D conflicts and the L2's instruction/data conflicts give "
               "Table 3's hot D and L2 miss rates (scenario/fits.cpp)",
               keep(std::string("protocol-cache: where ") + proto_data_name(ProtoData(D)) +
                    "'s data starts in the data segment"),
               set_data<D, 0>,
               get_data<D, 0>});
  if (!payload) {
    r.push_back({keep(base + ".bytes"),
                 ParamType::Integer,
                 16,
                 65536,
                 {},
                 kData[D].bytes,
                 "bytes",
                 "chosen: control blocks, headers and driver state the layer touches per packet "
                 "(a few hundred bytes: a TCP control block, an x-kernel message stack)",
                 "protocol-cache: the layer's data footprint",
                 set_data<D, 1>,
                 get_data<D, 1>});
  }
}

template <int... I>
void add_all_code(std::vector<ParamSpec>& r, std::integer_sequence<int, I...>) {
  (add_code<I>(r), ...);
}
template <int... I>
void add_all_data(std::vector<ParamSpec>& r, std::integer_sequence<int, I...>) {
  (add_data<I>(r), ...);
}

ParamSpec integer(const char* path, double lo, double hi, double def, const char* unit,
                  const char* origin, const char* description, void (*set)(Config&, const Json&),
                  Json (*get)(const Config&)) {
  return {path, ParamType::Integer, lo, hi, {}, def, unit, origin, description, set, get};
}

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

void add_protocache_params(std::vector<ParamSpec>& r) {
  r.push_back(
      {"workload.protocol_path",
       ParamType::Choice,
       0,
       0,
       {"tcp-send-cksum-off", "tcp-send-cksum-on", "tcp-recv-cksum-off", "tcp-recv-cksum-on",
        "udp-send-cksum-off", "udp-send-cksum-on", "udp-recv-cksum-off", "udp-recv-cksum-on"},
       "udp-send-cksum-off",
       "",
       "seed 002 §3 (Table 3's eight configurations): TCP or UDP, send or receive, checksum in "
       "software or off (as if the adaptor did it)",
       "protocol-cache: the fast path one packet runs",
       [](Config& c, const Json& v) {
         proto_path_from_name(v.get<std::string>().c_str(), &c.protocache.path);
       },
       [](const Config& c) { return Json(proto_path_name(c.protocache.path)); }});
  r.push_back({"workload.cache_mode",
               ParamType::Choice,
               0,
               0,
               {"hot", "cold", "ideal", "ideal-i", "ideal-d"},
               "hot",
               "",
               "seed 002 §3.2, Table 4 and Fig 6",
               "protocol-cache: hot (the state the last packet left), cold (every cache flushed "
               "before each packet), ideal (every L1 reference hits), ideal-I or ideal-D",
               [](Config& c, const Json& v) {
                 const std::string m = v.get<std::string>();
                 c.protocache.mode = m == "cold"      ? CacheMode::Cold
                                     : m == "ideal"   ? CacheMode::Ideal
                                     : m == "ideal-i" ? CacheMode::IdealI
                                     : m == "ideal-d" ? CacheMode::IdealD
                                                      : CacheMode::Hot;
               },
               [](const Config& c) { return Json(cache_mode_name(c.protocache.mode)); }});
  r.push_back({"workload.code_layout",
               ParamType::Choice,
               0,
               0,
               {"link-order", "cord"},
               "link-order",
               "",
               "seed 002 §6 (Tables 11, 12): CORD re-links the hot procedures together",
               "protocol-cache: the code layout: the link order, or the path's procedures packed "
               "in the order a packet runs them",
               [](Config& c, const Json& v) {
                 c.protocache.layout =
                     v.get<std::string>() == "cord" ? CodeLayout::Cord : CodeLayout::LinkOrder;
               },
               [](const Config& c) {
                 return Json(c.protocache.layout == CodeLayout::Cord ? "cord" : "link-order");
               }});
  r.push_back(integer("workload.payload_bytes", 4, 4352, 4096, "bytes",
                      "chosen: the paper does not state its packet size; the FDDI MTU is "
                      "'slightly over 4K bytes' (§3) and a 4 KB payload gives the ~5000 "
                      "instructions checksumming adds (Tables 9, 10)",
                      "protocol-cache: the bytes of payload the checksum reads",
                      INT_FIELD(protocache.payload_bytes)));
  r.push_back(integer("workload.ack_every", 0, 16, 2, "packets",
                      "seed 002 §3: the simulated receiver ACKs every other packet",
                      "protocol-cache, TCP: an ACK goes the other way every this many packets "
                      "(0 = none)",
                      INT_FIELD(protocache.ack_every)));
  r.push_back({"system.host_cache.machine",
               ParamType::Choice,
               0,
               0,
               {"custom", "1994", "1996", "1998"},
               "custom",
               "",
               "seed 002 Table 8: the 1994 machine is the baseline; 1996's penalties from the "
               "SGI IP22 at 200 MHz; 1998 extrapolated",
               "protocol-cache: a machine of Table 8 (clock, L1 size, associativity, "
               "latencies), or custom: the parameters below",
               [](Config& c, const Json& v) {
                 const std::string m = v.get<std::string>();
                 c.protocache.machine = m == "1994"   ? HostMachine::M1994
                                        : m == "1996" ? HostMachine::M1996
                                        : m == "1998" ? HostMachine::M1998
                                                      : HostMachine::Custom;
               },
               [](const Config& c) { return Json(host_machine_name(c.protocache.machine)); }});
  r.push_back(integer("system.host_cache.cpu_mhz", 10, 2000, 100, "MHz",
                      "seed 002 §3.1: the 100 MHz R4400 SGI Challenge",
                      "protocol-cache: the single-issue CPU's clock",
                      INT_FIELD(protocache.cpu_mhz)));
  r.push_back({"system.host_cache.protocol_cpi",
               ParamType::Number,
               1,
               4,
               {},
               1.48,
               "cycles/instruction",
               "fitted: Table 4's hot latencies (the simulator models branch delays and load "
               "interlocks, §3.1: cycles per instruction with every reference hitting)",
               "protocol-cache: CPI of the protocol code without cache stalls",
               [](Config& c, const Json& v) {
                 c.protocache.protocol_cpi_x100 = std::llround(v.get<double>() * 100);
               },
               [](const Config& c) {
                 return Json(static_cast<double>(c.protocache.protocol_cpi_x100) / 100.0);
               }});
  r.push_back({"system.host_cache.checksum_cpi",
               ParamType::Number,
               1,
               4,
               {},
               1.31,
               "cycles/instruction",
               "fitted: Table 4's hot latencies with checksum (§4: the unrolled loop overlaps "
               "its loads with computation)",
               "protocol-cache: CPI of the checksum loop without cache stalls",
               [](Config& c, const Json& v) {
                 c.protocache.checksum_cpi_x100 = std::llround(v.get<double>() * 100);
               },
               [](const Config& c) {
                 return Json(static_cast<double>(c.protocache.checksum_cpi_x100) / 100.0);
               }});
  r.push_back(integer("system.host_cache.checksum_instructions_per_word", 1, 16, 4, "instructions",
                      "chosen: a load, an add, a carry fold and loop overhead per 32-bit word; "
                      "with a 4 KB payload this is the ~5000 instructions checksumming adds "
                      "(Tables 9, 10) and gives §4's 3:1 instruction:data mix",
                      "protocol-cache: checksum instructions per 32-bit word of payload",
                      INT_FIELD(protocache.checksum_instructions_per_word)));
  r.push_back(integer("system.host_cache.l1_kbytes", 1, 1024, 16, "KB",
                      "seed 002 §3.1: 16 KB on-chip I and D caches (Fig 7 sweeps 8-128 KB)",
                      "protocol-cache: the size of each L1 (I and D alike, as the paper sweeps "
                      "them); a power of two",
                      INT_FIELD(protocache.l1_kbytes)));
  r.push_back(integer("system.host_cache.l1_line_bytes", 4, 256, 16, "bytes",
                      "seed 002 §3.1: 16-byte L1 lines", "protocol-cache: L1 line size",
                      INT_FIELD(protocache.l1_line_bytes)));
  r.push_back(integer("system.host_cache.l2_kbytes", 16, 65536, 1024, "KB",
                      "seed 002 §3.1: a 1 MB unified L2", "protocol-cache: the L2's size",
                      INT_FIELD(protocache.l2_kbytes)));
  r.push_back(integer("system.host_cache.l2_line_bytes", 16, 1024, 128, "bytes",
                      "seed 002 §3.1: 128-byte L2 lines", "protocol-cache: L2 line size",
                      INT_FIELD(protocache.l2_line_bytes)));
  r.push_back(integer("system.host_cache.ways", 1, 64, 1, "ways",
                      "seed 002 §3.1: direct-mapped (Fig 9 / Table 7 set every cache to 1-8 ways)",
                      "protocol-cache: associativity of every cache (LRU)",
                      INT_FIELD(protocache.ways)));
  r.push_back({"system.host_cache.write_policy",
               ParamType::Choice,
               0,
               0,
               {"write-back", "write-through"},
               "write-back",
               "",
               "chosen: the R4400's primary data cache is write-back (the paper does not say)",
               "protocol-cache: the L1-D's write policy (the L2 is write-back)",
               [](Config& c, const Json& v) {
                 c.protocache.write = v.get<std::string>() == "write-through"
                                          ? WritePolicy::WriteThrough
                                          : WritePolicy::WriteBack;
               },
               [](const Config& c) { return Json(write_policy_name(c.protocache.write)); }});
  r.push_back({"system.host_cache.inclusive",
               ParamType::Choice,
               0,
               0,
               {true, false},
               true,
               "",
               "seed 002 §3.1: the hierarchy has the inclusion property",
               "protocol-cache: an L2 eviction invalidates the L1 lines it covers",
               [](Config& c, const Json& v) { c.protocache.inclusive = v.get<bool>(); },
               [](const Config& c) { return Json(c.protocache.inclusive); }});
  r.push_back(integer("system.host_cache.l2_read_cycles", 0, 10000, 11, "cycles",
                      "seed 002 Table 1", "protocol-cache: stall of an L1 miss the L2 serves",
                      INT_FIELD(protocache.l2_read_cycles)));
  r.push_back(integer("system.host_cache.l2_write_cycles", 0, 10000, 11, "cycles",
                      "seed 002 Table 1", "protocol-cache: ... a store's",
                      INT_FIELD(protocache.l2_write_cycles)));
  r.push_back(integer("system.host_cache.memory_read_cycles", 0, 100000, 141, "cycles",
                      "seed 002 Table 1 (the Challenge bus)", "protocol-cache: stall of an L2 miss",
                      INT_FIELD(protocache.memory_read_cycles)));
  r.push_back(integer("system.host_cache.memory_write_cycles", 0, 100000, 147, "cycles",
                      "seed 002 Table 1", "protocol-cache: ... a store's",
                      INT_FIELD(protocache.memory_write_cycles)));
  add_all_code(r, std::make_integer_sequence<int, kProtoRegions>{});
  add_all_data(r, std::make_integer_sequence<int, kProtoData>{});
}

void check_protocache_config(const Config& c, const std::string& where, Errors* errors) {
  if (c.workload.kind != WorkloadKind::ProtocolCache) return;
  const ProtoCacheConfig& p = c.protocache;
  auto pow2 = [&](const char* path, std::int64_t v) {
    if (!power_of_two(v))
      errors->push_back({path, "must be a power of two, got " + std::to_string(v) + where});
  };
  pow2("system.host_cache.l1_kbytes", p.l1_kbytes);
  pow2("system.host_cache.l1_line_bytes", p.l1_line_bytes);
  pow2("system.host_cache.l2_kbytes", p.l2_kbytes);
  pow2("system.host_cache.l2_line_bytes", p.l2_line_bytes);
  pow2("system.host_cache.ways", p.ways);
  if (p.payload_bytes % 4 != 0)
    errors->push_back({"workload.payload_bytes", "must be a multiple of 4 (32-bit words)" + where});
  if (!errors->empty()) return;
  for (const Error& e : validate(hierarchy_config(p), "system.host_cache")) {
    std::string path = e.path;
    if (path.find(".l1") != std::string::npos && path.find("line_bytes") != std::string::npos)
      path = "system.host_cache.l1_line_bytes";
    else if (path.find(".l2.line_bytes") != std::string::npos)
      path = "system.host_cache.l2_line_bytes";
    else if (path.find("ways") != std::string::npos)
      path = "system.host_cache.ways";
    else if (path.find(".l2.size") != std::string::npos)
      path = "system.host_cache.l2_kbytes";
    else if (path.find("size_bytes") != std::string::npos)
      path = "system.host_cache.l1_kbytes";
    errors->push_back({path, e.message + where});
  }
}

}  // namespace nicsim
