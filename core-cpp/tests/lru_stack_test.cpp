// LRU in one pass (nic/cache/lru_stack.hpp) gives exactly the cache-only simulator's numbers,
// whether files keep their size or not.
#include "nic/cache/lru_stack.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "nic/cache/cache_sim.hpp"
#include "sim/rng.hpp"
#include "test_util.hpp"
#include "workload/access_log.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {
namespace {

void expect_same_counters(const CacheCounters& a, const CacheCounters& b, const std::string& at) {
  EXPECT_EQ(a.references, b.references) << at;
  EXPECT_EQ(a.hits, b.hits) << at;
  EXPECT_EQ(a.partial_hits, b.partial_hits) << at;
  EXPECT_EQ(a.misses, b.misses) << at;
  EXPECT_EQ(a.insertions, b.insertions) << at;
  EXPECT_EQ(a.evictions, b.evictions) << at;
  EXPECT_EQ(a.invalidations, b.invalidations) << at;
  EXPECT_EQ(a.hit_bytes, b.hit_bytes) << at;
  EXPECT_EQ(a.inserted_bytes, b.inserted_bytes) << at;
}

// Every number the simulator reports but its events and slot states; rates bit for bit.
void expect_same(const CacheSimResult& sim, const CacheSimResult& one, const std::string& at) {
  EXPECT_EQ(sim.requests, one.requests) << at;
  EXPECT_EQ(sim.content_bytes, one.content_bytes) << at;
  EXPECT_EQ(sim.cached_bytes, one.cached_bytes) << at;
  EXPECT_EQ(sim.content_traffic_reduction, one.content_traffic_reduction) << at;
  EXPECT_EQ(sim.block_hit_rate, one.block_hit_rate) << at;
  EXPECT_EQ(sim.request_hit_rate, one.request_hit_rate) << at;
  EXPECT_EQ(sim.insertions, one.insertions) << at;
  EXPECT_EQ(sim.evictions, one.evictions) << at;
  EXPECT_EQ(sim.invalidations, one.invalidations) << at;
  ASSERT_EQ(sim.nics.size(), one.nics.size()) << at;
  for (std::size_t n = 0; n < sim.nics.size(); ++n) {
    const std::string nic = at + " nic " + std::to_string(n);
    EXPECT_EQ(sim.nics[n].requests, one.nics[n].requests) << nic;
    EXPECT_EQ(sim.nics[n].content_bytes, one.nics[n].content_bytes) << nic;
    EXPECT_EQ(sim.nics[n].cached_bytes, one.nics[n].cached_bytes) << nic;
    expect_same_counters(sim.nics[n].counters, one.nics[n].counters, nic);
  }
}

CacheSimConfig lru(std::uint64_t capacity, std::uint32_t block, std::uint32_t nics,
                   std::uint64_t warmup) {
  CacheSimConfig c;
  c.cache.capacity_bytes = capacity;
  c.cache.block_bytes = block;
  c.nics = nics;
  c.warmup_requests = warmup;
  return c;
}

std::string where(const char* trace, const CacheSimConfig& c) {
  return std::string(trace) + " " + std::to_string(c.cache.capacity_bytes) + " B, " +
         std::to_string(c.cache.block_bytes) + " B blocks, " + std::to_string(c.nics) +
         " NIC(s), warm-up " + std::to_string(c.warmup_requests);
}

// The slots from which request i is found, when it has one step (all its blocks together).
std::uint32_t distance(const LruStack& s, std::size_t i) {
  if (s.first[i] == s.first[i + 1]) return kLruNever;
  EXPECT_EQ(s.first[i + 1] - s.first[i], 1u) << "request " << i;
  return s.steps[s.first[i]].slots;
}

TEST(LruStack, DistancesAreBlocksOfTheDistinctFilesBetween) {
  // Files 0 (2 blocks), 1 (1 block), 2 (3 blocks) with 4 KB blocks.
  const std::vector<WebRequest> t = {{0, 8000}, {1, 100}, {0, 8000}, {2, 9000},
                                     {1, 100},  {1, 100}, {2, 9000}, {0, 8000}};
  const LruStack s = lru_stack_distances(t, 4096, 1);
  const std::vector<std::uint32_t> want = {kLruNever, kLruNever, 2 + 1, kLruNever,
                                           1 + 3 + 2, 1,         3 + 1, 2 + 1 + 3};
  for (std::size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(distance(s, i), want[i]) << "request " << i;
    if (want[i] == kLruNever) continue;
    // A file that keeps its size is found whole or not at all.
    const LruStackStep& step = s.steps[s.first[i]];
    const std::uint32_t k = (t[i].bytes + 4095) / 4096;
    EXPECT_EQ(step.found, k);
    EXPECT_EQ(step.whole, k);
    EXPECT_EQ(step.bytes, t[i].bytes);
  }
  // Two NICs: each sees every other request.
  const LruStack two = lru_stack_distances(t, 4096, 2);
  const std::vector<std::uint32_t> want2 = {kLruNever, kLruNever, 2,         kLruNever,
                                            kLruNever, 1 + 3,     kLruNever, kLruNever};
  for (std::size_t i = 0; i < t.size(); ++i) EXPECT_EQ(distance(two, i), want2[i]) << i;
}

TEST(LruStack, AFileThatChangesSizeIsFoundInPartsBySize) {
  // File 0 at 1000, 400, then 1000 bytes (one 4 KB block). With one slot the 400-byte request
  // misses (file 1 came between) and leaves bytes 0..400 in the slot, so the last request finds
  // 400 of its 1000; with two slots the block kept all 1000.
  const std::vector<WebRequest> t = {{0, 1000}, {1, 50}, {0, 400}, {0, 1000}};
  const LruStack s = lru_stack_distances(t, 4096, 1);
  ASSERT_EQ(s.first[3] - s.first[2], 1u);
  const LruStackStep a = s.steps[s.first[2]];
  EXPECT_EQ(a.slots, 2u);
  EXPECT_EQ(a.whole, 1u);
  EXPECT_EQ(a.bytes, 400u);
  ASSERT_EQ(s.first[4] - s.first[3], 2u);
  const LruStackStep b = s.steps[s.first[3]], c = s.steps[s.first[3] + 1];
  EXPECT_EQ(b.slots, 1u);
  EXPECT_EQ(b.found, 1u);
  EXPECT_EQ(b.whole, 0u);
  EXPECT_EQ(b.bytes, 400u);
  EXPECT_EQ(c.slots, 2u);
  EXPECT_EQ(c.found, 0u);
  EXPECT_EQ(c.whole, 1u);
  EXPECT_EQ(c.bytes, 600u);
  for (std::uint64_t slots : {1, 2, 3}) {
    const CacheSimConfig c = lru(slots * 4096, 4096, 1, 0);
    expect_same(run_cache_sim(t, c), lru_stack_result(s, t, c), "resized file");
  }
}

TEST(LruStack, OnlyLruWithoutEventsIsOnePass) {
  const std::vector<WebRequest> t = {{0, 1000}, {1, 50}, {0, 1000}};
  CacheSimResult r;
  CacheSimConfig c = lru(8192, 4096, 1, 0);
  EXPECT_TRUE(run_cache_sim_one_pass(t, c, &r));
  c.max_events = 10;
  EXPECT_FALSE(run_cache_sim_one_pass(t, c, &r));
  c.max_events = 0;
  for (Replacement p : {Replacement::Lfu, Replacement::Fifo}) {
    c.cache.replacement = p;
    EXPECT_FALSE(run_cache_sim_one_pass(t, c, &r)) << replacement_name(p);
  }
}

TEST(LruStack, EqualsPerSizeSimulationOnRandomStreams) {
  // Small caches against files of up to 40 blocks: many files larger than the cache, which
  // flush it and never hit; skewed popularity so that some requests do hit. Half the rounds
  // give files several sizes (a short block here, a whole one there, more blocks or fewer), as
  // an access log does.
  Rng rng(7);
  for (int round = 0; round < 60; ++round) {
    const std::uint32_t files = 1 + static_cast<std::uint32_t>(rng.below(60));
    const std::uint32_t block = 512u << rng.below(4);
    const bool resized = round % 2 == 1;
    std::vector<std::vector<std::uint32_t>> sizes(files);
    for (auto& f : sizes) {
      const std::uint64_t n = resized ? 1 + rng.below(4) : 1;
      for (std::uint64_t j = 0; j < n; ++j) {
        const std::uint64_t blocks = 1 + rng.below(rng.below(2) == 0 ? 4 : 40);
        // Whole blocks, or a short last block of any length.
        f.push_back(static_cast<std::uint32_t>(
            rng.below(3) == 0 ? blocks * block : (blocks - 1) * block + 1 + rng.below(block - 1)));
      }
    }
    std::vector<WebRequest> t(200 + rng.below(2000));
    for (auto& r : t) {
      const std::uint32_t f = static_cast<std::uint32_t>(rng.below(rng.below(files) + 1));
      r = {f * 7 + 3, sizes[f][rng.below(sizes[f].size())]};  // sparse file ids
    }
    for (std::uint32_t nics : {1u, 2u}) {
      const LruStack stack = lru_stack_distances(t, block, nics);
      for (std::uint64_t slots : {1, 2, 3, 5, 8, 13, 40, 41, 100, 1000}) {
        for (std::uint64_t warmup : {std::uint64_t{0}, std::uint64_t{t.size() / 3}}) {
          const CacheSimConfig c = lru(slots * block, block, nics, warmup);
          expect_same(run_cache_sim(t, c), lru_stack_result(stack, t, c),
                      where(("random round " + std::to_string(round)).c_str(), c));
        }
      }
    }
  }
}

TEST(LruStack, EqualsPerSizeSimulationAtEveryCacheSizeAcrossItsBuckets) {
  // The sums look cache sizes up by bucket (one a slot count below 256, then 128 a doubling)
  // and walk the steps of the bucket a size falls in: every slot count from 250 to 1100 crosses
  // the exact buckets' end and many buckets' edges, with distances spread over all of them.
  Rng rng(5);
  std::vector<WebRequest> t(6000);
  for (auto& r : t) {
    const std::uint32_t f = static_cast<std::uint32_t>(rng.below(rng.below(3000) + 1));
    r = {f, 1 + (f * 2654435761u) % 9000};  // one to three 4 KB blocks, the same every time
  }
  for (std::uint32_t nics : {1u, 2u}) {
    const LruStack stack = lru_stack_distances(t, 4096, nics);
    const LruStackSums sums = lru_stack_sums(stack, t, 1500);
    for (std::uint64_t slots = 250; slots <= 1100; ++slots) {
      const CacheSimConfig c = lru(slots * 4096, 4096, nics, 1500);
      expect_same(run_cache_sim(t, c), lru_stack_result(stack, sums, c), where("spread", c));
    }
  }
}

TEST(LruStack, EqualsPerSizeSimulationOnAnAccessLog) {
  // A Common Log Format log where files come back at other sizes (partial transfers, edits).
  std::string text;
  Rng rng(11);
  for (int i = 0; i < 3000; ++i) {
    const std::uint64_t f = rng.below(rng.below(200) + 1);
    const std::uint64_t bytes = 100 + (f * 7919) % 60000 - (rng.below(8) == 0 ? rng.below(90) : 0);
    text += "h - - [01/Jul/1995:00:00:01 -0400] \"GET /f" + std::to_string(f) +
            ".html HTTP/1.0\" 200 " + std::to_string(bytes) + "\n";
  }
  const AccessLog log = parse_access_log(text);
  ASSERT_EQ(log.requests.size(), 3000u);
  for (std::uint32_t nics : {1u, 2u}) {
    const LruStack stack = lru_stack_distances(log.requests, 4096, nics);
    for (std::uint64_t kb : {16, 64, 256, 1024}) {
      const CacheSimConfig c = lru(kb << 10, 4096, nics, 500);
      expect_same(run_cache_sim(log.requests, c), lru_stack_result(stack, log.requests, c),
                  where("access log", c));
    }
  }
}

TEST(LruStack, EqualsPerSizeSimulationOnTheGeneratedTraces) {
  // The five traces of Table 4.1 as the presets scale them, at cache sizes from below the
  // largest file (64 KB) to 16 MB, with one and two NICs and 512 B and 4 KB blocks.
  for (WebTraceId id : kWebTraces) {
    WebTraceConfig tc;
    tc.trace = id;
    tc.requests = 30000;
    const WebTrace trace = generate_web_trace(tc);
    const std::uint32_t largest =
        *std::max_element(trace.file_bytes.begin(), trace.file_bytes.end());
    for (std::uint32_t block : {512u, 4096u}) {
      for (std::uint32_t nics : {1u, 2u}) {
        const LruStack stack = lru_stack_distances(trace.requests, block, nics);
        for (std::uint64_t kb : {64, 256, 1024, 4096, 16384}) {
          const CacheSimConfig c = lru(kb << 10, block, nics, 6000);
          if (kb == 64) {
            EXPECT_LT(c.cache.capacity_bytes, largest) << web_trace_name(id);
          }
          expect_same(run_cache_sim(trace.requests, c), lru_stack_result(stack, trace.requests, c),
                      where(web_trace_name(id), c));
        }
      }
    }
  }
}

TEST(LruStack, TheKeptDistancesDoNotDependOnWhatRanBefore) {
  // A cache that holds one trace at a time, asked in two orders: the same numbers as the
  // simulator every time.
  std::vector<std::vector<WebRequest>> traces;
  for (WebTraceId id : {WebTraceId::Rice, WebTraceId::WorldCup}) {
    WebTraceConfig tc;
    tc.trace = id;
    tc.requests = 5000;
    traces.push_back(generate_web_trace(tc).requests);
  }
  struct Point {
    std::size_t trace;
    std::uint64_t kb;
    std::uint32_t nics;
  };
  std::vector<Point> points;
  for (std::size_t t = 0; t < traces.size(); ++t) {
    for (std::uint64_t kb : {64, 1024, 16384}) {
      for (std::uint32_t nics : {1u, 2u}) points.push_back({t, kb, nics});
    }
  }
  EXPECT_TRUE(LruStackCache(6000).keeps(5000));
  EXPECT_FALSE(LruStackCache(6000).keeps(6001));  // such a trace is simulated per size
  for (int order = 0; order < 2; ++order) {
    LruStackCache cache(6000);
    if (order == 1) std::reverse(points.begin(), points.end());
    for (const Point& p : points) {
      const CacheSimConfig c = lru(p.kb << 10, 4096, p.nics, 1000);
      const auto stack = cache.get(traces[p.trace], 4096, p.nics);
      expect_same(run_cache_sim(traces[p.trace], c), lru_stack_result(*stack, traces[p.trace], c),
                  where(p.trace == 0 ? "rice" : "worldcup", c));
      EXPECT_LE(cache.size(), 1u);
    }
  }
}

TEST(LruStack, ASharedTraceIsKeptWithoutACopyAndFoundAgain) {
  const auto t = std::make_shared<const std::vector<WebRequest>>(
      std::vector<WebRequest>{{0, 1000}, {1, 50}, {0, 1000}});
  LruStackCache cache(100);
  const auto stack = cache.get(*t, 4096, 1, t);
  EXPECT_EQ(t.use_count(), 2);                  // held as it is, not copied
  EXPECT_EQ(cache.get(*t, 4096, 1, t), stack);  // found by identity
  const std::vector<WebRequest> same(*t);
  EXPECT_EQ(cache.get(same, 4096, 1), stack);  // and by content
  EXPECT_NE(cache.get(same, 4096, 2), stack);  // another NIC count is another pass
  EXPECT_EQ(cache.size(), 2u);
}

TEST(LruStack, ASweepGivesThePointsInAnyOrder) {
  // The cache-only preset through the API: the same sweep with its cache sizes in both orders.
  using testing::preset;
  Json doc = Json::parse(preset("web-cache-sizes"), nullptr, false);
  doc["workload"]["trace_requests"] = 20000;
  doc["workload"]["warmup_requests"] = 2000;
  doc.erase("reference");
  doc.erase("tour");
  doc["sweep"]["values"] = Json::array({64, 512, 16384});
  const Json up = testing::run_ok(dump_json(doc));
  doc["sweep"]["values"] = Json::array({16384, 512, 64});
  const Json down = testing::run_ok(dump_json(doc));
  ASSERT_EQ(up["sweep"].size(), 15u);
  ASSERT_EQ(down["sweep"].size(), 15u);
  for (std::size_t i = 0; i < 15; ++i) {
    const std::size_t j = (i / 3) * 3 + 2 - i % 3;
    EXPECT_EQ(up["sweep"][i]["value"], down["sweep"][j]["value"]);
    EXPECT_EQ(dump_json(up["sweep"][i]["results"]), dump_json(down["sweep"][j]["results"])) << i;
  }
}

}  // namespace
}  // namespace nicsim
