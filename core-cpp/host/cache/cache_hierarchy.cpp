#include "host/cache/cache_hierarchy.hpp"

namespace nicsim {

namespace {

bool power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

void check_level(const CacheLevelConfig& c, const std::string& p, Errors* e) {
  if (!power_of_two(c.line_bytes) || c.line_bytes < 4 || c.line_bytes > 1024)
    e->push_back({p + ".line_bytes", "must be a power of two in 4..1024"});
  if (!power_of_two(c.size_bytes) || c.size_bytes < 1024 || c.size_bytes > (64u << 20))
    e->push_back({p + ".size_bytes", "must be a power of two in 1024..67108864 (1 KB..64 MB)"});
  if (!power_of_two(c.ways) || c.ways > 64)
    e->push_back({p + ".ways", "must be a power of two in 1..64"});
  if (e->empty() && static_cast<std::uint64_t>(c.ways) * c.line_bytes > c.size_bytes)
    e->push_back({p + ".ways", "ways x line_bytes must not exceed size_bytes"});
  if (c.read_cycles > 100000 || c.write_cycles > 100000)
    e->push_back({p + ".read_cycles", "cycles must be in 0..100000"});
}

}  // namespace

const char* write_policy_name(WritePolicy p) {
  return p == WritePolicy::WriteThrough ? "write-through" : "write-back";
}

Errors validate(const CacheHierarchyConfig& c, const std::string& prefix) {
  Errors e;
  check_level(c.l1i, prefix + ".l1i", &e);
  check_level(c.l1d, prefix + ".l1d", &e);
  check_level(c.l2, prefix + ".l2", &e);
  if (c.l2.write == WritePolicy::WriteThrough)
    e.push_back({prefix + ".l2.write", "the last level must be write-back (nothing behind it)"});
  if (e.empty() && (c.l1i.line_bytes > c.l2.line_bytes || c.l1d.line_bytes > c.l2.line_bytes))
    e.push_back({prefix + ".l2.line_bytes",
                 "must be at least the L1 line sizes (an L2 line covers whole L1 lines)"});
  if (c.memory_read_cycles > 100000 || c.memory_write_cycles > 100000)
    e.push_back({prefix + ".memory_read_cycles", "cycles must be in 0..100000"});
  return e;
}

SetAssocCache::SetAssocCache(const CacheLevelConfig& c) : cfg_(c) {
  const std::uint64_t lines = c.line_bytes > 0 ? c.size_bytes / c.line_bytes : 1;
  sets_ = static_cast<std::uint32_t>(c.ways > 0 && lines >= c.ways ? lines / c.ways : 1);
  if (cfg_.ways == 0) cfg_.ways = 1;
  lines_.assign(static_cast<std::size_t>(sets_) * cfg_.ways, Line{});
}

int SetAssocCache::find(std::uint64_t line) const {
  const std::size_t base = static_cast<std::size_t>(set_of_line(line)) * cfg_.ways;
  for (std::uint32_t w = 0; w < cfg_.ways; ++w) {
    const Line& l = lines_[base + w];
    if (l.valid && l.line_addr == line) return static_cast<int>(w);
  }
  return -1;
}

void SetAssocCache::touch(std::uint64_t line, int way, std::uint64_t stamp, bool write) {
  Line& l = lines_[static_cast<std::size_t>(set_of_line(line)) * cfg_.ways +
                   static_cast<std::size_t>(way)];
  l.last_use = stamp;
  if (write) l.dirty = true;
}

int SetAssocCache::fill(std::uint64_t line, std::uint64_t stamp, bool dirty, Victim* victim) {
  const std::size_t base = static_cast<std::size_t>(set_of_line(line)) * cfg_.ways;
  std::uint32_t pick = 0;
  bool found_invalid = false;
  for (std::uint32_t w = 0; w < cfg_.ways; ++w) {
    const Line& l = lines_[base + w];
    if (!l.valid) {
      pick = w;
      found_invalid = true;
      break;
    }
    if (l.last_use < lines_[base + pick].last_use) pick = w;
  }
  Line& l = lines_[base + pick];
  *victim = Victim{};
  if (!found_invalid) *victim = Victim{true, l.dirty, l.line_addr};
  l = Line{line, stamp, true, dirty};
  return static_cast<int>(pick);
}

bool SetAssocCache::invalidate(std::uint64_t line, bool* was_dirty) {
  const int w = find(line);
  if (w < 0) return false;
  Line& l =
      lines_[static_cast<std::size_t>(set_of_line(line)) * cfg_.ways + static_cast<std::size_t>(w)];
  if (was_dirty) *was_dirty = l.dirty;
  l = Line{};
  return true;
}

void SetAssocCache::mark_dirty(std::uint64_t line) {
  const int w = find(line);
  if (w >= 0)
    lines_[static_cast<std::size_t>(set_of_line(line)) * cfg_.ways + static_cast<std::size_t>(w)]
        .dirty = true;
}

void SetAssocCache::flush() {
  for (Line& l : lines_) l = Line{};
}

CacheHierarchy::CacheHierarchy(const CacheHierarchyConfig& c)
    : cfg_(c), l1i_(c.l1i), l1d_(c.l1d), l2_(c.l2) {}

bool CacheHierarchy::drop(SetAssocCache* c, std::uint64_t line, bool* dirty) {
  const int way = c->find(line);
  if (way < 0) return false;
  if (on_drop_) on_drop_(index_of(c), c->set_of_line(line), static_cast<std::uint32_t>(way));
  return c->invalidate(line, dirty);
}

void CacheHierarchy::write_back_to_l2(std::uint64_t l1_line, const SetAssocCache& from) {
  const std::uint64_t l2_line = l2_.line_of(l1_line * from.config().line_bytes);
  if (l2_.find(l2_line) >= 0)
    l2_.mark_dirty(l2_line);
  else
    ++writebacks_;  // not held below (no inclusion): straight to memory, behind a write buffer
}

std::uint32_t CacheHierarchy::l2_access(std::uint64_t addr, bool write, CacheAccess* a) {
  ++n_l2_.references;
  const std::uint64_t line = l2_.line_of(addr);
  a->l2_set = l2_.set_of_line(line);
  const int way = l2_.find(line);
  if (way >= 0) {
    l2_.touch(line, way, stamp_, false);
    a->l2_way = way;
    a->served = ServedBy::L2;
    return write ? cfg_.l2.write_cycles : cfg_.l2.read_cycles;
  }
  ++n_l2_.misses;
  SetAssocCache::Victim v;
  a->l2_way = l2_.fill(line, stamp_, false, &v);
  a->served = ServedBy::Memory;
  if (v.valid) {
    if (v.dirty) ++writebacks_;
    if (cfg_.inclusive) {
      // Inclusion: the L1 lines inside the evicted L2 line go too (the paper §5).
      const std::uint64_t first = v.line_addr * cfg_.l2.line_bytes;
      for (SetAssocCache* l1 : {&l1i_, &l1d_}) {
        const std::uint32_t step = l1->config().line_bytes;
        for (std::uint64_t b = first; b < first + cfg_.l2.line_bytes; b += step) {
          bool dirty = false;
          if (drop(l1, l1->line_of(b), &dirty)) {
            ++a->invalidated_l1;
            ++inclusion_invalidations_;
            if (dirty) ++writebacks_;
          }
        }
      }
    }
  }
  return write ? cfg_.memory_write_cycles : cfg_.memory_read_cycles;
}

CacheAccess CacheHierarchy::access(std::uint64_t addr, RefKind kind) {
  ++stamp_;
  CacheAccess a;
  const bool instr = kind == RefKind::Instruction;
  const bool write = kind == RefKind::Store;
  SetAssocCache& l1 = instr ? l1i_ : l1d_;
  CacheCounts& n = instr ? n_l1i_ : n_l1d_;
  const std::uint64_t line = l1.line_of(addr);
  a.l1_set = l1.set_of_line(line);
  ++n.references;
  if (instr ? ideal_i_ : ideal_d_) {
    a.ideal = true;
    return a;
  }
  const bool through = write && l1.config().write == WritePolicy::WriteThrough;
  const int way = l1.find(line);
  if (way >= 0) {
    l1.touch(line, way, stamp_, write && !through);
    a.l1_way = static_cast<std::uint32_t>(way);
    a.stall_cycles = write ? l1.config().write_cycles : l1.config().read_cycles;
    if (through) {
      // The write goes on to the L2 behind a write buffer: no stall when the L1 had the line.
      CacheAccess below;
      l2_access(addr, true, &below);
      if (below.served == ServedBy::Memory) a.invalidated_l1 = below.invalidated_l1;
      l2_.mark_dirty(l2_.line_of(addr));
      a.l2_set = below.l2_set;
      a.l2_way = below.l2_way;
    }
    return a;
  }
  ++n.misses;
  if (through) {
    // No write-allocate: the write goes to the L2 and the L1 is left as it was.
    a.stall_cycles = l2_access(addr, true, &a);
    l2_.mark_dirty(l2_.line_of(addr));
    a.l1_way = l1.ways();  // not placed
    return a;
  }
  a.stall_cycles = l2_access(addr, write, &a);
  SetAssocCache::Victim v;
  a.l1_way = static_cast<std::uint32_t>(l1.fill(line, stamp_, write, &v));
  if (v.valid && v.dirty) write_back_to_l2(v.line_addr, l1);
  return a;
}

void CacheHierarchy::flush() {
  if (on_drop_) {
    for (SetAssocCache* c : {&l1i_, &l1d_, &l2_})
      for (std::uint32_t s = 0; s < c->sets(); ++s)
        for (std::uint32_t w = 0; w < c->ways(); ++w)
          if (c->at(s, w).valid) on_drop_(index_of(c), s, w);
  }
  l1i_.flush();
  l1d_.flush();
  l2_.flush();
}

void CacheHierarchy::invalidate_range(std::uint64_t addr, std::uint64_t bytes) {
  for (SetAssocCache* c : {&l1i_, &l1d_, &l2_}) {
    const std::uint64_t step = c->config().line_bytes;
    for (std::uint64_t b = addr - addr % step; b < addr + bytes; b += step)
      drop(c, c->line_of(b), nullptr);
  }
}

}  // namespace nicsim
