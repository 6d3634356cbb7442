#include "nic/cache/nic_data_cache.hpp"

#include <algorithm>

namespace nicsim {

namespace {

bool power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::uint64_t key_of(std::uint32_t file, std::uint32_t block) {
  return (static_cast<std::uint64_t>(file) << 32) | block;
}

}  // namespace

// Names, in enum order.
const char* const kReplacementNames[] = {"lru", "lfu", "fifo"};
const char* const kEventNames[] = {"hit", "insert", "evict", "invalidate"};
const char* const kCommandNames[] = {"nic_pkt_append_mm", "nic_pkt_append_cache",
                                     "nic_cache_insert"};

const char* replacement_name(Replacement r) { return kReplacementNames[static_cast<int>(r)]; }

bool replacement_from_name(const std::string& name, Replacement* out) {
  for (Replacement r : {Replacement::Lru, Replacement::Lfu, Replacement::Fifo}) {
    if (name == replacement_name(r)) {
      *out = r;
      return true;
    }
  }
  return false;
}

const char* cache_event_name(CacheEventKind k) { return kEventNames[static_cast<int>(k)]; }

const char* cache_command_name(CacheCommandKind k) { return kCommandNames[static_cast<int>(k)]; }

Errors validate(const NicCacheConfig& c, const std::string& prefix) {
  Errors errors;
  const bool block_ok = power_of_two(c.block_bytes) && c.block_bytes >= kMinBlockBytes &&
                        c.block_bytes <= kMaxBlockBytes;
  if (!block_ok) {
    errors.push_back({prefix + ".block_bytes", "must be a power of two in " +
                                                   std::to_string(kMinBlockBytes) + ".." +
                                                   std::to_string(kMaxBlockBytes)});
  }
  const std::uint64_t unit = block_ok ? c.block_bytes : kMinBlockBytes;
  if (c.capacity_bytes < unit || c.capacity_bytes > kMaxCacheBytes ||
      (block_ok && c.capacity_bytes % c.block_bytes != 0)) {
    errors.push_back({prefix + ".capacity_bytes", "must be a whole number of blocks (" + prefix +
                                                      ".block_bytes) in " + std::to_string(unit) +
                                                      ".." + std::to_string(kMaxCacheBytes)});
  }
  if (c.replacement != Replacement::Lru && c.replacement != Replacement::Lfu &&
      c.replacement != Replacement::Fifo) {
    errors.push_back({prefix + ".replacement", "must be one of \"lru\", \"lfu\", \"fifo\""});
  }
  return errors;
}

Errors validate(const Segmentation& s, const std::string& prefix) {
  Errors errors;
  if (s.segment_bytes < 1 || s.segment_bytes > 9000) {
    errors.push_back({prefix + ".segment_bytes", "must be a whole number in 1..9000"});
  }
  if (s.network_header_bytes < 1 || s.network_header_bytes > 256) {
    errors.push_back({prefix + ".network_header_bytes", "must be a whole number in 1..256"});
  }
  if (s.http_header_bytes > s.segment_bytes) {
    errors.push_back({prefix + ".http_header_bytes",
                      "must be a whole number in 0.." + std::to_string(s.segment_bytes) + " (" +
                          prefix + ".segment_bytes): it travels in the first packet"});
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------

NicDataCache::NicDataCache(const NicCacheConfig& config) : config_(config) {
  const std::uint32_t n = static_cast<std::uint32_t>(config.capacity_bytes / config.block_bytes);
  slots_.resize(n);
  free_.reserve(n);
  for (std::uint32_t s = n; s-- > 0;) free_.push_back(s);  // slot 0 is taken first
  if (config.replacement == Replacement::Lfu) buckets_.reserve(std::min<std::uint32_t>(n, 1024));
  std::uint64_t cap = 16;
  while (cap < 2ull * n) cap <<= 1;
  dir_.assign(cap, DirEntry{});
  dir_mask_ = static_cast<std::uint32_t>(cap - 1);
}

// --- directory --------------------------------------------------------------------------------

[[gnu::always_inline]] inline std::uint32_t NicDataCache::dir_find(std::uint64_t key) const {
  const std::uint32_t h = dir_hash(key);
  for (std::uint32_t i = h & dir_mask_;; i = (i + 1) & dir_mask_) {
    const DirEntry e = dir_[i];
    if (e.slot == kNoSlot) return kNoSlot;
    if (e.hash == h && slots_[e.slot].key == key) return e.slot;
  }
}

[[gnu::always_inline]] inline void NicDataCache::dir_insert(std::uint64_t key, std::uint32_t slot) {
  const std::uint32_t h = dir_hash(key);
  std::uint32_t i = h & dir_mask_;
  while (dir_[i].slot != kNoSlot) i = (i + 1) & dir_mask_;
  dir_[i] = {h, slot};
}

void NicDataCache::dir_erase(std::uint64_t key, std::uint32_t slot) {
  std::uint32_t i = dir_hash(key) & dir_mask_;
  while (dir_[i].slot != slot) i = (i + 1) & dir_mask_;
  // Backward-shift deletion: pull later entries of the probe run into the hole.
  for (std::uint32_t j = (i + 1) & dir_mask_; dir_[j].slot != kNoSlot; j = (j + 1) & dir_mask_) {
    const std::uint32_t k = dir_[j].hash & dir_mask_;
    if (((j - k) & dir_mask_) >= ((j - i) & dir_mask_)) {
      dir_[i] = dir_[j];
      i = j;
    }
  }
  dir_[i].slot = kNoSlot;
}

// --- replacement ------------------------------------------------------------------------------

std::uint32_t NicDataCache::new_bucket(std::uint32_t frequency, std::uint32_t after) {
  std::uint32_t b;
  if (!free_buckets_.empty()) {
    b = free_buckets_.back();
    free_buckets_.pop_back();
  } else {
    b = static_cast<std::uint32_t>(buckets_.size());
    buckets_.emplace_back();
  }
  Bucket& nb = buckets_[b];
  nb.frequency = frequency;
  nb.head = nb.tail = kNoSlot;
  nb.prev = after;
  nb.next = after == kNoSlot ? lowest_bucket_ : buckets_[after].next;
  if (nb.next != kNoSlot) buckets_[nb.next].prev = b;
  if (after == kNoSlot) {
    lowest_bucket_ = b;
  } else {
    buckets_[after].next = b;
  }
  return b;
}

void NicDataCache::bucket_push_back(std::uint32_t b, std::uint32_t slot) {
  Slot& s = slots_[slot];
  Bucket& bk = buckets_[b];
  s.bucket = b;
  s.prev = bk.tail;
  s.next = kNoSlot;
  if (bk.tail != kNoSlot) {
    slots_[bk.tail].next = slot;
  } else {
    bk.head = slot;
  }
  bk.tail = slot;
}

void NicDataCache::bucket_remove(std::uint32_t slot) {
  Slot& s = slots_[slot];
  const std::uint32_t b = s.bucket;
  Bucket& bk = buckets_[b];
  if (s.prev != kNoSlot) {
    slots_[s.prev].next = s.next;
  } else {
    bk.head = s.next;
  }
  if (s.next != kNoSlot) {
    slots_[s.next].prev = s.prev;
  } else {
    bk.tail = s.prev;
  }
  s.prev = s.next = s.bucket = kNoSlot;
  if (bk.head != kNoSlot) return;
  // An empty bucket leaves the list.
  if (bk.prev != kNoSlot) {
    buckets_[bk.prev].next = bk.next;
  } else {
    lowest_bucket_ = bk.next;
  }
  if (bk.next != kNoSlot) buckets_[bk.next].prev = bk.prev;
  free_buckets_.push_back(b);
}

[[gnu::always_inline]] inline void NicDataCache::link_new(std::uint32_t slot) {
  Slot& s = slots_[slot];
  if (config_.replacement == Replacement::Lfu) {
    s.frequency = 1;
    std::uint32_t b = lowest_bucket_;
    if (b == kNoSlot || buckets_[b].frequency != 1) b = new_bucket(1, kNoSlot);
    bucket_push_back(b, slot);
    return;
  }
  // LRU and FIFO: the newest block goes to the tail.
  s.frequency = 1;
  s.prev = tail_;
  s.next = kNoSlot;
  if (tail_ != kNoSlot) {
    slots_[tail_].next = slot;
  } else {
    head_ = slot;
  }
  tail_ = slot;
}

[[gnu::always_inline]] inline void NicDataCache::unlink(std::uint32_t slot) {
  if (config_.replacement == Replacement::Lfu) {
    bucket_remove(slot);
    return;
  }
  Slot& s = slots_[slot];
  if (s.prev != kNoSlot) {
    slots_[s.prev].next = s.next;
  } else {
    head_ = s.next;
  }
  if (s.next != kNoSlot) {
    slots_[s.next].prev = s.prev;
  } else {
    tail_ = s.prev;
  }
  s.prev = s.next = kNoSlot;
}

[[gnu::always_inline]] inline void NicDataCache::touch(std::uint32_t slot) {
  Slot& s = slots_[slot];
  switch (config_.replacement) {
    case Replacement::Fifo:
      return;  // FIFO ignores references: victims leave in insertion order
    case Replacement::Lru:
      if (tail_ != slot) {
        unlink(slot);
        link_new(slot);
      }
      return;
    case Replacement::Lfu: {
      // Up one frequency; ties among the lowest frequency go least recently referenced first.
      const std::uint32_t b = s.bucket;
      const std::uint32_t f = s.frequency + 1;
      std::uint32_t target = buckets_[b].next;
      if (target == kNoSlot || buckets_[target].frequency != f) target = new_bucket(f, b);
      bucket_remove(slot);
      s.frequency = f;
      bucket_push_back(target, slot);
      return;
    }
  }
}

[[gnu::always_inline]] inline std::uint32_t NicDataCache::victim() const {
  if (config_.replacement == Replacement::Lfu) return buckets_[lowest_bucket_].head;
  return head_;  // LRU: least recently used; FIFO: first in
}

void NicDataCache::drop(std::uint32_t slot) {
  Slot& s = slots_[slot];
  if (warming_) {
    WarmFile& w = warm_file(s);
    s.hits += w.hits - s.warm_hits_base;  // its file's whole-file hits while it was here
    --w.present;
  }
  unlink(slot);
  dir_erase(s.key, slot);
  s.used = false;
  s.stale = false;
  s.frequency = 0;
  free_.push_back(slot);
  --used_;
}

[[gnu::always_inline]] inline std::uint32_t NicDataCache::allocate(std::uint64_t key,
                                                                   std::uint32_t revision) {
  if (free_.empty()) {
    const std::uint32_t v = victim();
    log(CacheEventKind::Evict, v);
    ++counters_.evictions;
    drop(v);
  }
  const std::uint32_t slot = free_.back();
  free_.pop_back();
  Slot& s = slots_[slot];
  s.key = key;
  s.revision = revision;
  s.valid_lo = s.valid_hi = 0;
  s.used = true;
  s.stale = false;
  if (warming_) {
    const std::uint32_t file = static_cast<std::uint32_t>(key >> 32);
    if (file >= warm_files_.size()) warm_files_.resize(file + std::size_t{1});
    s.warm_hits_base = warm_files_[file].hits;
    ++warm_files_[file].present;
  }
  dir_insert(key, slot);
  link_new(slot);
  ++used_;
  return slot;
}

void NicDataCache::log_event(CacheEventKind k, std::uint32_t slot) {
  if (log_->size() >= log_cap_) {
    log_truncated_ = true;
    return;
  }
  const Slot& s = slots_[slot];
  log_->push_back({request_, slot, static_cast<std::uint32_t>(s.key >> 32),
                   static_cast<std::uint32_t>(s.key), k, nic_});
}

// --- the driver's operations -------------------------------------------------------------------

[[gnu::always_inline]] inline std::uint32_t NicDataCache::lookup(std::uint64_t key,
                                                                 std::uint32_t rev) {
  // A response's next piece is most often in the block just accessed, and its next block in
  // the slot that followed that one in the policy's list (a file's blocks go in together and
  // are referenced together): a used slot holding the key is the directory's one mapping of
  // it, so the lookup can be skipped.
  const auto holds = [&](std::uint32_t s) {
    return s < slots_.size() && slots_[s].used && slots_[s].key == key;
  };
  std::uint32_t slot = holds(last_slot_)   ? last_slot_
                       : holds(next_hint_) ? next_hint_
                                           : dir_find(key);
  // Lazy invalidation (§4.3.2): a stale mapping is found and dropped only now.
  if (slot != kNoSlot && (slots_[slot].stale || slots_[slot].revision != rev)) {
    log(CacheEventKind::Invalidate, slot);
    ++counters_.invalidations;
    drop(slot);
    slot = kNoSlot;
  }
  return slot;
}

[[gnu::always_inline]] inline void NicDataCache::inserted(std::uint32_t slot, std::uint32_t n) {
  log(CacheEventKind::Insert, slot);
  ++slots_[slot].insertions;
  ++counters_.insertions;
  counters_.inserted_bytes += n;
}

[[gnu::always_inline]] inline std::pair<std::uint32_t, std::uint32_t> NicDataCache::take_range(
    Slot& s, std::uint32_t lo, std::uint32_t hi) {
  const std::uint32_t ol = std::max(lo, s.valid_lo), oh = std::min(hi, s.valid_hi);
  if (ol < oh || hi == s.valid_lo || lo == s.valid_hi) {
    s.valid_lo = std::min(lo, s.valid_lo);  // overlapping or adjacent (the next packet's piece)
    s.valid_hi = std::max(hi, s.valid_hi);
  } else {
    s.valid_lo = lo;  // disjoint with a gap: one range per block, the older bytes go
    s.valid_hi = hi;
  }
  return {ol, oh};
}

[[gnu::always_inline]] inline void NicDataCache::insert_outside(std::uint32_t slot,
                                                                std::uint32_t lo, std::uint32_t hi,
                                                                std::uint32_t ol,
                                                                std::uint32_t oh) {
  if (ol >= oh) {
    if (hi != lo) inserted(slot, hi - lo);
    return;
  }
  if (ol != lo) inserted(slot, ol - lo);
  if (hi != oh) inserted(slot, hi - oh);
}

BlockAccess NicDataCache::access(std::uint32_t file, std::uint32_t block, std::uint32_t lo,
                                 std::uint32_t hi, bool reference) {
  const std::uint64_t key = key_of(file, block);
  const std::uint32_t rev = revision(file);
  std::uint32_t slot = lookup(key, rev);
  if (reference) ++counters_.references;

  BlockAccess a;
  a.cached_lo = a.cached_hi = hi;  // nothing cached until shown otherwise
  if (slot == kNoSlot) {
    if (reference) ++counters_.misses;
    slot = allocate(key, rev);
    next_hint_ = kNoSlot;
    slots_[slot].valid_lo = lo;
    slots_[slot].valid_hi = hi;
  } else {
    a.found = true;
    Slot& s = slots_[slot];
    const auto [ol, oh] = take_range(s, lo, hi);
    if (ol < oh) {
      a.cached_lo = ol;
      a.cached_hi = oh;
    }
    if (reference) {
      if (ol < oh) {
        log(CacheEventKind::Hit, slot);
        ++s.hits;
      }
      const bool all = a.cached_lo == lo && a.cached_hi == hi;
      ++(all ? counters_.hits : ol < oh ? counters_.partial_hits : counters_.misses);
      next_hint_ = s.next;
      touch(slot);
    }
    counters_.hit_bytes += a.cached_hi - a.cached_lo;
  }
  a.slot = slot;
  last_slot_ = slot;
  insert_outside(slot, lo, hi, a.cached_lo, a.cached_hi);
  return a;
}

std::uint64_t NicDataCache::access_pieces(std::uint32_t file, std::uint32_t block,
                                          const std::uint32_t* bounds, std::size_t pieces) {
  // The first piece as access(file, block, bounds[0], bounds[1], true), without the
  // BlockAccess: only the bytes that were cached matter here.
  const std::uint64_t key = key_of(file, block);
  const std::uint32_t rev = revision(file);
  std::uint32_t slot = lookup(key, rev);
  ++counters_.references;
  const std::uint32_t lo0 = bounds[0], hi0 = bounds[1], end = bounds[pieces];
  if (slot == kNoSlot) {
    // A miss: every piece is inserted whole, each where the one before ended.
    ++counters_.misses;
    slot = allocate(key, rev);
    next_hint_ = kNoSlot;
    last_slot_ = slot;
    Slot& s = slots_[slot];
    s.valid_lo = lo0;
    s.valid_hi = end;
    for (std::size_t i = 0; log_ != nullptr && i < pieces; ++i) log(CacheEventKind::Insert, slot);
    s.insertions += pieces;
    counters_.insertions += pieces;
    counters_.inserted_bytes += end - lo0;
    return 0;
  }
  std::uint64_t cached = 0;
  {
    Slot& s = slots_[slot];
    const auto [ol, oh] = take_range(s, lo0, hi0);
    if (ol < oh) {
      log(CacheEventKind::Hit, slot);
      ++s.hits;
      ++(ol == lo0 && oh == hi0 ? counters_.hits : counters_.partial_hits);
      cached = oh - ol;
      counters_.hit_bytes += cached;
    } else {
      ++counters_.misses;
    }
    next_hint_ = s.next;
    touch(slot);
    last_slot_ = slot;
    insert_outside(slot, lo0, hi0, ol, oh);
  }
  // The later pieces find the block where the first left it: what access() does for them is
  // its found branch without a reference.
  if (pieces < 2) return cached;
  Slot& b = slots_[slot];
  const std::uint32_t lo = bounds[1], hi = end;
  if (b.valid_lo <= lo && b.valid_hi >= hi) {
    // Every later piece was cached: each a hit of all its bytes, the range as it was.
    counters_.hit_bytes += hi - lo;
    return cached + (hi - lo);
  }
  if (b.valid_lo <= lo && b.valid_hi == lo) {
    // Each later piece starts where the cached range ends: inserted whole, the range grows.
    b.valid_hi = hi;
    for (std::size_t i = 1; log_ != nullptr && i < pieces; ++i) log(CacheEventKind::Insert, slot);
    b.insertions += pieces - 1;
    counters_.insertions += pieces - 1;
    counters_.inserted_bytes += hi - lo;
    return cached;
  }
  for (std::size_t i = 1; i < pieces; ++i) {
    const std::uint32_t lo = bounds[i], hi = bounds[i + 1];
    const auto [ol, oh] = take_range(slots_[slot], lo, hi);
    if (ol < oh) {
      counters_.hit_bytes += oh - ol;
      cached += oh - ol;
    }
    insert_outside(slot, lo, hi, ol, oh);
  }
  return cached;
}

std::uint32_t NicDataCache::find(std::uint32_t file, std::uint32_t block) const {
  const std::uint32_t slot = dir_find(key_of(file, block));
  if (slot == kNoSlot || slots_[slot].stale || slots_[slot].revision != revision(file)) {
    return kNoSlot;
  }
  return slot;
}

SlotState NicDataCache::slot_state(std::uint32_t slot) const {
  const Slot& s = slots_[slot];
  SlotState st;
  st.used = s.used;
  st.stale = s.stale || (s.used && s.revision != revision(static_cast<std::uint32_t>(s.key >> 32)));
  st.file = static_cast<std::uint32_t>(s.key >> 32);
  st.block = static_cast<std::uint32_t>(s.key);
  st.revision = s.revision;
  st.valid_lo = s.valid_lo;
  st.valid_hi = s.valid_hi;
  st.frequency = s.frequency;
  st.hits = s.hits;
  st.insertions = s.insertions;
  return st;
}

void NicDataCache::file_modified(std::uint32_t file) { ++revisions_[file]; }

void NicDataCache::file_cache_evicted(std::uint32_t file, std::uint32_t block) {
  const std::uint32_t slot = dir_find(key_of(file, block));
  if (slot != kNoSlot) slots_[slot].stale = true;
  if (file < warm_files_.size()) warm_files_[file].first = kNoSlot;  // its run is not whole
}

// --- a functional warm-up ----------------------------------------------------------------------

void NicDataCache::begin_warm() {
  // From an empty cache only: blocks cached before would be beyond any run's knowledge.
  warming_ = config_.replacement == Replacement::Lru && used_ == 0;
  warm_files_.clear();
}

void NicDataCache::end_warm() {
  if (warming_) {
    for (Slot& s : slots_)
      if (s.used) s.hits += warm_file(s).hits - s.warm_hits_base;
  }
  warming_ = false;
  warm_files_.clear();
  warm_files_.shrink_to_fit();
}

bool NicDataCache::warm_whole_hit(std::uint32_t file, std::uint32_t bytes) {
  if (!warming_ || log_ != nullptr || file >= warm_files_.size()) return false;
  WarmFile& w = warm_files_[file];
  const std::uint32_t blocks = blocks_of(bytes);
  if (w.first == kNoSlot || blocks == 0 || w.blocks != blocks || w.most_blocks != blocks)
    return false;
  const Slot& a = slots_[w.first];
  const Slot& z = slots_[w.last];
  const std::uint32_t last_bytes = bytes - (blocks - 1) * config_.block_bytes;
  // The run as the latest walk left it: its first block still there and current (then so is
  // every block after it), its last block holding what this response asks of it. Every other
  // block is whole: the latest walk asked for all of it.
  if (!a.used || a.stale || a.key != key_of(file, 0) || a.revision != revision(file) || !z.used ||
      z.key != key_of(file, blocks - 1) || z.valid_lo != 0 || z.valid_hi < last_bytes)
    return false;
  // Each block in turn to the tail (Fig 4.4's LRU) is the run moved there as a whole.
  if (w.last != tail_) {
    const std::uint32_t before = a.prev, after = z.next;
    if (before != kNoSlot) {
      slots_[before].next = after;
    } else {
      head_ = after;
    }
    slots_[after].prev = before;
    slots_[tail_].next = w.first;
    slots_[w.first].prev = tail_;
    slots_[w.last].next = kNoSlot;
    tail_ = w.last;
  }
  // Every piece of every block was cached: one reference and one hit per block.
  counters_.references += blocks;
  counters_.hits += blocks;
  counters_.hit_bytes += bytes;
  ++w.hits;
  last_slot_ = w.last;
  next_hint_ = kNoSlot;
  return true;
}

bool NicDataCache::warm_whole_miss(std::uint32_t file, std::uint32_t bytes,
                                   const Segmentation& seg) {
  if (!warming_ || log_ != nullptr || bytes == 0 ||
      (file < warm_files_.size() && warm_files_[file].present != 0))
    return false;
  // No block of the file is here, so none is found: each is a miss, allocated (evicting the
  // policy's victim, which can be one of this walk's own blocks in a file larger than the
  // cache, as in the block walk) and inserted whole, one nic_cache_insert per piece.
  const std::uint32_t rev = revision(file);
  const std::uint64_t bsize = config_.block_bytes;
  // The file offset where the next packet starts (as plan_response_blocks counts pieces).
  std::uint64_t next_packet = seg.segment_bytes - seg.http_header_bytes;
  std::uint32_t block = 0, slot = kNoSlot;
  for (std::uint64_t base = 0; base < bytes; base += bsize, ++block) {
    const std::uint64_t stop = std::min<std::uint64_t>(base + bsize, bytes);
    if (next_packet == base) next_packet += seg.segment_bytes;
    std::uint32_t pieces = 1;
    for (; next_packet < stop; next_packet += seg.segment_bytes) ++pieces;
    slot = allocate(key_of(file, block), rev);
    Slot& s = slots_[slot];
    s.valid_lo = 0;
    s.valid_hi = static_cast<std::uint32_t>(stop - base);
    s.insertions += pieces;
    counters_.insertions += pieces;
    counters_.inserted_bytes += stop - base;
  }
  counters_.references += block;
  counters_.misses += block;
  last_slot_ = slot;
  next_hint_ = kNoSlot;
  return true;
}

void NicDataCache::warm_walked(std::uint32_t file, std::uint32_t bytes) {
  if (!warming_) return;
  const std::uint32_t blocks = blocks_of(bytes);
  if (blocks == 0) return;
  if (file >= warm_files_.size()) warm_files_.resize(file + std::size_t{1});
  WarmFile& w = warm_files_[file];
  w.blocks = blocks;
  w.most_blocks = std::max(w.most_blocks, blocks);
  // The walk moved or brought each block to the tail in turn, so the file is the list's last
  // `blocks` slots, unless it is larger than the cache (its last blocks evicted its first).
  w.first = blocks <= slots() ? dir_find(key_of(file, 0)) : kNoSlot;
  w.last = tail_;
}

// --- Fig 4.12 ----------------------------------------------------------------------------------

namespace {
// The walk of Fig 4.12; without kCommands only the directory is updated (a functional warm-up
// makes the same block accesses and needs no descriptors).
template <bool kCommands>
void walk_response(NicDataCache& cache, const Response& response, const Segmentation& seg,
                   ResponsePlan* plan) {
  plan->commands.clear();
  plan->packets = 0;
  plan->header_bytes = plan->content_bytes = plan->content_from_cache = 0;
  plan->content_inserted = plan->content_from_memory = 0;

  const std::uint64_t bsize = cache.config().block_bytes;
  const std::uint64_t stream = seg.http_header_bytes + response.length;  // TCP payload bytes
  const std::uint64_t packets =
      std::max<std::uint64_t>(1, (stream + seg.segment_bytes - 1) / seg.segment_bytes);
  std::uint64_t file_off = response.offset;
  std::uint64_t left = response.length;
  std::uint64_t last_block = ~0ull;  // the block the previous piece referenced

  auto push = [plan](CacheCommandKind kind, MmSource src, std::uint32_t packet, std::uint64_t len,
                     std::uint64_t ncoffset, std::uint64_t file_offset) {
    CacheCommand c;
    c.kind = kind;
    c.source = src;
    c.packet = packet;
    c.len = static_cast<std::uint32_t>(len);
    c.ncoffset = ncoffset;
    c.file_offset = file_offset;
    if (kCommands) plan->commands.push_back(c);
  };

  for (std::uint64_t p = 0; p < packets; ++p) {
    const std::uint32_t packet = static_cast<std::uint32_t>(p);
    const std::uint64_t http = p == 0 ? seg.http_header_bytes : 0;
    std::uint64_t content = std::min<std::uint64_t>(seg.segment_bytes - http, left);
    // BD 1 of every packet: the headers, never cached (§4.3.3).
    const std::uint64_t hdr = seg.network_header_bytes + http;
    push(CacheCommandKind::AppendMm, MmSource::Headers, packet, hdr, 0, 0);
    if (kCommands) {
      plan->commands.back().first = true;
      plan->commands.back().http_bytes = static_cast<std::uint32_t>(http);
    }
    plan->header_bytes += hdr;
    left -= content;
    plan->content_bytes += content;
    while (content > 0) {
      const std::uint64_t block = file_off / bsize;
      const std::uint32_t in = static_cast<std::uint32_t>(file_off % bsize);
      const std::uint32_t piece = static_cast<std::uint32_t>(std::min(bsize - in, content));
      if (!response.cacheable) {
        push(CacheCommandKind::AppendMm, MmSource::FileContent, packet, piece, 0, file_off);
        plan->content_from_memory += piece;
      } else {
        const bool reference = block != last_block;
        last_block = block;
        const BlockAccess a = cache.access(response.file, static_cast<std::uint32_t>(block), in,
                                           in + piece, reference);
        const std::uint64_t base = static_cast<std::uint64_t>(a.slot) * bsize;
        const std::uint64_t file_base = file_off - in;
        // In file order: [in, cached_lo) inserted, [cached_lo, cached_hi) cached,
        // [cached_hi, in + piece) inserted. Insert, then append what was inserted.
        const std::uint32_t bounds[4] = {in, a.cached_lo, a.cached_hi, in + piece};
        for (int part = 0; part < 3; ++part) {
          const std::uint32_t lo = bounds[part], hi = bounds[part + 1];
          if (lo >= hi) continue;
          if (part != 1) {
            push(CacheCommandKind::Insert, MmSource::FileContent, packet, hi - lo, base + lo,
                 file_base + lo);
            plan->content_inserted += hi - lo;
          } else {
            plan->content_from_cache += hi - lo;
          }
          push(CacheCommandKind::AppendCache, MmSource::None, packet, hi - lo, base + lo, 0);
        }
      }
      file_off += piece;
      content -= piece;
    }
    if (kCommands) plan->commands.back().last = true;
    ++plan->packets;
  }
}
}  // namespace

void plan_response(NicDataCache& cache, const Response& response, const Segmentation& seg,
                   ResponsePlan* plan) {
  walk_response<true>(cache, response, seg, plan);
}

void plan_response_blocks(NicDataCache& cache, const Response& response, const Segmentation& seg,
                          ResponsePlan* plan) {
  if (!response.cacheable) {
    walk_response<false>(cache, response, seg, plan);
    return;
  }
  // The walk of Fig 4.12 block by block: a block's pieces end where it ends or where a packet
  // does, and go to the cache together (the same accesses, one lookup per block).
  plan->commands.clear();
  plan->content_from_memory = 0;
  const std::uint64_t bsize = cache.config().block_bytes;
  const std::uint64_t stream = seg.http_header_bytes + response.length;
  const std::uint64_t packets =
      std::max<std::uint64_t>(1, (stream + seg.segment_bytes - 1) / seg.segment_bytes);
  plan->packets = static_cast<std::uint32_t>(packets);
  plan->header_bytes = packets * seg.network_header_bytes + seg.http_header_bytes;
  plan->content_bytes = response.length;
  std::uint64_t cached = 0;
  // A block's bounds: its start, each packet start inside it, its end. Block sizes are powers
  // of two: a shift, not a 64-bit division per block.
  thread_local std::vector<std::uint32_t> bounds;  // reused, one per thread (api::run's workers)
  const std::size_t most = bsize / seg.segment_bytes + 3;
  if (bounds.size() < most) bounds.resize(most);
  std::uint32_t* const b = bounds.data();
  const int shift = __builtin_ctzll(bsize);
  std::uint64_t pos = response.offset;
  const std::uint64_t end = response.offset + response.length;
  // The file offset where the next packet starts (the first carries the HTTP header). It is
  // never before pos, and at most one segment past it.
  std::uint64_t next_packet = response.offset + seg.segment_bytes - seg.http_header_bytes;
  while (pos < end) {
    const std::uint64_t base = pos >> shift << shift;
    const std::uint64_t block_end = std::min(base + bsize, end);
    // A packet starting where the block does adds no bound: it is the block's first.
    if (next_packet == pos) next_packet += seg.segment_bytes;
    // Offsets within the block, below block_bytes + segment_bytes: 32 bits.
    const std::uint32_t stop = static_cast<std::uint32_t>(block_end - base);
    std::uint32_t cut = static_cast<std::uint32_t>(next_packet - base);
    std::size_t k = 0;
    b[k++] = static_cast<std::uint32_t>(pos - base);
    for (; cut < stop; cut += seg.segment_bytes) b[k++] = cut;
    b[k] = stop;
    next_packet = base + cut;
    cached += cache.access_pieces(response.file, static_cast<std::uint32_t>(base >> shift), b, k);
    pos = block_end;
  }
  plan->content_from_cache = cached;
  plan->content_inserted = response.length - cached;
}

bool warm_response(NicDataCache& cache, std::uint32_t file, std::uint32_t bytes,
                   const Segmentation& seg, ResponsePlan* plan) {
  if (cache.warm_whole_hit(file, bytes)) return true;
  if (!cache.warm_whole_miss(file, bytes, seg))
    plan_response_blocks(cache, Response{file, 0, bytes, true}, seg, plan);
  cache.warm_walked(file, bytes);
  return false;
}

}  // namespace nicsim
