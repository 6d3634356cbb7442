// The host cache hierarchy (host/cache/) against a plain reference implementation on random
// reference streams: set-associative LRU, write-back / write-through, inclusion.
#include "host/cache/cache_hierarchy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <random>
#include <set>

namespace nicsim {
namespace {

// The reference: each set a list of lines, most recently used first.
struct RefCache {
  struct L {
    std::uint64_t line;
    bool dirty;
  };
  explicit RefCache(const CacheLevelConfig& c)
      : cfg(c), sets(c.size_bytes / c.line_bytes / c.ways) {}
  CacheLevelConfig cfg;
  std::vector<std::list<L>> sets;
  std::list<L>& set(std::uint64_t line) { return sets[line % sets.size()]; }
  bool has(std::uint64_t line) {
    auto& s = set(line);
    return std::any_of(s.begin(), s.end(), [&](const L& l) { return l.line == line; });
  }
  void use(std::uint64_t line, bool dirty) {
    auto& s = set(line);
    for (auto it = s.begin(); it != s.end(); ++it) {
      if (it->line == line) {
        L l = *it;
        l.dirty = l.dirty || dirty;
        s.erase(it);
        s.push_front(l);
        return;
      }
    }
  }
  // Inserts at MRU; returns the evicted line, if any.
  bool insert(std::uint64_t line, bool dirty, L* out) {
    auto& s = set(line);
    s.push_front({line, dirty});
    if (s.size() <= cfg.ways) return false;
    *out = s.back();
    s.pop_back();
    return true;
  }
  void mark_dirty(std::uint64_t line) {
    for (L& l : set(line))
      if (l.line == line) l.dirty = true;
  }
  void drop(std::uint64_t line) {
    auto& s = set(line);
    s.remove_if([&](const L& l) { return l.line == line; });
  }
};

struct RefHierarchy {
  explicit RefHierarchy(const CacheHierarchyConfig& c) : cfg(c), i(c.l1i), d(c.l1d), l2(c.l2) {}
  CacheHierarchyConfig cfg;
  RefCache i, d, l2;
  std::uint64_t l2_misses = 0;
  // Returns (level served, stall).
  std::pair<int, std::uint32_t> l2_ref(std::uint64_t addr, bool write) {
    const std::uint64_t line = addr / cfg.l2.line_bytes;
    if (l2.has(line)) {
      l2.use(line, false);
      return {2, write ? cfg.l2.write_cycles : cfg.l2.read_cycles};
    }
    ++l2_misses;
    RefCache::L v;
    if (l2.insert(line, false, &v) && cfg.inclusive) {
      for (RefCache* l1 : {&i, &d})
        for (std::uint64_t b = v.line * cfg.l2.line_bytes; b < (v.line + 1) * cfg.l2.line_bytes;
             b += l1->cfg.line_bytes)
          l1->drop(b / l1->cfg.line_bytes);
    }
    return {3, write ? cfg.memory_write_cycles : cfg.memory_read_cycles};
  }
  std::pair<int, std::uint32_t> access(std::uint64_t addr, RefKind k) {
    RefCache& l1 = k == RefKind::Instruction ? i : d;
    const bool write = k == RefKind::Store;
    const bool through = write && l1.cfg.write == WritePolicy::WriteThrough;
    const std::uint64_t line = addr / l1.cfg.line_bytes;
    if (l1.has(line)) {
      l1.use(line, write && !through);
      if (through) l2_ref(addr, true);
      return {1, 0};
    }
    if (through) return l2_ref(addr, true);
    auto r = l2_ref(addr, write);
    RefCache::L v;
    if (l1.insert(line, write, &v) && v.dirty) {
      const std::uint64_t l2line = v.line * l1.cfg.line_bytes / cfg.l2.line_bytes;
      l2.mark_dirty(l2line);  // a write-back leaves the L2's LRU order alone
    }
    return r;
  }
};

CacheHierarchyConfig random_config(std::mt19937_64& g) {
  auto pick = [&](std::initializer_list<std::uint32_t> v) {
    return *(v.begin() + static_cast<std::ptrdiff_t>(g() % v.size()));
  };
  CacheHierarchyConfig c;
  for (CacheLevelConfig* l : {&c.l1i, &c.l1d}) {
    l->size_bytes = pick({1024, 2048, 4096});
    l->line_bytes = pick({16, 32});
    l->ways = pick({1, 2, 4, 8});
    l->write = g() % 2 ? WritePolicy::WriteThrough : WritePolicy::WriteBack;
  }
  c.l2.size_bytes = pick({8192, 16384, 32768});
  c.l2.line_bytes = pick({32, 64, 128});
  c.l2.ways = pick({1, 2, 4});
  c.l2.read_cycles = 11;
  c.l2.write_cycles = 13;
  c.inclusive = g() % 4 != 0;
  return c;
}

TEST(CacheHierarchy, RandomStreamsMatchTheReference) {
  std::mt19937_64 g(20260126);
  for (int trial = 0; trial < 60; ++trial) {
    const CacheHierarchyConfig c = random_config(g);
    ASSERT_TRUE(validate(c).empty()) << validate(c)[0].path << " " << validate(c)[0].message;
    CacheHierarchy h(c);
    RefHierarchy ref(c);
    std::uint64_t misses[3] = {0, 0, 0};
    for (int n = 0; n < 20000; ++n) {
      // Code, data and a stream, over a span a few times the L2, so every level misses.
      const std::uint64_t region = g() % 3;
      const std::uint64_t addr = region * 0x10000 + (g() % (c.l2.size_bytes * 3)) / 4 * 4;
      const RefKind k = region == 0    ? RefKind::Instruction
                        : g() % 3 == 0 ? RefKind::Store
                                       : RefKind::Load;
      const CacheAccess a = h.access(addr, k);
      const auto r = ref.access(addr, k);
      ASSERT_EQ(static_cast<int>(a.served), r.first) << "trial " << trial << " ref " << n;
      ASSERT_EQ(a.stall_cycles, r.second) << "trial " << trial << " ref " << n;
      if (a.served != ServedBy::L1) ++misses[k == RefKind::Instruction ? 0 : 1];
      if (a.served == ServedBy::Memory) ++misses[2];
    }
    EXPECT_EQ(h.l1i_counts().misses, misses[0]);
    EXPECT_EQ(h.l1d_counts().misses, misses[1]);
    EXPECT_EQ(h.l2_counts().misses, ref.l2_misses);  // write-through stores reach it too
    EXPECT_LE(misses[2], ref.l2_misses);
  }
}

TEST(CacheHierarchy, ColdStartRefetchesEveryLine) {
  CacheHierarchyConfig c;  // the paper's baseline: 16 KB DM L1s, 1 MB DM L2
  c.l2.size_bytes = 1 << 20;
  c.l2.line_bytes = 128;
  c.l2.read_cycles = 11;
  CacheHierarchy h(c);
  for (int pass = 0; pass < 3; ++pass) {
    h.flush();
    const std::uint64_t before_l1 = h.l1i_counts().misses, before_l2 = h.l2_counts().misses;
    for (std::uint64_t a = 0; a < 8192; a += 4) h.access(0x400000 + a, RefKind::Instruction);
    EXPECT_EQ(h.l1i_counts().misses - before_l1, 8192u / 16);  // every 16-byte line
    EXPECT_EQ(h.l2_counts().misses - before_l2, 8192u / 128);  // every 128-byte line
  }
}

TEST(CacheHierarchy, InclusionInvalidatesTheL1LinesAnL2EvictionCovers) {
  CacheHierarchyConfig c;
  c.l2.size_bytes = 1 << 20;
  c.l2.line_bytes = 128;
  CacheHierarchy h(c);
  // Code at 0x400000 and data at 0x10000000 share an L2 set (both 1 MB aligned): the paper's
  // I/D conflict in the unified L2.
  for (std::uint64_t a = 0; a < 128; a += 4) h.access(0x400000 + a, RefKind::Instruction);
  EXPECT_EQ(h.l1i_counts().misses, 8u);
  h.access(0x10000000, RefKind::Load);  // evicts the code's L2 line, and its 8 L1-I lines
  EXPECT_EQ(h.inclusion_invalidations(), 8u);
  for (std::uint64_t a = 0; a < 128; a += 4) h.access(0x400000 + a, RefKind::Instruction);
  EXPECT_EQ(h.l1i_counts().misses, 16u);
  // Without inclusion the L1-I keeps them.
  c.inclusive = false;
  CacheHierarchy n(c);
  for (std::uint64_t a = 0; a < 128; a += 4) n.access(0x400000 + a, RefKind::Instruction);
  n.access(0x10000000, RefKind::Load);
  for (std::uint64_t a = 0; a < 128; a += 4) n.access(0x400000 + a, RefKind::Instruction);
  EXPECT_EQ(n.l1i_counts().misses, 8u);
}

TEST(CacheHierarchy, IdealReferencesHitWithoutTouchingTheCaches) {
  CacheHierarchyConfig c;
  CacheHierarchy h(c);
  h.set_ideal(true, false);
  for (std::uint64_t a = 0; a < 65536; a += 4) {
    const CacheAccess x = h.access(a, RefKind::Instruction);
    EXPECT_EQ(x.stall_cycles, 0u);
    EXPECT_EQ(x.served, ServedBy::L1);
  }
  EXPECT_EQ(h.l1i_counts().misses, 0u);
  EXPECT_EQ(h.l2_counts().references, 0u);
  EXPECT_GT(h.access(0, RefKind::Load).stall_cycles, 0u);  // data is still fetched
}

TEST(CacheHierarchy, ValidationNamesTheFieldAndRange) {
  CacheHierarchyConfig c;
  c.l1d.line_bytes = 24;
  const Errors e = validate(c, "system.host_cache");
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].path, "system.host_cache.l1d.line_bytes");
  EXPECT_NE(e[0].message.find("4..1024"), std::string::npos);
}

}  // namespace
}  // namespace nicsim
