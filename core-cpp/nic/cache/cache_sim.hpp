// The fast cache-only mode: the trace-driven cache simulator behind the thesis Figs 4.3-4.5
// (§4.2). It "simply plays back a web trace and determines what portion, if any, of each
// successive requested file is currently in the cache", counting partially cached files, with
// one cache or two independent caches that the trace is split across evenly (two NICs, the
// dashed lines). No time, no packets: each request references its file's blocks in order
// through the same NicDataCache the packet path (plan_response) uses, so both agree byte for
// byte on whole-file responses. With LRU, lru_stack.hpp gives the same numbers for every cache
// size from one pass over the trace; this simulator stays for LFU, FIFO and the event log.
//
// Warm-up: the thesis counts every request from an empty cache (no warm-up is described), so
// warmup_requests defaults to 0. A scaled-down trace may want one: the cold start costs about
// one cache's worth of misses, which is negligible against a full trace but not a tiny one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nic/cache/nic_data_cache.hpp"
#include "sim/status.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {

struct CacheSimConfig {
  NicCacheConfig cache;               // per NIC
  std::uint32_t nics = 1;             // 1, or 2 independent caches (§4.2, Fig 4.3 dashed lines)
  std::uint64_t warmup_requests = 0;  // not counted (0 = as the thesis)
  std::uint32_t max_events = 0;       // cache events kept for a grid-of-blocks view (0 = none)
};
constexpr std::uint32_t kMaxCacheSimEvents = 1000000;
Errors validate(const CacheSimConfig& c, const std::string& prefix = "cache");

struct CacheSimNicResult {
  std::uint64_t requests = 0;  // counted requests this NIC served
  std::uint64_t content_bytes = 0;
  std::uint64_t cached_bytes = 0;  // content served from the NIC cache
  CacheCounters counters;          // counted part of the run
  std::vector<SlotState> slots;    // each slot at the end (hits, insertions over the run)
};

struct CacheSimResult {
  std::uint64_t requests = 0;            // counted (after warm-up)
  std::uint64_t content_bytes = 0;       // HTTP response content of the counted requests
  std::uint64_t cached_bytes = 0;        // ... of which served from a NIC cache
  double content_traffic_reduction = 0;  // cached_bytes / content_bytes (Figs 4.3-4.5)
  double block_hit_rate = 0;             // hits / block references
  double request_hit_rate = 0;           // requests served entirely from the cache
  std::uint64_t insertions = 0;
  std::uint64_t evictions = 0;
  std::uint64_t invalidations = 0;
  std::vector<CacheSimNicResult> nics;
  std::vector<CacheEvent> events;  // the first max_events, over the whole run (warm-up too)
  bool events_truncated = false;
};

// Requests go to NIC (index % nics): the trace split evenly. `config` must pass validate().
CacheSimResult run_cache_sim(const std::vector<WebRequest>& trace, const CacheSimConfig& config);

}  // namespace nicsim
