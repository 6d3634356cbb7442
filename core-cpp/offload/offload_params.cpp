// The parameters of the TCP offload paper (Freimuth et al., "Server Network Scalability and TCP
// Offload"): the interface, the file, the client's TCP, the offload adapter's descriptors and
// batching, and the machine generations of Tables 1 and 2. Numbers the paper gives cite it;
// the rest are "chosen" with the reason.
#include <string>

#include "offload/offload_config.hpp"
#include "scenario/param_fields.hpp"
#include "scenario/params.hpp"

namespace nicsim {

namespace {

// Tables 1 and 2 (times in ns and the cycle counts as printed).
constexpr OffloadMachine kMachines[kOffloadMachines] = {
    {"500 MHz P3", 500, 32, 33, 6, 44, 162, 600, 300, 3, 22, 80, 300, 150},
    {"933 MHz P3", 933, 32, 33, 3.25, 7.5, 173, 700, 400, 3, 7, 161, 654, 373},
    {"1.7 GHz P4", 1700, 64, 66, 1.2, 10.9, 190, 800, 100, 2, 18, 323, 1355, 169},
    {"450 MHz P2-Xeon", 450, 64, 33, 6.75, 38.3, 207, 800, 200, 3, 17, 93, 363, 90},
    {"1.6 GHz P4-Xeon", 1600, 64, 100, 1.37, 11.57, 197, 900, 300, 2, 18, 315, 1440, 480},
    {"3.2 GHz P4-Xeon", 3200, 64, 133, 0.6, 5.8, 111, 500, 200, 2, 18, 376, 1724, 668},
};
const char* kMachineIds[kOffloadMachines] = {"p3-500",      "p3-933",       "p4-1700",
                                             "p2-xeon-450", "p4-xeon-1600", "p4-xeon-3200"};

ParamSpec integer(const char* path, double min, double max, double def, const char* unit,
                  const char* origin, const char* description, void (*set)(Config&, const Json&),
                  Json (*get)(const Config&)) {
  return {path, ParamType::Integer, min, max, {}, def, unit, origin, description, set, get};
}

}  // namespace

const OffloadMachine& offload_machine(int index) {
  if (index < 0 || index >= kOffloadMachines) index = kOffloadMachines - 1;
  return kMachines[index];
}

void add_offload_params(std::vector<ParamSpec>& r) {
  r.push_back({"system.offload.interface",
               ParamType::Choice,
               0,
               0,
               {"e1000", "offload"},
               "offload",
               "",
               "seed 004 §3.2-3.3, §4.6: the instrumented E1000 driver against the offload "
               "prototype",
               "tcp-offload: the conventional descriptor-ring NIC or the offload adapter",
               [](Config& c, const Json& v) {
                 c.offload.interface = v.get<std::string>() == "e1000" ? OffloadInterface::E1000
                                                                       : OffloadInterface::Offload;
               },
               [](const Config& c) {
                 return Json(c.offload.interface == OffloadInterface::E1000 ? "e1000" : "offload");
               }});
  r.push_back({"system.offload.machine",
               ParamType::Choice,
               0,
               0,
               {"p3-500", "p3-933", "p4-1700", "p2-xeon-450", "p4-xeon-1600", "p4-xeon-3200"},
               "p4-xeon-3200",
               "",
               "seed 004 Tables 1 and 2",
               "tcp-offload: the machine generation whose memory and register access times "
               "price the host's work",
               [](Config& c, const Json& v) {
                 const std::string s = v.get<std::string>();
                 for (int i = 0; i < kOffloadMachines; ++i)
                   if (s == kMachineIds[i]) c.offload.machine = i;
               },
               [](const Config& c) {
                 return Json(
                     kMachineIds[c.offload.machine >= 0 && c.offload.machine < kOffloadMachines
                                     ? c.offload.machine
                                     : kOffloadMachines - 1]);
               }});
  r.push_back(integer(
      "workload.file_kbytes", 1, 4096, 1, "KB", "seed 004 §5: files of 1 KB, 64 KB and 512 KB",
      "tcp-offload: the size of the one file served",
      [](Config& c, const Json& v) {
        c.offload.file_bytes = static_cast<std::int64_t>(v.get<double>()) * 1024;
      },
      [](const Config& c) { return Json(c.offload.file_bytes / 1024); }));
  r.push_back(integer("workload.http_header_bytes", 0, 4096, 150, "bytes",
                      "chosen: the paper gives no size; a 200 OK with Date, Content-Type, "
                      "Content-Length and Last-Modified lines, as Flash sends, is about 150 bytes",
                      "tcp-offload: Flash's response header, coalesced with the file (§4.1)",
                      INT_FIELD(offload.http_header_bytes)));
  r.push_back(integer("workload.request_bytes", 1, 1460, 64, "bytes",
                      "chosen: the paper gives no size; httperf's \"GET /file HTTP/1.0\" with "
                      "User-Agent and Host lines is about 64 bytes",
                      "tcp-offload: the HTTP request", INT_FIELD(offload.request_bytes)));
  r.push_back(integer("system.offload.mss", 536, 8960, 1460, "bytes",
                      "chosen: Ethernet's 1500-byte MTU without TCP timestamps (the receive "
                      "frames of Table 4 are minimum-size, so no 12-byte timestamp option)",
                      "tcp-offload: TCP payload per segment", INT_FIELD(offload.mss)));
  r.push_back(integer("system.offload.init_cwnd", 1, 64, 3, "segments",
                      "chosen: Linux 2.6.9's initial window for a 1460-byte MSS (tcp_init_cwnd)",
                      "tcp-offload: the server's initial congestion window",
                      INT_FIELD(offload.init_cwnd)));
  r.push_back(integer("system.offload.quick_acks", 0, 16, 2, "segments",
                      "chosen: Linux 2.6's quick-ACK mode at the first data, rcv_wnd / (2 MSS) "
                      "with the initial 4-MSS window",
                      "tcp-offload: the client's first data segments ACKed at once, before "
                      "it ACKs every second one",
                      INT_FIELD(offload.quick_acks)));
  r.push_back(integer("system.offload.delayed_ack_ms", 1, 500, 40, "ms",
                      "chosen: Linux's minimum delayed-ACK timeout (TCP_DELACK_MIN, 40 ms)",
                      "tcp-offload: the client's delayed-ACK timer",
                      TIME_FIELD(offload.delayed_ack, 1e9)));
  r.push_back(integer("system.offload.one_way_us", 0, 10000, 25, "µs",
                      "chosen: a gigabit switch and the client's stack; it sets only the "
                      "transfer's time, not what crosses the bus",
                      "tcp-offload: latency from one end's wire to the other's, each way",
                      TIME_FIELD(offload.one_way, 1e6)));
  r.push_back(integer("system.offload.link_mbps", 10, 100000, 1000, "Mb/s",
                      "seed 004 §2: gigabit E1000 adapters through a gigabit switch",
                      "tcp-offload: the Ethernet link's rate", INT_FIELD(offload.link_mbps)));
  r.push_back(integer("system.offload.syn_option_bytes", 0, 40, 12, "bytes",
                      "chosen: MSS, SACK permitted and window scale options on SYN and SYN-ACK",
                      "tcp-offload: TCP options on the handshake's frames",
                      INT_FIELD(offload.syn_option_bytes)));
  r.push_back(
      {"system.offload.rx_crc",
       ParamType::Choice,
       0,
       0,
       {"written", "stripped"},
       "written",
       "",
       "chosen: Linux 2.6.9's e1000 leaves CRC stripping off and trims the 4 bytes in "
       "e1000_clean_rx_irq, so each received frame crosses with its CRC",
       "tcp-offload (E1000): whether a received frame's CRC is written to host memory",
       [](Config& c, const Json& v) { c.offload.rx_crc = v.get<std::string>() == "written"; },
       [](const Config& c) { return Json(c.offload.rx_crc ? "written" : "stripped"); }});
  r.push_back(integer("system.offload.host_packet_ns", 0, 1000000, 2000, "ns",
                      "chosen: the host stack's work per frame; it sets only the transfer's "
                      "time, not what crosses the bus",
                      "tcp-offload (E1000): host TCP/IP work per frame sent or received",
                      TIME_FIELD(offload.host_packet, 1e3)));
  r.push_back(integer("system.offload.e1000_coalesce_frames", 0, 256, 0, "frames",
                      "chosen: Linux 2.6.9's e1000 has no frame-count trigger (0: the timer "
                      "alone decides)",
                      "tcp-offload (E1000): receive frames that raise an interrupt at once "
                      "(0: none; the timer alone)",
                      INT_FIELD(offload.e1000_coalesce_frames)));
  r.push_back(integer("system.offload.e1000_coalesce_us", 0, 10000, 125, "µs",
                      "chosen: Linux 2.6.9's e1000 throttles interrupts to 8000 a second "
                      "(InterruptThrottleRate), one per 125 µs; the paper's baseline had "
                      "coalescing (§2.1) but gives no setting. Here the project's coalescer "
                      "holds the interrupt this long after the first unreported frame",
                      "tcp-offload (E1000): the receive interrupt's coalescing timer (0: an "
                      "interrupt per frame)",
                      TIME_FIELD(offload.e1000_coalesce_timer, 1e6)));
  r.push_back(integer("system.offload.descriptor_bytes", 8, 256, 32, "bytes",
                      "chosen: the paper gives no layout; an opcode, a connection, a buffer's "
                      "64-bit address and length, status and a cookie fill 32 bytes",
                      "tcp-offload (offload): one request or response descriptor",
                      INT_FIELD(offload.descriptor_bytes)));
  r.push_back(integer("system.offload.index_bytes", 1, 64, 4, "bytes",
                      "chosen: a 32-bit producer index; IOLib's virtual interface registers "
                      "(§4.4) are updated once per crossing of descriptors",
                      "tcp-offload (offload): the producer index written with each crossing",
                      INT_FIELD(offload.index_bytes)));
  r.push_back(integer(
      "system.offload.send_buffer_kbytes", 1, 64, 4, "KB",
      "seed 004 §4.3: SEND buffers up to 4 KB, a page; the implementation allows up to 64 KB",
      "tcp-offload (offload): the largest buffer one SEND descriptor points at",
      [](Config& c, const Json& v) {
        c.offload.send_buffer_bytes = static_cast<std::int64_t>(v.get<double>()) * 1024;
      },
      [](const Config& c) { return Json(c.offload.send_buffer_bytes / 1024); }));
  r.push_back(integer("system.offload.batch_level", 1, 64, 1, "descriptors",
                      "seed 004 §4.1, §5.2: batching level 1 (Table 4), 10 (Table 5)",
                      "tcp-offload (offload): descriptors that ship together at least",
                      INT_FIELD(offload.batch_level)));
  r.push_back(integer("system.offload.batch_timeout_us", 1, 1000000, 10000, "µs",
                      "seed 004 §5.2: a 10 ms idle timeout",
                      "tcp-offload (offload): a short batch ships after waiting this long",
                      TIME_FIELD(offload.batch_timeout, 1e6)));
  r.push_back(integer("system.offload.oslayer_descriptor_ns", 0, 1000000, 5000, "ns",
                      "chosen: OSLayer's work for one SEND (pin the page, build the descriptor, "
                      "the Put); at least one 4 KB DMA's 3.9 µs, so at batching level 1 SENDs "
                      "cross one at a time, as Table 4's send counts show (about 2 DMAs per "
                      "descriptor besides the payload)",
                      "tcp-offload (offload): host work per SEND descriptor",
                      TIME_FIELD(offload.oslayer_descriptor, 1e3)));
  r.push_back(integer("system.offload.adapter_packet_ns", 0, 1000000, 2000, "ns",
                      "chosen: EDT's work per frame on the adapter; it sets only the "
                      "transfer's time",
                      "tcp-offload (offload): adapter TCP work per frame sent or received",
                      TIME_FIELD(offload.adapter_packet, 1e3)));
  r.push_back(integer("system.offload.edt_event_ns", 0, 1000000, 640, "ns",
                      "fitted to Table 4's 189 receive DMAs at 512 KB: EDT's work per "
                      "descriptor it takes and per DMA completion it handles (§4.2's loop), "
                      "which sets how many SEND responses one pass makes together; from 0.45 "
                      "to 1.4 µs that cell stays within 10% (171 to 199), with none it is 233",
                      "tcp-offload (offload): adapter work per descriptor taken or DMA completed",
                      TIME_FIELD(offload.edt_event, 1e3)));
}

void check_offload_config(const Config& c, const std::string& where, Errors* errors) {
  if (c.workload.kind != WorkloadKind::TcpOffload) return;
  if (c.bus.model != BusModel::Fixed) {
    errors->push_back(
        {"system.bus.model",
         "tcp-offload counts bus cycles by the paper's cost model: \"fixed\"" + where});
  }
  if (c.bus.width_bits < 8) {
    errors->push_back(
        {"system.bus.width_bits", "tcp-offload needs a bus of 8 to 128 bits" + where});
  }
}

}  // namespace nicsim
