// The web workload's cache-only mode (the thesis §4.2, Figs 4.3-4.5): a trace of Table 4.1 (or
// the user's access log) played through one or two NIC data caches, with no time and no
// packets. For the views, request i is placed at i µs: the trace window selects requests, and
// each request's block hits, insertions and evictions are recorded at its time.
#include <algorithm>

#include "api/system.hpp"
#include "nic/cache/cache_sim.hpp"
#include "nic/cache/lru_stack.hpp"
#include "scenario/scenario.hpp"
#include "trace/trace_kinds.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {

RunOutput run_web_cache_only(const Config& cfg, bool with_trace) {
  RunOutput out;
  auto add = [&](const char* name, double value) { add_metric(&out, name, value); };

  const WebRequests source(cfg);
  const std::vector<WebRequest>* requests = source.list();
  if (requests == nullptr) {
    out.fault = "web cache-only: no access log to replay";
    return out;
  }

  const bool cached = cfg.nic_cache.capacity_bytes > 0;
  const Time us = kUs;
  // Requests in the trace window: [first, last].
  const std::uint64_t first = static_cast<std::uint64_t>(cfg.run.trace_start / us);
  const std::uint64_t last = static_cast<std::uint64_t>(cfg.run.trace_end / us);
  CacheSimResult r;
  if (cached) {
    CacheSimConfig sc;
    sc.cache = cfg.nic_cache;
    sc.nics = static_cast<std::uint32_t>(cfg.nics);
    sc.warmup_requests = cfg.workload.warmup_requests;
    // LRU's numbers come from one pass per trace, shared by every cache size (lru_stack.hpp).
    const bool one_pass = run_cache_sim_one_pass(*requests, sc, &r, source.shared());
    // Events are kept from the first request on; enough for a window that opens early.
    if (with_trace)
      sc.max_events = static_cast<std::uint32_t>(std::min<std::int64_t>(
          cfg.run.trace_max_records, static_cast<std::int64_t>(kMaxCacheSimEvents)));
    if (!one_pass) {
      r = run_cache_sim(*requests, sc);
    } else if (sc.max_events > 0) {
      // The window's events: the requests up to its end replay as the start of the full run.
      const std::size_t play =
          static_cast<std::size_t>(std::min<std::uint64_t>(last, requests->size() - 1) + 1);
      if (play >= requests->size()) {
        r.events = run_cache_sim(*requests, sc).events;
      } else {
        const std::vector<WebRequest> head(requests->begin(),
                                           requests->begin() + static_cast<std::ptrdiff_t>(play));
        r.events = run_cache_sim(head, sc).events;
      }
    }
  } else {
    for (std::size_t i = cfg.workload.warmup_requests; i < requests->size(); ++i) {
      ++r.requests;
      r.content_bytes += (*requests)[i].bytes;
    }
  }

  const TraceSummary summary = source.summary();
  add("content_traffic_reduction", r.content_traffic_reduction);
  add("cache_block_hit_rate", r.block_hit_rate);
  add("cache_request_hit_rate", r.request_hit_rate);
  add("cache_insertions", static_cast<double>(r.insertions));
  add("cache_evictions", static_cast<double>(r.evictions));
  add("cache_slots",
      cached ? static_cast<double>(cfg.nic_cache.capacity_bytes / cfg.nic_cache.block_bytes) : 0.0);
  add("web_requests", static_cast<double>(r.requests));
  add("web_content_mb", static_cast<double>(r.content_bytes) / 1e6);
  add("web_cached_mb", static_cast<double>(r.cached_bytes) / 1e6);
  add("web_distinct_files", static_cast<double>(summary.distinct_files));
  add("web_data_set_mb", static_cast<double>(summary.data_set_bytes) / 1e6);
  add("web_average_response_bytes", summary.average_response_bytes);
  if (!out.fault.empty()) return out;

  out.trace_start = cfg.run.trace_start;
  out.trace_end = cfg.run.trace_end;
  if (!with_trace) return out;
  // Each request, then its cache events, at the request's µs.
  const std::uint64_t cap = static_cast<std::uint64_t>(cfg.run.trace_max_records);
  std::size_t ev = 0;
  RecordId last_id = 0;
  for (std::uint64_t i = first; i <= last && i < requests->size(); ++i) {
    while (ev < r.events.size() && r.events[ev].request < i) ++ev;
    std::size_t end = ev;
    std::uint32_t found = 0;
    while (end < r.events.size() && r.events[end].request == i) {
      if (r.events[end].kind == CacheEventKind::Hit) ++found;
      ++end;
    }
    const WebRequest& q = (*requests)[i];
    const unsigned nic = static_cast<unsigned>(i % static_cast<std::uint64_t>(cfg.nics));
    const Time t = static_cast<Time>(i) * us;
    // Ids as TraceRecorder gives them: in the order made; a request causes its block events.
    const RecordId request_id = ++last_id;
    if (out.trace.size() + 1 + (end - ev) > cap) {
      out.trace_dropped += 1 + (end - ev);
      last_id += static_cast<RecordId>(end - ev);
      ev = end;
      continue;
    }
    out.trace.push_back(make_record(t, component_id(Component::HostCpu),
                                    rec::WebRequest()
                                        .request(static_cast<std::uint32_t>(i))
                                        .file(q.file)
                                        .content_bytes(q.bytes)
                                        .nic(nic)
                                        .blocks_found(found),
                                    request_id));
    for (; ev < end; ++ev) {
      const CacheEvent& e = r.events[ev];
      out.trace.push_back(
          make_record(t, component_id(Component::Nic, e.nic),
                      rec::NicCacheBlock().slot(e.slot).file(e.file).block(e.block).what(
                          static_cast<std::uint32_t>(e.kind)),
                      ++last_id, request_id));
    }
  }
  return out;
}

}  // namespace nicsim
