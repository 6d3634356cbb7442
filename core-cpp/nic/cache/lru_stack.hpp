// LRU in one pass over a trace: the stack distances of Mattson, Gecsei, Slutz and Traiger,
// "Evaluation techniques for storage hierarchies" (IBM Systems Journal, 1970), §"Stack
// processing". LRU is a stack algorithm: a cache of C blocks holds exactly the C most recently
// referenced blocks, so a reference hits iff its stack distance (1 + the distinct blocks
// referenced since the block's previous reference) is at most C. One pass gives every request's
// distance; the hit ratio of any cache size is then a count.
//
// The cache-only simulator (cache_sim.hpp) references a request's blocks 0..k-1 in order, each
// one slot whatever its length, with no bypass (a file larger than the cache is inserted block by
// block and pushes its own first blocks out) and no invalidation. The distance of block j is then
// the number of blocks whose latest reference is at or after the request that last referenced
// block j: when every request for a file has the same size, k + the blocks of the distinct other
// files requested since the file's previous request, the same for all k blocks, so a request is
// all hit or all miss. A file whose size changes references a prefix of its blocks each time, so
// its blocks' latest references form a staircase (blocks 0..k-1 at the latest request, the
// blocks up to a larger k at an older one, ...); each stair is one weight in a Fenwick tree over
// request positions. The bytes a found block serves also depend on the cache size: the NIC keeps
// one byte range per block, grown by each reference and reset by each insertion (NicDataCache::
// access), so a block whose last bytes were a short last block carries, by cache size, what it
// holds. Each request's result is a few steps in the cache size, kept in order.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "nic/cache/cache_sim.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {

// From a cache of `slots` slots up, a request finds `found` more of its blocks, `whole` more
// of them with every byte asked for, and serves `bytes` more bytes from the cache.
struct LruStackStep {
  std::uint32_t slots = 0;
  std::uint32_t found = 0;
  std::uint32_t whole = 0;
  std::uint32_t bytes = 0;
  std::uint32_t done = 0;  // 1: from here up, every byte asked for is served from the cache
};

// The stack distances of one trace for one block size and NIC count, as steps per request.
struct LruStack {
  std::uint32_t block_bytes = 0;
  std::uint32_t nics = 1;
  // Request i (within its NIC's share, i % nics) has steps[first[i] .. first[i + 1]), in rising
  // slots; none for a request whose blocks are all new, or that has no bytes.
  std::vector<std::uint32_t> first;
  std::vector<LruStackStep> steps;
};
constexpr std::uint32_t kLruNever = 0xFFFFFFFFu;  // above any cache's slot count

// The one pass: O(log n) per stair a request passes (one per request when files keep their size).
LruStack lru_stack_distances(const std::vector<WebRequest>& trace, std::uint32_t block_bytes,
                             std::uint32_t nics);

// A stack's steps summed by cache size, for one warm-up: what a cache size's numbers need, in a
// lookup and a walk through a few steps, not a pass over the trace at every size. Per NIC and
// part (its warm-up, then its counted requests), the steps fall in buckets by slots (one a slot
// count below 256, then 128 a doubling); each bucket has the sums of every step below it and
// a chain through its own steps, which a cache size inside the bucket walks.
struct LruStackSums {
  struct Sums {
    std::uint64_t found = 0;
    std::uint64_t whole = 0;
    std::uint64_t bytes = 0;
    std::uint64_t done = 0;
    template <class S>  // a step, or other sums
    void add(const S& s) {
      found += s.found;
      whole += s.whole;
      bytes += s.bytes;
      done += s.done;
    }
  };
  std::uint64_t warmup_requests = 0;
  std::uint64_t requests = 0;  // the trace's
  // Part p (NIC n's warm-up 2n, its counted requests 2n + 1) and bucket b at p * kBuckets + b.
  std::vector<Sums> below;            // the part's steps in lower buckets
  std::vector<std::uint32_t> head;    // a step of the bucket (none: empty)
  std::vector<std::uint32_t> next;    // per step: the next one of its bucket (none: the last)
  std::vector<std::uint64_t> blocks;  // per part: the blocks its requests ask for
  std::vector<std::uint64_t> bytes;   // ... and their bytes
};
LruStackSums lru_stack_sums(const LruStack& stack, const std::vector<WebRequest>& trace,
                            std::uint64_t warmup_requests);

// What run_cache_sim(trace, config) gives with LRU, from the distances: every count and rate,
// and per NIC every counter; no events and no slot states. `stack` must match config's
// block size and NIC count, `sums` its stack and config's warm-up; `config` must pass validate().
CacheSimResult lru_stack_result(const LruStack& stack, const LruStackSums& sums,
                                const CacheSimConfig& config);
// The same, summing the stack for config's warm-up first.
CacheSimResult lru_stack_result(const LruStack& stack, const std::vector<WebRequest>& trace,
                                const CacheSimConfig& config);

// Distances kept per (trace content, block size, NIC count), so a sweep over cache sizes makes
// one pass per trace. A pure function of its key (results do not depend on what ran before);
// the least recently used entries go once more than `max_requests` requests are held, and a
// trace longer than that is not kept. Each entry holds its trace as the key: the owner's when
// shared (see get), else a copy.
class LruStackCache {
 public:
  // chosen: about 35 bytes a request held (the trace, its steps, their chains by cache size):
  // 105 MB at most, room for the five scaled traces of a Fig 4.3 sweep (4 x 600,000 and Rice's
  // 245,820, so the main run's trace is still held when the sweep comes back to it) or one full
  // NASA trace.
  explicit LruStackCache(std::uint64_t max_requests = 3000000) : max_requests_(max_requests) {}
  // `shared`, when given, is `trace` as its owner holds it, unchanging (a generated trace): kept
  // as the key without a copy and found again by identity.
  std::shared_ptr<const LruStack> get(
      const std::vector<WebRequest>& trace, std::uint32_t block_bytes, std::uint32_t nics,
      std::shared_ptr<const std::vector<WebRequest>> shared = nullptr);
  // The stack's sums for a warm-up, kept with it (one warm-up at a time).
  std::shared_ptr<const LruStackSums> sums(
      const std::vector<WebRequest>& trace, std::uint32_t block_bytes, std::uint32_t nics,
      std::uint64_t warmup_requests, std::shared_ptr<const LruStack>* stack,
      std::shared_ptr<const std::vector<WebRequest>> shared = nullptr);
  std::size_t size() const { return entries_.size(); }
  bool keeps(std::size_t requests) const { return requests <= max_requests_; }

 private:
  struct Entry {
    std::shared_ptr<const std::vector<WebRequest>> trace;  // the owner's, or a copy
    std::shared_ptr<const LruStack> stack;
    std::shared_ptr<const LruStackSums> sums;  // for the latest warm-up asked for, or none
  };
  // The entry for the key, most recently used now; null for a trace too long to keep, whose
  // stack is `*unkept`.
  Entry* find_or_add(const std::vector<WebRequest>& trace, std::uint32_t block_bytes,
                     std::uint32_t nics, std::shared_ptr<const std::vector<WebRequest>> shared,
                     std::shared_ptr<const LruStack>* unkept);
  std::uint64_t max_requests_;
  std::vector<Entry> entries_;  // most recently used last
};
// The calling thread's cache (one per thread: api::run's workers natively, one wasm worker).
LruStackCache& shared_lru_stack_cache();

// run_cache_sim's numbers for LRU without events, in one pass per trace (shared_lru_stack_cache);
// false (and `out` untouched) for LFU and FIFO, simulated per size (FIFO is no stack algorithm,
// and this LFU forgets a block's count when it leaves), when events are asked for, and for a
// trace too long to keep (its pass would be made again at every size, in more memory than one
// simulation takes).
bool run_cache_sim_one_pass(const std::vector<WebRequest>& trace, const CacheSimConfig& config,
                            CacheSimResult* out,
                            std::shared_ptr<const std::vector<WebRequest>> shared = nullptr);

}  // namespace nicsim
