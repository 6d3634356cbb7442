#include "nic/cache/lru_stack.hpp"

#include <algorithm>
#include <cstring>

namespace nicsim {

LruStack lru_stack_distances(const std::vector<WebRequest>& trace, std::uint32_t block_bytes,
                             std::uint32_t nics) {
  LruStack s;
  s.block_bytes = block_bytes;
  s.nics = nics;
  const std::size_t n = trace.size();
  std::uint32_t max_file = 0;
  for (const WebRequest& r : trace) max_file = std::max(max_file, r.file);
  // Per file, within the NIC's share: its latest request (tree index, 0 = none yet) and size.
  std::vector<std::uint32_t> last(n == 0 ? 0 : static_cast<std::size_t>(max_file) + 1);
  std::vector<std::uint32_t> bytes(last.size());
  s.distance.assign(n, kLruNever);
  std::vector<std::uint64_t> tree;  // Fenwick tree; unsigned wrap-around keeps sums exact
  for (std::uint32_t nic = 0; nic < nics; ++nic) {
    std::fill(last.begin(), last.end(), 0u);
    const std::size_t m = n > nic ? (n - nic + nics - 1) / nics : 0;
    tree.assign(m + 1, 0);
    auto add = [&tree, m](std::size_t at, std::uint64_t v) {
      for (; at <= m; at += at & (~at + 1)) tree[at] += v;
    };
    auto prefix = [&tree](std::size_t at) {
      std::uint64_t sum = 0;
      for (; at > 0; at -= at & (~at + 1)) sum += tree[at];
      return sum;
    };
    std::uint64_t total = 0;  // blocks of the distinct files requested so far
    std::uint32_t at = 0;     // tree index of this request (1-based)
    for (std::size_t i = nic; i < n; i += nics) {
      ++at;
      const WebRequest& r = trace[i];
      const std::uint64_t k = (static_cast<std::uint64_t>(r.bytes) + block_bytes - 1) / block_bytes;
      const std::uint32_t prev = last[r.file];
      if (prev != 0) {
        if (bytes[r.file] != r.bytes) {
          s.distance.clear();  // see the header: per-size simulation only
          return s;
        }
        // The distinct other files since: everything after the file's previous request.
        const std::uint64_t d = k + (total - prefix(prev));
        s.distance[i] = d < kLruNever ? static_cast<std::uint32_t>(d) : kLruNever;
        add(prev, ~k + 1);  // minus k: the file moves to the top of the stack
        total -= k;
      }
      add(at, k);
      total += k;
      last[r.file] = at;
      bytes[r.file] = r.bytes;
    }
  }
  s.applies = true;
  return s;
}

CacheSimResult lru_stack_result(const LruStack& stack, const std::vector<WebRequest>& trace,
                                const CacheSimConfig& config) {
  CacheSimResult result;
  const std::uint64_t slots = config.cache.capacity_bytes / config.cache.block_bytes;
  const std::uint64_t bsize = config.cache.block_bytes;
  result.nics.resize(config.nics);
  std::uint64_t whole_hits = 0;
  for (std::uint32_t nic = 0; nic < config.nics; ++nic) {
    CacheSimNicResult& out = result.nics[nic];
    CacheCounters& c = out.counters;
    // Blocks allocated (misses) before warm-up ends and in all: each takes a slot, the free
    // ones first, then the LRU victim's.
    std::uint64_t allocated_at_warmup = 0, allocated = 0;
    for (std::size_t i = nic; i < trace.size(); i += config.nics) {
      const WebRequest& r = trace[i];
      const std::uint64_t k = (r.bytes + bsize - 1) / bsize;
      const bool hit = stack.distance[i] <= slots;
      if (!hit) allocated += k;
      if (i < config.warmup_requests) {
        if (!hit) allocated_at_warmup += k;
        continue;
      }
      ++out.requests;
      out.content_bytes += r.bytes;
      c.references += k;
      if (hit) {
        out.cached_bytes += r.bytes;
        c.hits += k;
        c.hit_bytes += r.bytes;
        if (r.bytes > 0) ++whole_hits;
      } else {
        c.misses += k;
        c.insertions += k;
        c.inserted_bytes += r.bytes;
      }
    }
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

std::shared_ptr<const LruStack> LruStackCache::get(const std::vector<WebRequest>& trace,
                                                   std::uint32_t block_bytes, std::uint32_t nics) {
  auto same = [&trace](const std::vector<WebRequest>& held) {
    return held.size() == trace.size() &&
           (trace.empty() ||
            std::memcmp(held.data(), trace.data(), trace.size() * sizeof(WebRequest)) == 0);
  };
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (e.stack->block_bytes != block_bytes || e.stack->nics != nics || !same(e.trace)) continue;
    Entry hit = std::move(entries_[i]);
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
    entries_.push_back(std::move(hit));
    return entries_.back().stack;
  }
  auto stack = std::make_shared<const LruStack>(lru_stack_distances(trace, block_bytes, nics));
  if (trace.size() > max_requests_) return stack;
  entries_.push_back({trace, stack});
  std::uint64_t held = 0;
  for (const Entry& e : entries_) held += e.trace.size();
  while (held > max_requests_) {
    held -= entries_.front().trace.size();
    entries_.erase(entries_.begin());
  }
  return stack;
}

LruStackCache& shared_lru_stack_cache() {
  static LruStackCache cache;
  return cache;
}

bool run_cache_sim_one_pass(const std::vector<WebRequest>& trace, const CacheSimConfig& config,
                            CacheSimResult* out) {
  if (config.cache.replacement != Replacement::Lru || config.max_events > 0) return false;
  const std::shared_ptr<const LruStack> stack =
      shared_lru_stack_cache().get(trace, config.cache.block_bytes, config.nics);
  if (!stack->applies) return false;
  *out = lru_stack_result(*stack, trace, config);
  return true;
}

}  // namespace nicsim
