#include "nic/cache/lru_stack.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace nicsim {

namespace {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;
// chosen: how many requests ahead a request's file record is prefetched (its tree node a
// quarter of that): enough misses in flight to cover a memory latency at this loop's pace.
constexpr std::size_t kAhead = 16;

// From a cache of `slots` slots up, a block holds its first `bytes` bytes. A block's holdings
// rise in both; none means the whole block at every size.
struct Holding {
  std::uint32_t slots;
  std::uint32_t bytes;
};
using Holdings = std::vector<Holding>;
const Holdings kWholeBlock;

// One stair of a file's staircase (within a NIC's share): the request at tree index `at` is the
// latest to reference the file's blocks from the next newer stair's `blocks` up to its own.
struct Stair {
  std::uint32_t at = 0;
  std::uint32_t blocks = 0;
  std::uint32_t older = kNone;
  // The bytes its last block holds at every cache size (the whole block, or the first bytes
  // when its holdings are those bytes from 0 slots up), else 0: the common case at a glance.
  std::uint32_t last_bytes = 0;
};

// The holding of `held` at a cache of `slots` slots.
std::size_t holding_at(const Holdings& held, std::uint32_t slots) {
  std::size_t i = 0;
  while (i + 1 < held.size() && held[i + 1].slots <= slots) ++i;
  return i;
}

// A reference asking for the first `ask` bytes of a block that is found from `d` slots up and
// held `held` before (NicDataCache::access: what it holds of them is served, the rest inserted).
void reference(std::uint32_t d, std::uint32_t ask, const Holdings& held,
               std::vector<LruStackStep>* steps) {
  if (held.empty()) {
    steps->push_back({d, 1, 1, ask});
    return;
  }
  std::size_t i = holding_at(held, d);
  std::uint32_t bytes = std::min(ask, held[i].bytes);
  bool whole = held[i].bytes >= ask;
  steps->push_back({d, 1, whole ? 1u : 0u, bytes});
  for (++i; i < held.size() && !whole; ++i) {
    const std::uint32_t more = std::min(ask, held[i].bytes);
    whole = held[i].bytes >= ask;
    steps->push_back({held[i].slots, 0, whole ? 1u : 0u, more - bytes});
    bytes = more;
  }
}

// What the block holds after that reference: the bytes asked for where it was missing (inserted
// afresh), and those joined with what it held where it was found.
void after_reference(std::uint32_t d, std::uint32_t ask, const Holdings& held,
                     std::uint32_t block_bytes, Holdings* out) {
  out->clear();
  if (ask == block_bytes) return;
  out->push_back({0, ask});
  if (d == kLruNever) return;
  if (held.empty()) {
    out->push_back({d, block_bytes});
    return;
  }
  for (std::size_t i = holding_at(held, d); i < held.size(); ++i) {
    const std::uint32_t bytes = std::max(ask, held[i].bytes);
    if (bytes > out->back().bytes) out->push_back({std::max(d, held[i].slots), bytes});
  }
}

// log2 of a power of two.
unsigned shift_of(std::uint64_t power) {
  unsigned s = 0;
  while ((std::uint64_t{1} << s) < power) ++s;
  return s;
}

// A NIC's share of the trace: a Fenwick tree over its requests holding, at each, the number of
// blocks whose latest reference it is (unsigned wrap-around keeps the sums exact). Node i sums
// positions i .. i + lowbit(i) - 1, so the blocks referenced since a request are a walk up from
// it that stops at the latest request (every node past it is empty), and adding at a position
// walks down over nodes that start at or before it: both stay near the recent requests, where
// most references fall, rather than reach across the whole tree.
struct Share {
  std::vector<std::uint64_t> tree;
  std::uint32_t at = 0;  // tree index of the latest request (1-based)
  // Per file: its newest stair, and a copy of what the common case reads of it (the stair's
  // own `at` is brought up to date only when the general path needs it), so a file asked for
  // again at its size costs one look-up here and none in the stairs.
  struct Newest {
    std::uint32_t stair = kNone;
    std::uint32_t at = 0;
    std::uint32_t blocks = 0;
    std::uint32_t last_bytes = 0;
  };
  std::vector<Newest> newest;
  void add(std::size_t i, std::uint64_t v) {
    for (; i > 0; i &= i - 1) tree[i] += v;
  }
  // v blocks whose latest reference moves from position `from` to `to`: the two walks down meet
  // at the nodes that start at or before both, which keep their sum, so only the nodes short of
  // that are touched (a few for a file referenced again soon).
  void move(std::size_t from, std::size_t to, std::uint64_t v) {
    if (from == to) return;
    // They meet where both have shed every bit up to the highest one in which they differ; each
    // walk alone down to there (two loop exits to predict, not a coin toss at every node).
    const unsigned high = 63u - static_cast<unsigned>(__builtin_clzll(from ^ to));
    const std::size_t meet = from & (~std::size_t{0} << high << 1);
    for (; to != meet; to &= to - 1) tree[to] += v;
    for (; from != meet; from &= from - 1) tree[from] -= v;
  }
  // The blocks whose latest reference is at or after position i.
  std::uint64_t since(std::size_t i) const {
    std::uint64_t sum = 0;
    for (; i <= at; i += i & (~i + 1)) sum += tree[i];
    return sum;
  }
};

}  // namespace

LruStack lru_stack_distances(const std::vector<WebRequest>& trace, std::uint32_t block_bytes,
                             std::uint32_t nics) {
  LruStack s;
  s.block_bytes = block_bytes;
  s.nics = nics;
  const std::size_t n = trace.size();
  s.first.assign(n + 1, 0);
  std::uint32_t files = 0;
  for (const WebRequest& r : trace) files = std::max(files, r.file + 1);
  std::vector<Share> shares(nics);
  for (std::uint32_t nic = 0; nic < nics; ++nic) {
    shares[nic].tree.assign((n > nic ? (n - nic + nics - 1) / nics : 0) + 1, 0);
    shares[nic].newest.assign(files, {});
  }
  std::vector<Stair> stairs;
  std::vector<Holdings> lasts;  // per stair: what its last block holds since that request (none:
                                // the whole block)
  std::vector<std::uint32_t> spare;
  struct Passed {
    std::uint32_t stair;
    std::uint32_t d;  // the distance of its blocks
  };
  std::vector<Passed> passed;
  std::vector<LruStackStep> mine;
  Holdings last_after;
  s.steps.reserve(n);
  const unsigned shift = shift_of(block_bytes);
  for (std::size_t i = 0, nic = 0; i < n; ++i, nic = nic + 1 == nics ? 0 : nic + 1) {
    // The trace is known ahead, so the two dependent loads of a request (its file's newest
    // stair, the tree node its walk starts from) are asked for ahead of it, the second once the
    // first has arrived: the pass waits on memory, not on arithmetic.
    // (WebAssembly has no prefetch: there the look-ups would be work for nothing.)
#ifndef __EMSCRIPTEN__
    if (i + kAhead < n) {
      __builtin_prefetch(&shares[(i + kAhead) % nics].newest[trace[i + kAhead].file]);
      const Share& c = shares[(i + kAhead / 4) % nics];
      __builtin_prefetch(&c.tree[c.newest[trace[i + kAhead / 4].file].at]);
    }
#endif
    s.first[i] = static_cast<std::uint32_t>(s.steps.size());
    Share& sh = shares[nic];
    const std::uint32_t at = ++sh.at;
    const WebRequest& r = trace[i];
    const std::uint32_t k = static_cast<std::uint32_t>(
        (static_cast<std::uint64_t>(r.bytes) + block_bytes - 1) >> shift);
    if (k == 0) continue;
    const std::uint32_t ask_last = r.bytes - (k - 1) * block_bytes;

    // The common case, a file asked for at the size it was last asked for: its blocks are one
    // stair whose last block holds just what is asked, so all k are found together from the
    // stair's distance up and nothing but the stair's request changes (the general steps below
    // give the same).
    Share::Newest& newest = sh.newest[r.file];
    if (newest.stair != kNone && newest.blocks == k && newest.last_bytes == ask_last) {
      const std::uint64_t d = sh.since(newest.at);
      s.steps.push_back(
          {d < kLruNever ? static_cast<std::uint32_t>(d) : kLruNever, k, k, r.bytes, 1});
      sh.move(newest.at, at, k);
      newest.at = at;
      continue;
    }
    if (newest.stair != kNone) stairs[newest.stair].at = newest.at;

    // The stairs holding blocks 0..k-1, each block's distance the blocks referenced at or after
    // its stair's request (its file's own newer blocks included), before anything moves.
    passed.clear();
    for (std::uint32_t st = newest.stair, below = 0; st != kNone && below < k;
         st = stairs[st].older) {
      const std::uint64_t d = sh.since(stairs[st].at);
      passed.push_back({st, d < kLruNever ? static_cast<std::uint32_t>(d) : kLruNever});
      below = stairs[st].blocks;
    }

    // Each block's reference; blocks past the last stair are new (no step: never found).
    mine.clear();
    bool last_seen = false;
    std::uint32_t lo = 0;
    for (const Passed& p : passed) {
      const Stair& st = stairs[p.stair];
      const std::uint32_t hi = std::min(st.blocks, k);
      const bool has_last = hi == k;  // block k-1, maybe short
      const Holdings& last = lasts[p.stair];
      const bool short_held = !last.empty() && st.blocks < k;  // block st.blocks-1
      const std::uint32_t plain = hi - lo - (has_last ? 1 : 0) - (short_held ? 1 : 0);
      if (plain > 0) mine.push_back({p.d, plain, plain, plain * block_bytes});
      if (short_held) reference(p.d, block_bytes, last, &mine);
      if (has_last) {
        const Holdings& held = st.blocks == k ? last : kWholeBlock;
        reference(p.d, ask_last, held, &mine);
        after_reference(p.d, ask_last, held, block_bytes, &last_after);
        last_seen = true;
      }
      lo = hi;
    }
    if (!last_seen) after_reference(kLruNever, ask_last, kWholeBlock, block_bytes, &last_after);
    std::sort(mine.begin(), mine.end(),
              [](const LruStackStep& a, const LruStackStep& b) { return a.slots < b.slots; });
    for (const LruStackStep& m : mine) {
      if (s.steps.size() > s.first[i] && s.steps.back().slots == m.slots) {
        LruStackStep& b = s.steps.back();
        b.found += m.found;
        b.whole += m.whole;
        b.bytes += m.bytes;
      } else {
        s.steps.push_back(m);
      }
    }
    std::uint64_t served = 0;
    for (std::size_t e = s.first[i]; e < s.steps.size(); ++e) {
      served += s.steps[e].bytes;
      if (served == r.bytes) {
        s.steps[e].done = 1;
        break;
      }
    }

    // Blocks 0..k-1 move to this request: the stairs it covers go, the next one is cut.
    std::uint32_t st = newest.stair;
    for (std::uint32_t below = 0; st != kNone;) {
      Stair& x = stairs[st];
      if (x.blocks > k) {
        sh.add(x.at, ~static_cast<std::uint64_t>(k - below) + 1);
        break;
      }
      sh.add(x.at, ~static_cast<std::uint64_t>(x.blocks - below) + 1);
      below = x.blocks;
      spare.push_back(st);
      st = x.older;
    }
    std::uint32_t mine_stair;
    if (!spare.empty()) {
      mine_stair = spare.back();
      spare.pop_back();
    } else {
      mine_stair = static_cast<std::uint32_t>(stairs.size());
      stairs.emplace_back();
      lasts.emplace_back();
    }
    Stair& x = stairs[mine_stair];
    x.at = at;
    x.blocks = k;
    x.older = st;
    std::swap(lasts[mine_stair], last_after);  // buffers go round, not reallocated
    const Holdings& last = lasts[mine_stair];
    x.last_bytes = last.empty() ? block_bytes : last.size() == 1 ? last[0].bytes : 0;
    sh.add(at, k);
    newest = {mine_stair, at, k, x.last_bytes};
  }
  s.first[n] = static_cast<std::uint32_t>(s.steps.size());
  return s;
}

namespace {

// Buckets of slot counts: one a count below 256, then 128 a doubling (each count's top 8 bits),
// so a bucket above 256 spans less than 1/128 of its counts and holds few steps.
constexpr std::uint32_t kExactSlots = 256;
constexpr std::uint32_t kBuckets = kExactSlots + (32 - 8) * 128;
std::uint32_t bucket_of(std::uint32_t slots) {
  if (slots < kExactSlots) return slots;
  const unsigned top = 31u - static_cast<unsigned>(__builtin_clz(slots));  // 8 .. 31
  return kExactSlots + (top - 8) * 128 + ((slots >> (top - 7)) & 127u);
}

}  // namespace

LruStackSums lru_stack_sums(const LruStack& stack, const std::vector<WebRequest>& trace,
                            std::uint64_t warmup_requests) {
  LruStackSums sums;
  sums.warmup_requests = warmup_requests;
  sums.requests = trace.size();
  const std::uint32_t nics = stack.nics;
  const std::size_t parts = 2 * std::size_t{nics};
  sums.below.assign(parts * kBuckets, {});
  sums.head.assign(parts * kBuckets, kNone);
  sums.next.assign(stack.steps.size(), kNone);
  sums.blocks.assign(parts, 0);
  sums.bytes.assign(parts, 0);
  const unsigned shift = shift_of(stack.block_bytes);
  const std::uint64_t bsize = stack.block_bytes;
  const std::size_t warm_end = std::min<std::size_t>(trace.size(), warmup_requests);
  // Each bucket's own sums first (in `below`, one bucket up), then running sums.
  LruStackSums::Sums* below = sums.below.data();
  std::uint32_t* head = sums.head.data();
  std::uint32_t* next = sums.next.data();
  const LruStackStep* steps = stack.steps.data();
  const std::uint32_t* first = stack.first.data();
  for (std::size_t part = 0; part < parts; ++part) {
    // NIC part / 2's requests (every nics-th) in the warm-up, or after it.
    const std::size_t nic = part / 2;
    std::size_t i = part % 2 == 0 ? nic : warm_end + (nic + nics - warm_end % nics) % nics;
    const std::size_t end = part % 2 == 0 ? warm_end : trace.size();
    LruStackSums::Sums* b = below + part * kBuckets;
    std::uint32_t* h = head + part * kBuckets;
    std::uint64_t blocks = 0, bytes = 0;
    for (; i < end; i += nics) {
      blocks += (trace[i].bytes + bsize - 1) >> shift;
      bytes += trace[i].bytes;
      for (std::uint32_t e = first[i]; e < first[i + 1]; ++e) {
        const LruStackStep& step = steps[e];
        const std::uint32_t bucket = bucket_of(step.slots);
        if (bucket >= kExactSlots) {  // a bucket of one slot count is never walked
          next[e] = h[bucket];
          h[bucket] = e;
          if (bucket + 1 == kBuckets) continue;  // no bucket above to count it in
        }
        b[bucket + 1].add(step);
      }
    }
    sums.blocks[part] = blocks;
    sums.bytes[part] = bytes;
  }
  for (std::size_t part = 0; part < parts; ++part) {
    LruStackSums::Sums* b = &sums.below[part * kBuckets];
    for (std::uint32_t k = 1; k < kBuckets; ++k) b[k].add(b[k - 1]);
  }
  return sums;
}

CacheSimResult lru_stack_result(const LruStack& stack, const LruStackSums& sums,
                                const CacheSimConfig& config) {
  CacheSimResult result;
  const std::uint64_t slots = config.cache.capacity_bytes / config.cache.block_bytes;
  // Every step counts from a cache this large up (kLruNever's too, as a count compares).
  const std::uint32_t bucket =
      bucket_of(static_cast<std::uint32_t>(std::min<std::uint64_t>(slots, kLruNever)));
  // Part p's sums of the steps found with `slots` slots: the buckets below, then the steps of
  // the one it falls in.
  auto found_in = [&](std::size_t part) {
    // A bucket of one slot count is all in: the sums below the next one.
    if (bucket < kExactSlots) return sums.below[part * kBuckets + bucket + 1];
    LruStackSums::Sums s = sums.below[part * kBuckets + bucket];
    for (std::uint32_t e = sums.head[part * kBuckets + bucket]; e != kNone; e = sums.next[e]) {
      const LruStackStep& step = stack.steps[e];
      if (step.slots <= slots) s.add(step);
    }
    return s;
  };
  const std::size_t n = sums.requests;
  result.nics.resize(config.nics);
  std::uint64_t whole_hits = 0;
  for (std::uint32_t nic = 0; nic < config.nics; ++nic) {
    CacheSimNicResult& out = result.nics[nic];
    CacheCounters& c = out.counters;
    // Blocks allocated (the misses) before warm-up ends and in all: each takes a slot, a free
    // one while there is one, else the LRU victim's.
    const std::size_t warm_end = std::min<std::size_t>(n, config.warmup_requests);
    // The NIC's first request after warm-up.
    const std::size_t after =
        warm_end <= nic ? nic
                        : warm_end + (nic + config.nics - warm_end % config.nics) % config.nics;
    const LruStackSums::Sums warm = found_in(2 * nic);
    const std::uint64_t allocated_at_warmup = sums.blocks[2 * nic] - warm.found;
    const LruStackSums::Sums counted = found_in(2 * nic + 1);
    const std::uint64_t blocks = sums.blocks[2 * nic + 1];
    out.requests = after < n ? (n - after + config.nics - 1) / config.nics : 0;
    out.content_bytes = sums.bytes[2 * nic + 1];
    whole_hits += counted.done;
    const std::uint64_t allocated = allocated_at_warmup + blocks - counted.found;
    out.cached_bytes = counted.bytes;
    c.references = blocks;
    c.hits = counted.whole;
    c.partial_hits = counted.found - counted.whole;
    c.misses = blocks - counted.found;
    c.insertions = blocks - counted.whole;  // a miss, or the missing end of a found block
    c.hit_bytes = counted.bytes;
    c.inserted_bytes = out.content_bytes - counted.bytes;
    auto evicted = [slots](std::uint64_t a) { return a > slots ? a - slots : 0; };
    c.evictions = evicted(allocated) - evicted(allocated_at_warmup);
  }

  // As run_cache_sim adds them up.
  std::uint64_t hits = 0, references = 0;
  for (std::uint32_t n = 0; n < config.nics; ++n) {
    const CacheSimNicResult& out = result.nics[n];
    result.requests += out.requests;
    result.content_bytes += out.content_bytes;
    result.cached_bytes += out.cached_bytes;
    result.insertions += out.counters.insertions;
    result.evictions += out.counters.evictions;
    result.invalidations += out.counters.invalidations;
    hits += out.counters.hits;
    references += out.counters.references;
  }
  if (result.content_bytes > 0) {
    result.content_traffic_reduction =
        static_cast<double>(result.cached_bytes) / static_cast<double>(result.content_bytes);
  }
  if (references > 0) result.block_hit_rate = static_cast<double>(hits) / references;
  if (result.requests > 0)
    result.request_hit_rate = static_cast<double>(whole_hits) / result.requests;
  return result;
}

CacheSimResult lru_stack_result(const LruStack& stack, const std::vector<WebRequest>& trace,
                                const CacheSimConfig& config) {
  return lru_stack_result(stack, lru_stack_sums(stack, trace, config.warmup_requests), config);
}

LruStackCache::Entry* LruStackCache::find_or_add(
    const std::vector<WebRequest>& trace, std::uint32_t block_bytes, std::uint32_t nics,
    std::shared_ptr<const std::vector<WebRequest>> shared,
    std::shared_ptr<const LruStack>* unkept) {
  auto same = [&trace](const std::vector<WebRequest>& held) {
    return &held == &trace ||
           (held.size() == trace.size() &&
            (trace.empty() ||
             std::memcmp(held.data(), trace.data(), trace.size() * sizeof(WebRequest)) == 0));
  };
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (e.stack->block_bytes != block_bytes || e.stack->nics != nics || !same(*e.trace)) continue;
    Entry hit = std::move(entries_[i]);
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
    entries_.push_back(std::move(hit));
    return &entries_.back();
  }
  auto stack = std::make_shared<const LruStack>(lru_stack_distances(trace, block_bytes, nics));
  if (trace.size() > max_requests_) {
    *unkept = std::move(stack);
    return nullptr;
  }
  if (shared.get() != &trace) shared = std::make_shared<const std::vector<WebRequest>>(trace);
  entries_.push_back({std::move(shared), std::move(stack), nullptr});
  std::uint64_t held = 0;
  for (const Entry& e : entries_) held += e.trace->size();
  while (held > max_requests_) {  // never the new entry: it alone is within the limit
    held -= entries_.front().trace->size();
    entries_.erase(entries_.begin());
  }
  return &entries_.back();
}

std::shared_ptr<const LruStack> LruStackCache::get(
    const std::vector<WebRequest>& trace, std::uint32_t block_bytes, std::uint32_t nics,
    std::shared_ptr<const std::vector<WebRequest>> shared) {
  std::shared_ptr<const LruStack> unkept;
  const Entry* e = find_or_add(trace, block_bytes, nics, std::move(shared), &unkept);
  return e != nullptr ? e->stack : unkept;
}

std::shared_ptr<const LruStackSums> LruStackCache::sums(
    const std::vector<WebRequest>& trace, std::uint32_t block_bytes, std::uint32_t nics,
    std::uint64_t warmup_requests, std::shared_ptr<const LruStack>* stack,
    std::shared_ptr<const std::vector<WebRequest>> shared) {
  std::shared_ptr<const LruStack> unkept;
  Entry* e = find_or_add(trace, block_bytes, nics, std::move(shared), &unkept);
  if (e == nullptr) {
    *stack = unkept;
    return std::make_shared<const LruStackSums>(lru_stack_sums(*unkept, trace, warmup_requests));
  }
  *stack = e->stack;
  if (e->sums == nullptr || e->sums->warmup_requests != warmup_requests)
    e->sums =
        std::make_shared<const LruStackSums>(lru_stack_sums(*e->stack, trace, warmup_requests));
  return e->sums;
}

LruStackCache& shared_lru_stack_cache() {
  thread_local LruStackCache cache;  // one per thread, as one per worker in the browser
  return cache;
}

bool run_cache_sim_one_pass(const std::vector<WebRequest>& trace, const CacheSimConfig& config,
                            CacheSimResult* out,
                            std::shared_ptr<const std::vector<WebRequest>> shared) {
  LruStackCache& cache = shared_lru_stack_cache();
  if (config.cache.replacement != Replacement::Lru || config.max_events > 0 ||
      !cache.keeps(trace.size()))
    return false;
  std::shared_ptr<const LruStack> stack;
  const std::shared_ptr<const LruStackSums> sums =
      cache.sums(trace, config.cache.block_bytes, config.nics, config.warmup_requests, &stack,
                 std::move(shared));
  *out = lru_stack_result(*stack, *sums, config);
  return true;
}

}  // namespace nicsim
