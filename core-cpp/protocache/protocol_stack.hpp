// One packet through the protocol fast path as a stream of instruction and data references,
// run through a CacheHierarchy ("Cache Behavior of Network Protocols" §3-§6). Deterministic: a
// packet's stream depends only on the configuration and whether it carries an ACK.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "host/cache/cache_hierarchy.hpp"
#include "protocache/protocache_config.hpp"

namespace nicsim {

// One reference, for the views (the run turns it into a trace record).
struct ProtoReference {
  ProtoRegion region;
  ProtoLayer owner;  // the layer whose code or data the line holds
  RefKind kind;
  std::uint64_t addr;
  CacheAccess access;
  std::uint64_t cycle;  // the packet's cycle count before this reference
};

struct LayerCounts {
  std::uint64_t i_refs = 0, i_misses = 0, d_refs = 0, d_misses = 0;
};

struct PacketCost {
  std::uint64_t instructions = 0, loads = 0, stores = 0;
  std::uint64_t cpu_cycles = 0;           // instructions x CPI
  std::uint64_t stall_l2_cycles = 0;      // L1 misses the L2 served
  std::uint64_t stall_memory_cycles = 0;  // L2 misses
  std::uint64_t l1i_refs = 0, l1i_misses = 0, l1d_refs = 0, l1d_misses = 0, l2_refs = 0,
                l2_misses = 0;
  std::array<LayerCounts, kProtoLayers> layers{};
  std::uint64_t cycles() const { return cpu_cycles + stall_l2_cycles + stall_memory_cycles; }
  void add(const PacketCost& o);
};

class ProtocolStack {
 public:
  explicit ProtocolStack(const ProtoCacheConfig& c);
  // The regions packet `index` runs, in order (TCP adds the ACK every ack_every packets).
  std::vector<ProtoRegion> program(std::uint64_t index) const;
  // Runs packet `index`: the mode's flush, the receive buffer's arrival, then every reference.
  PacketCost run_packet(std::uint64_t index,
                        const std::function<void(const ProtoReference&)>& observe = nullptr);
  const CacheHierarchy& caches() const { return caches_; }
  void set_drop_listener(std::function<void(int, std::uint32_t, std::uint32_t)> f) {
    caches_.set_drop_listener(std::move(f));
  }
  // Where a region's code starts, after the layout (link order or CORD).
  std::uint64_t code_addr(ProtoRegion r) const { return code_addr_[static_cast<int>(r)]; }
  std::uint64_t data_addr(ProtoData d) const;
  const ProtoCacheConfig& config() const { return cfg_; }

  static constexpr std::uint64_t kTextBase = 0x00400000;
  static constexpr std::uint64_t kDataBase = 0x10000000;

 private:
  void run_region(ProtoRegion r, PacketCost* cost,
                  const std::function<void(const ProtoReference&)>& observe);
  ProtoCacheConfig cfg_;
  CacheHierarchy caches_;
  std::array<std::uint64_t, kProtoRegions> code_addr_{};
};

}  // namespace nicsim
