#include "nic/cache/cache_sim.hpp"

#include <algorithm>

namespace nicsim {

Errors validate(const CacheSimConfig& c, const std::string& prefix) {
  Errors errors = validate(c.cache, prefix);
  if (c.nics != 1 && c.nics != 2) {
    errors.push_back({prefix + ".nics", "must be 1 or 2 (two independent caches, thesis §4.2)"});
  }
  if (c.max_events > kMaxCacheSimEvents) {
    errors.push_back({prefix + ".max_events",
                      "must be a whole number in 0.." + std::to_string(kMaxCacheSimEvents)});
  }
  return errors;
}

namespace {

CacheCounters minus(const CacheCounters& a, const CacheCounters& b) {
  CacheCounters d;
  d.references = a.references - b.references;
  d.hits = a.hits - b.hits;
  d.partial_hits = a.partial_hits - b.partial_hits;
  d.misses = a.misses - b.misses;
  d.insertions = a.insertions - b.insertions;
  d.evictions = a.evictions - b.evictions;
  d.invalidations = a.invalidations - b.invalidations;
  d.hit_bytes = a.hit_bytes - b.hit_bytes;
  d.inserted_bytes = a.inserted_bytes - b.inserted_bytes;
  return d;
}

}  // namespace

CacheSimResult run_cache_sim(const std::vector<WebRequest>& trace, const CacheSimConfig& config) {
  CacheSimResult result;
  std::vector<NicDataCache> caches;
  caches.reserve(config.nics);
  std::vector<CacheCounters> at_warmup(config.nics);
  result.nics.resize(config.nics);
  for (std::uint32_t i = 0; i < config.nics; ++i) {
    caches.emplace_back(config.cache);
    if (config.max_events > 0) {
      caches[i].set_event_log(&result.events, config.max_events, static_cast<std::uint8_t>(i));
    }
  }

  const std::uint32_t bsize = config.cache.block_bytes;
  std::uint64_t whole_hits = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (i == config.warmup_requests) {
      for (std::uint32_t n = 0; n < config.nics; ++n) at_warmup[n] = caches[n].counters();
    }
    const WebRequest& r = trace[i];
    const std::uint32_t nic = static_cast<std::uint32_t>(i % config.nics);
    NicDataCache& cache = caches[nic];
    cache.set_request(static_cast<std::uint32_t>(i));
    // Each block of the file once, in order: the same references plan_response makes.
    std::uint64_t cached = 0;
    for (std::uint32_t left = r.bytes, block = 0; left > 0; ++block) {
      const std::uint32_t len = std::min(left, bsize);
      const BlockAccess a = cache.access(r.file, block, 0, len);
      cached += a.cached_hi - a.cached_lo;
      left -= len;
    }
    if (i < config.warmup_requests) continue;
    CacheSimNicResult& out = result.nics[nic];
    ++out.requests;
    out.content_bytes += r.bytes;
    out.cached_bytes += cached;
    if (r.bytes > 0 && cached == r.bytes) ++whole_hits;
  }

  std::uint64_t hits = 0, references = 0;
  for (std::uint32_t n = 0; n < config.nics; ++n) {
    CacheSimNicResult& out = result.nics[n];
    out.counters = trace.size() > config.warmup_requests ? minus(caches[n].counters(), at_warmup[n])
                                                         : CacheCounters{};
    out.slots.resize(caches[n].slots());
    for (std::uint32_t s = 0; s < caches[n].slots(); ++s) out.slots[s] = caches[n].slot_state(s);
    result.requests += out.requests;
    result.content_bytes += out.content_bytes;
    result.cached_bytes += out.cached_bytes;
    result.insertions += out.counters.insertions;
    result.evictions += out.counters.evictions;
    result.invalidations += out.counters.invalidations;
    hits += out.counters.hits;
    references += out.counters.references;
    result.events_truncated = result.events_truncated || caches[n].events_truncated();
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

}  // namespace nicsim
