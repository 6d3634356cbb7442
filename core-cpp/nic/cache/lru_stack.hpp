// LRU in one pass over a trace: the stack distances of Mattson, Gecsei, Slutz and Traiger,
// "Evaluation techniques for storage hierarchies" (IBM Systems Journal, 1970), §"Stack
// processing". LRU is a stack algorithm: a cache of C blocks holds exactly the C most recently
// referenced blocks, so a reference hits iff its stack distance (1 + the distinct blocks
// referenced since the block's previous reference) is at most C. One pass gives every request's
// distance; the hit ratio of any cache size is then a count.
//
// The cache-only simulator (cache_sim.hpp) references a request's blocks 0..k-1 in order, each
// one slot whatever its length, with no bypass (a file larger than the cache is inserted block by
// block and pushes its own first blocks out) and no invalidation. When every request for a file
// (within one NIC's share of the trace) has the same size, all k blocks of a request have the
// same distance: k + the blocks of the distinct other files requested since the file's previous
// request (a file's blocks after block j and before it fill the rest of the stack above block j).
// So a request is all hit or all miss, and its distance in blocks is a sum of file sizes in
// blocks. When a file's size changes, a block's cached byte range depends on the cache size (the
// NIC keeps one range per block, see NicDataCache::access), so such traces are simulated per size.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "nic/cache/cache_sim.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {

// Stack distances of one trace for one block size and NIC count.
struct LruStack {
  std::uint32_t block_bytes = 0;
  std::uint32_t nics = 1;
  // False when some file's response size changes within a NIC's share: then `distance` is empty
  // and only per-size simulation is exact.
  bool applies = false;
  // Per request, in blocks, within its NIC's share (request i goes to NIC i % nics); kNever for
  // a file's first request there (and for 0-byte requests, which reference no block).
  std::vector<std::uint32_t> distance;
};
constexpr std::uint32_t kLruNever = 0xFFFFFFFFu;  // above any cache's slot count

// The one pass: O(log n) per request (a Fenwick tree over request positions holds, at each
// file's latest request, that file's size in blocks).
LruStack lru_stack_distances(const std::vector<WebRequest>& trace, std::uint32_t block_bytes,
                             std::uint32_t nics);

// What run_cache_sim(trace, config) gives with LRU, from the distances: every count and rate,
// and per NIC every counter; no events and no slot states. `stack` must apply and match
// config's block size and NIC count; `config` must pass validate() with max_events = 0.
CacheSimResult lru_stack_result(const LruStack& stack, const std::vector<WebRequest>& trace,
                                const CacheSimConfig& config);

// Distances kept per (trace content, block size, NIC count), so a sweep over cache sizes makes
// one pass per trace. A pure function of its key (results do not depend on what ran before);
// the least recently used entries go once more than `max_requests` requests are held, and a
// trace longer than that is not kept. Each entry holds a copy of its trace as the key.
class LruStackCache {
 public:
  explicit LruStackCache(std::uint64_t max_requests = 4000000) : max_requests_(max_requests) {}
  std::shared_ptr<const LruStack> get(const std::vector<WebRequest>& trace,
                                      std::uint32_t block_bytes, std::uint32_t nics);
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::vector<WebRequest> trace;
    std::shared_ptr<const LruStack> stack;
  };
  std::uint64_t max_requests_;
  std::vector<Entry> entries_;  // most recently used last
};
// The process's cache (single-threaded: the CLI, the tests, one wasm worker).
LruStackCache& shared_lru_stack_cache();

// run_cache_sim's numbers for LRU without events, in one pass per trace (shared_lru_stack_cache);
// false (and `out` untouched) where only per-size simulation is exact: LFU, FIFO, events asked
// for, or a file whose size changes.
bool run_cache_sim_one_pass(const std::vector<WebRequest>& trace, const CacheSimConfig& config,
                            CacheSimResult* out);

}  // namespace nicsim
