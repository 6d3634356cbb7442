#include "protocache/protocol_stack.hpp"

#include <algorithm>
#include <cstring>

namespace nicsim {

namespace {

constexpr const char* kPathNames[kProtoPaths] = {
    "tcp-send-cksum-off", "tcp-send-cksum-on", "tcp-recv-cksum-off", "tcp-recv-cksum-on",
    "udp-send-cksum-off", "udp-send-cksum-on", "udp-recv-cksum-off", "udp-recv-cksum-on"};
constexpr const char* kRegionNames[kProtoRegions] = {
    "user_send", "user_recv",   "tcp_output", "tcp_input", "udp_output", "udp_input", "ip_output",
    "ip_input",  "fddi_output", "fddi_input", "msg",       "event",      "checksum"};
constexpr const char* kLayerNames[kProtoLayers] = {"user", "tcp", "udp",   "ip",
                                                   "fddi", "msg", "event", "checksum"};
constexpr const char* kDataNames[kProtoData] = {
    "user", "tcp", "udp", "ip", "fddi", "msg", "event", "send_buffer", "receive_buffer"};

// A run of consecutive instructions of a sparse fast path: 8 instructions, two 16-byte lines.
constexpr std::uint64_t kRunInstructions = 8;

ProtoData region_data(ProtoRegion r, bool send) {
  switch (r) {
    case ProtoRegion::UserSend:
    case ProtoRegion::UserRecv:
      return ProtoData::User;
    case ProtoRegion::TcpOutput:
    case ProtoRegion::TcpInput:
      return ProtoData::Tcp;
    case ProtoRegion::UdpOutput:
    case ProtoRegion::UdpInput:
      return ProtoData::Udp;
    case ProtoRegion::IpOutput:
    case ProtoRegion::IpInput:
      return ProtoData::Ip;
    case ProtoRegion::FddiOutput:
    case ProtoRegion::FddiInput:
      return ProtoData::Fddi;
    case ProtoRegion::Msg:
      return ProtoData::Msg;
    case ProtoRegion::Event:
      return ProtoData::Event;
    case ProtoRegion::Checksum:
      break;
  }
  return send ? ProtoData::SendBuffer : ProtoData::ReceiveBuffer;
}

}  // namespace

const char* proto_path_name(ProtoPath p) { return kPathNames[static_cast<int>(p)]; }
bool proto_path_from_name(const char* n, ProtoPath* out) {
  for (int i = 0; i < kProtoPaths; ++i) {
    if (std::strcmp(n, kPathNames[i]) == 0) {
      *out = static_cast<ProtoPath>(i);
      return true;
    }
  }
  return false;
}
const char* cache_mode_name(CacheMode m) {
  constexpr const char* k[] = {"hot", "cold", "ideal", "ideal-i", "ideal-d"};
  return k[static_cast<int>(m)];
}
const char* host_machine_name(HostMachine m) {
  constexpr const char* k[] = {"custom", "1994", "1996", "1998"};
  return k[static_cast<int>(m)];
}
const char* proto_region_name(ProtoRegion r) { return kRegionNames[static_cast<int>(r)]; }
const char* proto_layer_name(ProtoLayer l) { return kLayerNames[static_cast<int>(l)]; }
const char* proto_data_name(ProtoData d) { return kDataNames[static_cast<int>(d)]; }

ProtoLayer region_layer(ProtoRegion r) {
  switch (r) {
    case ProtoRegion::UserSend:
    case ProtoRegion::UserRecv:
      return ProtoLayer::User;
    case ProtoRegion::TcpOutput:
    case ProtoRegion::TcpInput:
      return ProtoLayer::Tcp;
    case ProtoRegion::UdpOutput:
    case ProtoRegion::UdpInput:
      return ProtoLayer::Udp;
    case ProtoRegion::IpOutput:
    case ProtoRegion::IpInput:
      return ProtoLayer::Ip;
    case ProtoRegion::FddiOutput:
    case ProtoRegion::FddiInput:
      return ProtoLayer::Fddi;
    case ProtoRegion::Msg:
      return ProtoLayer::Msg;
    case ProtoRegion::Event:
      return ProtoLayer::Event;
    case ProtoRegion::Checksum:
      break;
  }
  return ProtoLayer::Checksum;
}

CacheHierarchyConfig hierarchy_config(const ProtoCacheConfig& c) {
  struct Row {
    std::uint32_t l1_kb, ways, l2_read, l2_write, mem_read, mem_write;
  };
  // The paper's Table 8 (line sizes are not restated for 1996 and 1998: the baseline's kept).
  constexpr Row kTable8[] = {
      {16, 1, 11, 11, 141, 147}, {32, 2, 13, 13, 201, 275}, {64, 2, 16, 16, 300, 400}};
  CacheHierarchyConfig h;
  auto u = [](std::int64_t v) { return static_cast<std::uint32_t>(v); };
  Row r{u(c.l1_kbytes),          u(c.ways),
        u(c.l2_read_cycles),     u(c.l2_write_cycles),
        u(c.memory_read_cycles), u(c.memory_write_cycles)};
  std::uint32_t l2_kb = u(c.l2_kbytes);
  if (c.machine != HostMachine::Custom) {
    r = kTable8[static_cast<int>(c.machine) - 1];
    l2_kb = 1024;
  }
  for (CacheLevelConfig* l : {&h.l1i, &h.l1d}) {
    l->size_bytes = r.l1_kb * 1024;
    l->line_bytes = u(c.l1_line_bytes);
    l->ways = r.ways;
    l->write = c.write;
    l->read_cycles = 0;  // Table 1 / Table 8: L1 reads and writes cost no stall
    l->write_cycles = 0;
  }
  h.l2.size_bytes = l2_kb * 1024;
  h.l2.line_bytes = u(c.l2_line_bytes);
  h.l2.ways = r.ways;
  h.l2.write = WritePolicy::WriteBack;
  h.l2.read_cycles = r.l2_read;
  h.l2.write_cycles = r.l2_write;
  h.memory_read_cycles = r.mem_read;
  h.memory_write_cycles = r.mem_write;
  h.inclusive = c.inclusive;
  return h;
}

std::int64_t effective_cpu_mhz(const ProtoCacheConfig& c) {
  constexpr std::int64_t kMhz[] = {100, 200, 400};  // Table 8
  return c.machine == HostMachine::Custom ? c.cpu_mhz : kMhz[static_cast<int>(c.machine) - 1];
}

void PacketCost::add(const PacketCost& o) {
  instructions += o.instructions;
  loads += o.loads;
  stores += o.stores;
  cpu_cycles += o.cpu_cycles;
  stall_l2_cycles += o.stall_l2_cycles;
  stall_memory_cycles += o.stall_memory_cycles;
  l1i_refs += o.l1i_refs;
  l1i_misses += o.l1i_misses;
  l1d_refs += o.l1d_refs;
  l1d_misses += o.l1d_misses;
  l2_refs += o.l2_refs;
  l2_misses += o.l2_misses;
  for (int i = 0; i < kProtoLayers; ++i) {
    layers[static_cast<std::size_t>(i)].i_refs += o.layers[static_cast<std::size_t>(i)].i_refs;
    layers[static_cast<std::size_t>(i)].i_misses += o.layers[static_cast<std::size_t>(i)].i_misses;
    layers[static_cast<std::size_t>(i)].d_refs += o.layers[static_cast<std::size_t>(i)].d_refs;
    layers[static_cast<std::size_t>(i)].d_misses += o.layers[static_cast<std::size_t>(i)].d_misses;
  }
}

ProtocolStack::ProtocolStack(const ProtoCacheConfig& c) : cfg_(c), caches_(hierarchy_config(c)) {
  caches_.set_ideal(c.mode == CacheMode::Ideal || c.mode == CacheMode::IdealI,
                    c.mode == CacheMode::Ideal || c.mode == CacheMode::IdealD);
  for (int i = 0; i < kProtoRegions; ++i)
    code_addr_[static_cast<std::size_t>(i)] =
        kTextBase + static_cast<std::uint64_t>(c.code[static_cast<std::size_t>(i)].offset);
  if (c.layout == CodeLayout::Cord) {
    // CORD (§6): the procedures this path runs, packed in the order it first runs them (the
    // data packet's program, then the ACK's), each on a fresh L1 line; the rest after them.
    std::vector<ProtoRegion> order = program(0);
    const std::vector<ProtoRegion> ack =
        program(static_cast<std::uint64_t>(std::max<std::int64_t>(1, cfg_.ack_every) - 1));
    order.insert(order.end(), ack.begin(), ack.end());
    for (int i = 0; i < kProtoRegions; ++i) order.push_back(static_cast<ProtoRegion>(i));
    std::array<bool, kProtoRegions> placed{};
    std::uint64_t at = 0;
    const std::uint64_t align = static_cast<std::uint64_t>(c.l1_line_bytes);
    for (ProtoRegion r : order) {
      const auto i = static_cast<std::size_t>(r);
      if (placed[i]) continue;
      placed[i] = true;
      code_addr_[i] = kTextBase + at;
      at += (static_cast<std::uint64_t>(c.code[i].bytes) + align - 1) / align * align;
    }
  }
}

std::uint64_t ProtocolStack::data_addr(ProtoData d) const {
  return kDataBase + static_cast<std::uint64_t>(cfg_.data[static_cast<std::size_t>(d)].offset);
}

std::vector<ProtoRegion> ProtocolStack::program(std::uint64_t index) const {
  using R = ProtoRegion;
  const ProtoPath p = cfg_.path;
  const bool cksum = path_has_checksum(p);
  const bool ack = cfg_.ack_every > 0 && index % static_cast<std::uint64_t>(cfg_.ack_every) ==
                                             static_cast<std::uint64_t>(cfg_.ack_every) - 1;
  std::vector<R> v;
  if (path_is_tcp(p) && path_is_send(p)) {
    v = {R::UserSend, R::TcpOutput, R::Msg};
    if (cksum) v.push_back(R::Checksum);
    v.insert(v.end(), {R::Msg, R::IpOutput, R::Msg, R::FddiOutput});
    // The simulated receiver's ACK comes back up the sender's own stack (§3, Fig 2).
    if (ack) v.insert(v.end(), {R::FddiInput, R::Msg, R::IpInput, R::TcpInput, R::Msg});
    v.push_back(R::Event);
  } else if (path_is_tcp(p)) {
    v = {R::FddiInput, R::Msg, R::IpInput, R::Msg, R::TcpInput};
    if (cksum) v.push_back(R::Checksum);
    v.push_back(R::UserRecv);
    if (ack) v.insert(v.end(), {R::TcpOutput, R::Msg, R::IpOutput, R::FddiOutput});
    v.push_back(R::Event);
  } else if (path_is_send(p)) {
    v = {R::UserSend, R::UdpOutput, R::Msg};
    if (cksum) v.push_back(R::Checksum);
    v.insert(v.end(), {R::IpOutput, R::Msg, R::FddiOutput, R::Event});
  } else {
    v = {R::FddiInput, R::Msg, R::IpInput, R::Msg, R::UdpInput};
    if (cksum) v.push_back(R::Checksum);
    v.insert(v.end(), {R::UserRecv, R::Event});
  }
  return v;
}

void ProtocolStack::run_region(ProtoRegion r, PacketCost* cost,
                               const std::function<void(const ProtoReference&)>& observe) {
  const auto ri = static_cast<std::size_t>(r);
  const CodeRegionConfig& code = cfg_.code[ri];
  const bool send = path_is_send(cfg_.path);
  const ProtoData dreg = region_data(r, send);
  const DataRegionConfig& data = cfg_.data[static_cast<std::size_t>(dreg)];
  const std::uint64_t base = code_addr_[ri];
  const std::uint64_t bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(4, code.bytes));
  const bool checksum = r == ProtoRegion::Checksum;
  const std::uint64_t per_word =
      static_cast<std::uint64_t>(std::max<std::int64_t>(1, cfg_.checksum_instructions_per_word));
  // The checksum loop runs per_word instructions for each 32-bit word of payload; the protocol
  // code makes one data reference every other instruction (§4: 2:1 without checksum).
  const std::uint64_t n = checksum ? static_cast<std::uint64_t>(cfg_.payload_bytes) / 4 * per_word
                                   : static_cast<std::uint64_t>(code.instructions);
  const std::uint64_t d_every = checksum ? per_word : 2;
  const std::uint64_t cpi =
      static_cast<std::uint64_t>(checksum ? cfg_.checksum_cpi_x100 : cfg_.protocol_cpi_x100);
  const ProtoLayer layer = region_layer(r);
  LayerCounts& lc = cost->layers[static_cast<std::size_t>(layer)];
  const std::uint64_t dbase = data_addr(dreg);
  const std::uint64_t dbytes = static_cast<std::uint64_t>(
      std::max<std::int64_t>(4, checksum ? cfg_.payload_bytes : data.bytes));
  // A fast path longer than its footprint loops over it; a shorter one is runs of 8
  // instructions spread evenly through it (the slow paths compiled in between).
  const bool loops = n * 4 >= bytes;
  const std::uint64_t runs = (n + kRunInstructions - 1) / kRunInstructions;
  std::uint64_t cpu_x100 = 0;
  std::uint64_t d = 0;
  auto cycle_now = [&]() {
    return cost->cpu_cycles + cpu_x100 / 100 + cost->stall_l2_cycles + cost->stall_memory_cycles;
  };
  auto charge = [&](const CacheAccess& a) {
    if (a.served == ServedBy::L2)
      cost->stall_l2_cycles += a.stall_cycles;
    else if (a.served == ServedBy::Memory)
      cost->stall_memory_cycles += a.stall_cycles;
    if (a.served != ServedBy::L1) ++cost->l2_refs;
    if (a.served == ServedBy::Memory) ++cost->l2_misses;
  };
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t off;
    if (loops) {
      off = (i * 4) % bytes;
    } else {
      const std::uint64_t run = i / kRunInstructions;
      off = (run * bytes / runs) / 4 * 4 + (i % kRunInstructions) * 4;
      if (off >= bytes) off = bytes - 4;
    }
    const std::uint64_t addr = base + off;
    const std::uint64_t before = cycle_now();
    const CacheAccess a = caches_.access(addr, RefKind::Instruction);
    ++cost->instructions;
    ++cost->l1i_refs;
    ++lc.i_refs;
    if (a.served != ServedBy::L1) {
      ++cost->l1i_misses;
      ++lc.i_misses;
    }
    charge(a);
    cpu_x100 += cpi;
    if (observe) observe({r, layer, RefKind::Instruction, addr, a, before});
    if (i % d_every == d_every - 1) {
      const bool store = !checksum && d % 3 == 2;
      const std::uint64_t daddr = dbase + (d * 4) % dbytes;
      ++d;
      const std::uint64_t dbefore = cycle_now();
      const CacheAccess b = caches_.access(daddr, store ? RefKind::Store : RefKind::Load);
      if (store)
        ++cost->stores;
      else
        ++cost->loads;
      ++cost->l1d_refs;
      ++lc.d_refs;
      if (b.served != ServedBy::L1) {
        ++cost->l1d_misses;
        ++lc.d_misses;
      }
      charge(b);
      if (observe)
        observe({r, checksum ? ProtoLayer::Checksum : layer, store ? RefKind::Store : RefKind::Load,
                 daddr, b, dbefore});
    }
  }
  cost->cpu_cycles += cpu_x100 / 100;
}

PacketCost ProtocolStack::run_packet(std::uint64_t index,
                                     const std::function<void(const ProtoReference&)>& observe) {
  if (cfg_.mode == CacheMode::Cold) caches_.flush();  // §3.2: free, before every packet
  if (!path_is_send(cfg_.path)) {
    // The packet arrives in memory: none of the receive buffer is in any cache (the in-memory
    // driver stands in for a NIC whose DMA writes are coherent).
    caches_.invalidate_range(data_addr(ProtoData::ReceiveBuffer),
                             static_cast<std::uint64_t>(cfg_.payload_bytes));
  }
  PacketCost cost;
  for (ProtoRegion r : program(index)) run_region(r, &cost, observe);
  return cost;
}

}  // namespace nicsim
