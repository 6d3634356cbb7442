// A host CPU's cache hierarchy: split L1 instruction and data caches over a unified L2, each
// set-associative with LRU replacement, a write policy, and optional inclusion (an L2 eviction
// invalidates the L1 lines it covers: "Cache Behavior of Network Protocols" §1.4 and §5 blame
// an I/D conflict in the unified L2, through inclusion, for UDP's L1 misses). Latencies are the
// cycles a reference stalls a single-issue CPU, per level it is served from (the paper's
// Table 1). Bookkeeping only, no time: a model charges the returned cycles to its clock.
//
// Not the NIC data cache (nic/cache/): that one is a fully associative block store the host
// driver manages; this one is the CPU's hardware caches, indexed by address.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/status.hpp"

namespace nicsim {

enum class WritePolicy : std::uint8_t {
  WriteBack = 0,     // write-allocate; a dirty line is written back when evicted
  WriteThrough = 1,  // no-write-allocate; every write also goes to the next level
};
const char* write_policy_name(WritePolicy p);  // "write-back", "write-through"

struct CacheLevelConfig {
  std::uint32_t size_bytes = 16 * 1024;
  std::uint32_t line_bytes = 16;
  std::uint32_t ways = 1;  // 1 = direct-mapped
  WritePolicy write = WritePolicy::WriteBack;
  // Cycles a reference stalls when this level serves it (Table 1: L1 0, L2 11).
  std::uint32_t read_cycles = 0;
  std::uint32_t write_cycles = 0;
};

struct CacheHierarchyConfig {
  CacheLevelConfig l1i, l1d, l2;
  std::uint32_t memory_read_cycles = 141;   // Table 1: the Challenge bus
  std::uint32_t memory_write_cycles = 147;  // Table 1
  bool inclusive = true;                    // an L2 eviction invalidates the L1 lines it covers
};

// Errors name `prefix.field` and the allowed range ("cache.l1i.line_bytes: a power of two in
// 4..1024 ...").
Errors validate(const CacheHierarchyConfig& c, const std::string& prefix = "cache");

// One cache: sets x ways of lines, each line the address of its first byte (the tag and the
// set together), LRU by a use stamp.
class SetAssocCache {
 public:
  struct Line {
    std::uint64_t line_addr = 0;  // address / line_bytes
    std::uint64_t last_use = 0;
    bool valid = false;
    bool dirty = false;
  };
  struct Victim {
    bool valid = false;  // a line was evicted
    bool dirty = false;
    std::uint64_t line_addr = 0;
  };

  explicit SetAssocCache(const CacheLevelConfig& c);
  const CacheLevelConfig& config() const { return cfg_; }
  std::uint32_t sets() const { return sets_; }
  std::uint32_t ways() const { return cfg_.ways; }
  std::uint64_t line_of(std::uint64_t addr) const { return addr / cfg_.line_bytes; }
  std::uint32_t set_of_line(std::uint64_t line) const {
    return static_cast<std::uint32_t>(line % sets_);
  }
  // The way holding the line, or -1. Does not touch LRU.
  int find(std::uint64_t line) const;
  // A hit: marks the line most recently used (and dirty on a write).
  void touch(std::uint64_t line, int way, std::uint64_t stamp, bool write);
  // Places the line in its set (an invalid way first, else the least recently used) and
  // returns the way and what it evicted.
  int fill(std::uint64_t line, std::uint64_t stamp, bool dirty, Victim* victim);
  // Drops the line if present; true (and *was_dirty) when it was there.
  bool invalidate(std::uint64_t line, bool* was_dirty = nullptr);
  void mark_dirty(std::uint64_t line);
  void flush();
  const Line& at(std::uint32_t set, std::uint32_t way) const {
    return lines_[static_cast<std::size_t>(set) * cfg_.ways + way];
  }

 private:
  CacheLevelConfig cfg_;
  std::uint32_t sets_ = 1;
  std::vector<Line> lines_;
};

enum class RefKind : std::uint8_t { Instruction = 0, Load = 1, Store = 2 };

// Where a reference was served from.
enum class ServedBy : std::uint8_t { L1 = 1, L2 = 2, Memory = 3 };

struct CacheAccess {
  ServedBy served = ServedBy::L1;
  std::uint32_t stall_cycles = 0;
  std::uint32_t l1_set = 0, l1_way = 0;  // where the line sits in its L1 after the reference
  std::uint32_t l2_set = 0;
  int l2_way = -1;                   // -1: the reference did not reach the L2
  std::uint32_t invalidated_l1 = 0;  // L1 lines inclusion dropped because the L2 evicted
  bool ideal = false;                // an idealised reference: a hit by definition
};

struct CacheCounts {
  std::uint64_t references = 0, misses = 0;
  double miss_rate() const {
    return references > 0 ? static_cast<double>(misses) / static_cast<double>(references) : 0.0;
  }
};

class CacheHierarchy {
 public:
  explicit CacheHierarchy(const CacheHierarchyConfig& c);
  // Idealised caches (the paper §3.2): every instruction (ideal_i) or data (ideal_d) reference
  // hits in its L1 without touching any cache.
  void set_ideal(bool ideal_i, bool ideal_d) {
    ideal_i_ = ideal_i;
    ideal_d_ = ideal_d;
  }
  CacheAccess access(std::uint64_t addr, RefKind kind);
  // Cold caches (§3.2): every line invalidated, dirty ones written back at no cost.
  void flush();
  // A device wrote these bytes in memory: their lines leave every cache (coherent DMA).
  void invalidate_range(std::uint64_t addr, std::uint64_t bytes);

  // Called for every valid line dropped by inclusion, a range invalidation or a flush: which
  // cache (0 L1-I, 1 L1-D, 2 L2), its set and way (for a view that follows the lines).
  void set_drop_listener(std::function<void(int cache, std::uint32_t set, std::uint32_t way)> f) {
    on_drop_ = std::move(f);
  }

  const SetAssocCache& l1i() const { return l1i_; }
  const SetAssocCache& l1d() const { return l1d_; }
  const SetAssocCache& l2() const { return l2_; }
  const CacheCounts& l1i_counts() const { return n_l1i_; }
  const CacheCounts& l1d_counts() const { return n_l1d_; }
  const CacheCounts& l2_counts() const { return n_l2_; }
  std::uint64_t writebacks() const { return writebacks_; }
  std::uint64_t inclusion_invalidations() const { return inclusion_invalidations_; }

 private:
  // An L1 miss (or a write-through write) at the L2: returns the stall and fills the L2 on a
  // miss, invalidating through inclusion what its victim covered.
  std::uint32_t l2_access(std::uint64_t addr, bool write, CacheAccess* a);
  void write_back_to_l2(std::uint64_t l1_line, const SetAssocCache& from);
  // Invalidates the line if present, telling the drop listener; true when it was there.
  bool drop(SetAssocCache* c, std::uint64_t line, bool* dirty);
  int index_of(const SetAssocCache* c) const { return c == &l1i_ ? 0 : c == &l1d_ ? 1 : 2; }

  CacheHierarchyConfig cfg_;
  SetAssocCache l1i_, l1d_, l2_;
  CacheCounts n_l1i_, n_l1d_, n_l2_;
  std::uint64_t stamp_ = 0, writebacks_ = 0, inclusion_invalidations_ = 0;
  bool ideal_i_ = false, ideal_d_ = false;
  std::function<void(int, std::uint32_t, std::uint32_t)> on_drop_;
};

}  // namespace nicsim
