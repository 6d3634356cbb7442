// The NIC data cache of the thesis Ch.4: replacement policies against hand-worked sequences,
// lazy invalidation and inclusion, the commands of Fig 4.12, byte conservation, and the
// cache-only simulator against the thesis's content-traffic reductions (Table 4.4, Figs
// 4.3-4.5) on the synthetic traces of Table 4.1.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "nic/cache/cache_sim.hpp"
#include "nic/cache/nic_data_cache.hpp"
#include "sim/rng.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {
namespace {

NicCacheConfig tiny(Replacement r, std::uint32_t slots, std::uint32_t block = 512) {
  NicCacheConfig c;
  c.block_bytes = block;
  c.capacity_bytes = std::uint64_t{slots} * block;
  c.replacement = r;
  return c;
}

// "kind slot file.block" for each event, e.g. "insert 0 1.0".
std::vector<std::string> describe(const std::vector<CacheEvent>& events) {
  std::vector<std::string> out;
  for (const CacheEvent& e : events) {
    out.push_back(std::string(cache_event_name(e.kind)) + " " + std::to_string(e.slot) + " " +
                  std::to_string(e.file) + "." + std::to_string(e.block));
  }
  return out;
}

// Whole-block references to block 0 of each file in `files`.
std::vector<std::string> run_sequence(Replacement r, std::uint32_t slots,
                                      const std::vector<std::uint32_t>& files) {
  NicDataCache cache(tiny(r, slots));
  std::vector<CacheEvent> log;
  cache.set_event_log(&log, 1000);
  for (std::uint32_t f : files) cache.access(f, 0, 0, 512);
  return describe(log);
}

using Events = std::vector<std::string>;

// --- replacement policies, hand-worked ---------------------------------------------------------

TEST(NicCacheReplacement, LruEvictsTheLeastRecentlyUsedBlock) {
  // 3 slots; A B C fill slots 0 1 2; A is used again, so D evicts B (the least recent),
  // and B then evicts C.
  const Events want = {"insert 0 1.0", "insert 1 2.0", "insert 2 3.0", "hit 0 1.0",
                       "evict 1 2.0",  "insert 1 4.0", "evict 2 3.0",  "insert 2 2.0"};
  EXPECT_EQ(run_sequence(Replacement::Lru, 3, {1, 2, 3, 1, 4, 2}), want);
}

TEST(NicCacheReplacement, FifoEvictsTheOldestInsertionWhateverItsUse) {
  // The hit on A does not save it: D evicts A, the first in; B is still cached.
  const Events want = {"insert 0 1.0", "insert 1 2.0", "insert 2 3.0", "hit 0 1.0",
                       "evict 0 1.0",  "insert 0 4.0", "hit 1 2.0"};
  EXPECT_EQ(run_sequence(Replacement::Fifo, 3, {1, 2, 3, 1, 4, 2}), want);
}

TEST(NicCacheReplacement, LfuEvictsTheLeastFrequentlyUsedWithTiesLeastRecent) {
  // A and B are used twice, C once: D evicts C. D (once) is then the victim for C again.
  // Among equal frequencies the least recently referenced goes first: E evicts A (freq 2,
  // referenced before B).
  const Events want = {"insert 0 1.0", "insert 1 2.0", "insert 2 3.0", "hit 0 1.0",
                       "hit 1 2.0",    "evict 2 3.0",  "insert 2 4.0", "evict 2 4.0",
                       "insert 2 3.0", "hit 2 3.0",    "evict 0 1.0",  "insert 0 5.0"};
  EXPECT_EQ(run_sequence(Replacement::Lfu, 3, {1, 2, 3, 1, 2, 4, 3, 3, 5}), want);
}

TEST(NicCacheReplacement, LfuCountsReferencesSinceInsertion) {
  // A is used 3 times, then evicted only after everything else with fewer uses has gone;
  // once re-inserted it starts again from one use (in-cache LFU).
  NicDataCache cache(tiny(Replacement::Lfu, 2));
  for (int i = 0; i < 3; ++i) cache.access(1, 0, 0, 512);
  cache.access(2, 0, 0, 512);
  cache.access(3, 0, 0, 512);  // evicts 2 (1 use), not 1 (3 uses)
  EXPECT_NE(cache.find(1, 0), NicDataCache::kNoSlot);
  EXPECT_EQ(cache.find(2, 0), NicDataCache::kNoSlot);
  EXPECT_EQ(cache.slot_state(cache.find(1, 0)).frequency, 3u);
  EXPECT_EQ(cache.slot_state(cache.find(3, 0)).frequency, 1u);
}

TEST(NicCacheReplacement, PoliciesAgreeOnCountsOverALongRandomSequence) {
  // Every policy keeps its books: hits + partial + misses = references, used slots never
  // exceed capacity, and each insertion of a new block beyond capacity evicts exactly one.
  for (Replacement r : {Replacement::Lru, Replacement::Lfu, Replacement::Fifo}) {
    NicDataCache cache(tiny(r, 64));
    Rng rng(7);
    std::uint64_t new_blocks = 0;
    for (int i = 0; i < 20000; ++i) {
      const auto f = static_cast<std::uint32_t>(rng.below(200));
      const auto b = static_cast<std::uint32_t>(rng.below(3));
      if (!cache.access(f, b, 0, 512).found) ++new_blocks;
      ASSERT_LE(cache.used_slots(), 64u);
    }
    const CacheCounters& c = cache.counters();
    EXPECT_EQ(c.hits + c.partial_hits + c.misses, c.references) << replacement_name(r);
    EXPECT_EQ(c.evictions, new_blocks - 64) << replacement_name(r);
    EXPECT_EQ(c.insertions, new_blocks) << replacement_name(r);
  }
}

// --- coherence and inclusion (§4.3.2) ----------------------------------------------------------

TEST(NicCacheCoherence, AModifiedFileIsInvalidatedLazilyAtTheNextLookup) {
  NicDataCache cache(tiny(Replacement::Lru, 4));
  std::vector<CacheEvent> log;
  cache.set_event_log(&log, 100);
  cache.access(9, 0, 0, 512);
  cache.access(9, 1, 0, 512);
  cache.file_modified(9);
  // Nothing is sent to the NIC and no slot is freed yet: the mapping is only stale.
  EXPECT_EQ(cache.used_slots(), 2u);
  EXPECT_EQ(cache.find(9, 0), NicDataCache::kNoSlot);
  EXPECT_TRUE(cache.slot_state(0).stale);
  EXPECT_EQ(cache.counters().invalidations, 0u);
  // At lookup the stale block is dropped and the new revision inserted.
  const BlockAccess a = cache.access(9, 0, 0, 512);
  EXPECT_FALSE(a.found);
  EXPECT_EQ(cache.counters().invalidations, 1u);
  EXPECT_EQ(cache.slot_state(a.slot).revision, 1u);
  const Events want = {"insert 0 9.0", "insert 1 9.1", "invalidate 0 9.0", "insert 0 9.0"};
  EXPECT_EQ(describe(log), want);
  // Block 1 is still stale until it too is looked up.
  EXPECT_EQ(cache.find(9, 1), NicDataCache::kNoSlot);
  EXPECT_EQ(cache.used_slots(), 2u);
}

TEST(NicCacheCoherence, ABlockLeavingTheFileCacheLeavesTheNicCache) {
  // Inclusion: the NIC cache holds only blocks the file cache holds. Only that block goes.
  NicDataCache cache(tiny(Replacement::Lru, 4));
  cache.access(3, 0, 0, 512);
  cache.access(3, 1, 0, 512);
  cache.file_cache_evicted(3, 1);
  EXPECT_NE(cache.find(3, 0), NicDataCache::kNoSlot);
  EXPECT_EQ(cache.find(3, 1), NicDataCache::kNoSlot);
  EXPECT_TRUE(cache.access(3, 0, 0, 512).found);
  EXPECT_FALSE(cache.access(3, 1, 0, 512).found);
  EXPECT_EQ(cache.counters().invalidations, 1u);
  // Evicting a page that is not in the NIC cache changes nothing.
  cache.file_cache_evicted(4, 0);
  EXPECT_EQ(cache.used_slots(), 2u);
}

TEST(NicCacheCoherence, AStaleBlockCanBeTheVictimBeforeItIsLookedUp) {
  NicDataCache cache(tiny(Replacement::Lru, 2));
  cache.access(1, 0, 0, 512);
  cache.access(2, 0, 0, 512);
  cache.file_modified(1);
  cache.access(3, 0, 0, 512);  // evicts file 1's stale block, the least recent
  EXPECT_EQ(cache.counters().evictions, 1u);
  EXPECT_EQ(cache.counters().invalidations, 0u);
  EXPECT_NE(cache.find(2, 0), NicDataCache::kNoSlot);
}

// --- Fig 4.11 / 4.12 --------------------------------------------------------------------------

std::string show(const CacheCommand& c) {
  std::string s = cache_command_name(c.kind);
  s += "(" + std::to_string(c.len);
  if (c.kind != CacheCommandKind::AppendMm) s += " @nc" + std::to_string(c.ncoffset);
  if (c.source == MmSource::FileContent) s += " @file" + std::to_string(c.file_offset);
  if (c.source == MmSource::Headers) s += " headers";
  s += ")";
  if (c.first) s += " first";
  if (c.last) s += " last";
  return s;
}

std::vector<std::string> show_packet(const ResponsePlan& plan, std::uint32_t packet) {
  std::vector<std::string> out;
  for (const CacheCommand& c : plan.commands) {
    if (c.packet == packet) out.push_back(show(c));
  }
  return out;
}

TEST(NicCacheCommands, Figure412PartlyCachedPacketTakesFourDescriptors) {
  // 4 KB blocks. A first, short response caches bytes 0-999 of block 0 of file 7. The next
  // response sends 3,000 bytes: its first packet carries 240 bytes of HTTP header and content
  // 0-1207, of which 0-999 are cached: exactly the four BDs of Fig 4.12.
  NicDataCache cache(tiny(Replacement::Lru, 4, 4096));
  const Segmentation seg;  // 1448-byte segments, 66 bytes of network headers, 240 of HTTP
  ResponsePlan plan;
  plan_response(cache, {7, 0, 1000, true}, seg, &plan);
  EXPECT_EQ(plan.packets, 1u);
  EXPECT_EQ(plan.content_inserted, 1000u);

  plan_response(cache, {7, 0, 3000, true}, seg, &plan);
  EXPECT_EQ(plan.packets, 3u);
  const std::vector<std::string> p0 = {
      "nic_pkt_append_mm(306 headers) first",     // BD1: TCP/IP, Ethernet and HTTP headers
      "nic_pkt_append_cache(1000 @nc0)",          // BD2: the cached part
      "nic_cache_insert(208 @nc1000 @file1000)",  // BD3: the rest, main memory -> cache
      "nic_pkt_append_cache(208 @nc1000) last",   // BD4: the block just inserted
  };
  EXPECT_EQ(show_packet(plan, 0), p0);
  const std::vector<std::string> p1 = {
      "nic_pkt_append_mm(66 headers) first",
      "nic_cache_insert(1448 @nc1208 @file1208)",
      "nic_pkt_append_cache(1448 @nc1208) last",
  };
  EXPECT_EQ(show_packet(plan, 1), p1);
  const std::vector<std::string> p2 = {
      "nic_pkt_append_mm(66 headers) first",
      "nic_cache_insert(344 @nc2656 @file2656)",
      "nic_pkt_append_cache(344 @nc2656) last",
  };
  EXPECT_EQ(show_packet(plan, 2), p2);
  EXPECT_EQ(plan.content_from_cache, 1000u);
  EXPECT_EQ(plan.content_inserted, 2000u);
  EXPECT_EQ(plan.header_bytes, 306u + 66 + 66);

  // The third time everything is cached: no DMA of content at all.
  plan_response(cache, {7, 0, 3000, true}, seg, &plan);
  EXPECT_EQ(plan.content_from_cache, 3000u);
  EXPECT_EQ(plan.content_inserted, 0u);
  const std::vector<std::string> again = {"nic_pkt_append_mm(66 headers) first",
                                          "nic_pkt_append_cache(1448 @nc1208) last"};
  EXPECT_EQ(show_packet(plan, 1), again);
}

TEST(NicCacheCommands, APacketSpanningTwoBlocksTakesOnePieceOfEach) {
  // 512-byte blocks: packet 1 carries content 1208-2655, i.e. blocks 2 (from byte 184) to 5.
  NicDataCache cache(tiny(Replacement::Lru, 16, 512));
  ResponsePlan plan;
  plan_response(cache, {1, 0, 3000, true}, Segmentation{}, &plan);
  std::uint64_t inserts = 0;
  for (const CacheCommand& c : plan.commands) {
    if (c.packet == 1 && c.kind == CacheCommandKind::Insert) {
      ++inserts;
      EXPECT_EQ(c.ncoffset / 512, c.file_offset / 512);  // an empty cache fills slots in order
    }
  }
  EXPECT_EQ(inserts, 4u);                      // 1208-1535, 1536-2047, 2048-2559, 2560-2655
  EXPECT_EQ(cache.counters().references, 6u);  // blocks 0-5, one reference each
}

TEST(NicCacheCommands, UncacheableResponsesBypassTheCache) {
  NicDataCache cache(tiny(Replacement::Lru, 4, 4096));
  ResponsePlan plan;
  plan_response(cache, {2, 100, 2000, false}, Segmentation{}, &plan);
  for (const CacheCommand& c : plan.commands) EXPECT_EQ(c.kind, CacheCommandKind::AppendMm);
  EXPECT_EQ(plan.content_from_memory, 2000u);
  EXPECT_EQ(cache.used_slots(), 0u);
}

TEST(NicCacheCommands, AnEmptyResponseIsOnePacketOfHeaders) {
  NicDataCache cache(tiny(Replacement::Lru, 4, 4096));
  ResponsePlan plan;
  plan_response(cache, {2, 0, 0, true}, Segmentation{}, &plan);
  ASSERT_EQ(plan.commands.size(), 1u);
  EXPECT_EQ(show(plan.commands[0]), "nic_pkt_append_mm(306 headers) first last");
}

// Executes a plan the way the NIC does, in order, on a byte-tagged model of the NIC memory and
// the transmit buffer: each byte is tagged (file, revision, offset).
struct Tag {
  std::uint32_t file = 0, revision = 0;
  std::uint64_t offset = 0;
  bool operator==(const Tag& o) const {
    return file == o.file && revision == o.revision && offset == o.offset;
  }
};

TEST(NicCacheCommands, EveryContentByteIsSentExactlyOnceAndCorrect) {
  // Random responses (offsets, lengths, uncacheable ones, modified files, pages leaving the
  // file cache) through a small cache; the NIC's packets must carry exactly the response's
  // bytes, in order, of the current revision, and each byte crosses the bus at most once.
  for (Replacement r : {Replacement::Lru, Replacement::Lfu, Replacement::Fifo}) {
    for (std::uint32_t block : {512u, 4096u}) {
      NicDataCache cache(tiny(r, 8192 / block * 2, block));
      std::vector<Tag> nic_memory(cache.slots() * block);
      std::vector<std::uint32_t> revision(12, 0);
      Rng rng(block + static_cast<std::uint32_t>(r));
      ResponsePlan plan;
      Segmentation seg;
      for (int i = 0; i < 600; ++i) {
        const auto file = static_cast<std::uint32_t>(rng.below(12));
        if (rng.below(40) == 0) {
          cache.file_modified(file);
          ++revision[file];
        }
        if (rng.below(40) == 0) cache.file_cache_evicted(file, 0);
        Response resp{file, rng.below(3) == 0 ? rng.below(6000) : 0, rng.below(9000),
                      rng.below(10) != 0};
        seg.http_header_bytes = static_cast<std::uint32_t>(rng.below(400));
        plan_response(cache, resp, seg, &plan);

        std::vector<Tag> sent;
        std::uint64_t packets = 0, crossed = 0, headers = 0;
        bool in_packet = false;
        for (const CacheCommand& c : plan.commands) {
          ASSERT_EQ(c.first, !in_packet);
          in_packet = !c.last;
          if (c.first) {
            ASSERT_EQ(c.kind, CacheCommandKind::AppendMm);  // headers lead every packet
            ASSERT_EQ(c.source, MmSource::Headers);
            headers += c.len;
            ++packets;
            continue;
          }
          ASSERT_NE(c.source, MmSource::Headers);
          switch (c.kind) {
            case CacheCommandKind::Insert:
              for (std::uint32_t k = 0; k < c.len; ++k) {
                nic_memory[c.ncoffset + k] = {file, revision[file], c.file_offset + k};
              }
              crossed += c.len;
              break;
            case CacheCommandKind::AppendCache:
              for (std::uint32_t k = 0; k < c.len; ++k) sent.push_back(nic_memory[c.ncoffset + k]);
              break;
            case CacheCommandKind::AppendMm:
              for (std::uint32_t k = 0; k < c.len; ++k) {
                sent.push_back({file, revision[file], c.file_offset + k});
              }
              crossed += c.len;
              break;
          }
        }
        ASSERT_FALSE(in_packet);
        ASSERT_EQ(packets, plan.packets);
        ASSERT_EQ(sent.size(), resp.length);
        for (std::uint64_t k = 0; k < resp.length; ++k) {
          ASSERT_TRUE((sent[k] == Tag{file, revision[file], resp.offset + k}))
              << "byte " << k << " of response " << i;
        }
        ASSERT_EQ(plan.content_bytes, resp.length);
        ASSERT_EQ(plan.content_from_cache + plan.content_inserted + plan.content_from_memory,
                  resp.length);
        ASSERT_EQ(crossed, plan.content_inserted + plan.content_from_memory);
        ASSERT_EQ(headers, plan.header_bytes);
        const std::uint64_t stream = seg.http_header_bytes + resp.length;
        ASSERT_EQ(plan.packets, std::max<std::uint64_t>(1, (stream + 1447) / 1448));
      }
    }
  }
}

TEST(NicCacheCommands, ThePacketPathAndTheCacheOnlySimulatorAgree) {
  // Whole-file responses through plan_response reference the same blocks in the same order
  // as the cache-only simulator, so the bytes served from the cache are the same.
  WebTraceConfig tc;
  tc.trace = WebTraceId::Rice;
  tc.requests = 20000;
  const WebTrace trace = generate_web_trace(tc);
  for (Replacement r : {Replacement::Lru, Replacement::Lfu, Replacement::Fifo}) {
    CacheSimConfig sc;
    sc.cache.capacity_bytes = 2u << 20;
    sc.cache.replacement = r;
    const CacheSimResult sim = run_cache_sim(trace.requests, sc);
    NicDataCache cache(sc.cache);
    ResponsePlan plan;
    std::uint64_t from_cache = 0, content = 0;
    for (const WebRequest& w : trace.requests) {
      plan_response(cache, {w.file, 0, w.bytes, true}, Segmentation{}, &plan);
      from_cache += plan.content_from_cache;
      content += plan.content_bytes;
    }
    EXPECT_EQ(content, sim.content_bytes) << replacement_name(r);
    EXPECT_EQ(from_cache, sim.cached_bytes) << replacement_name(r);
    EXPECT_EQ(cache.counters().evictions, sim.evictions) << replacement_name(r);
  }
}

// --- traces (Table 4.1) ------------------------------------------------------------------------

TEST(WebTrace, TheFullRiceTraceHasTable41sStatistics) {
  // Rice is the smallest trace (245,820 requests), so it is checked whole: request count, distinct
  // files and data set size exact; the average response size to within 0.5% (sizes are paired
  // with popularity ranks by a sort, so it moves in steps).
  WebTraceConfig c;
  c.trace = WebTraceId::Rice;
  const WebTrace t = generate_web_trace(c);
  const PublishedTraceStatistics& p = published_statistics(WebTraceId::Rice);
  EXPECT_EQ(t.summary.requests, p.total_requests);
  EXPECT_EQ(t.summary.distinct_files, p.distinct_files);
  EXPECT_EQ(t.summary.data_set_bytes, p.data_set_bytes);
  EXPECT_NEAR(t.summary.average_response_bytes, p.average_response_bytes,
              0.005 * p.average_response_bytes);
  EXPECT_EQ(t.file_bytes.size(), p.distinct_files);
}

TEST(WebTrace, ScaledTracesKeepTheDataSetAndTheAverageResponse) {
  // A scaled trace is the first part of the full one: the exact request count asked for, the
  // whole data set behind it, the average response size to within 10% (a window of 100,000
  // requests of a heavy-tailed trace: NASA's file sizes spread the most), and no more distinct
  // files than the whole trace.
  for (WebTraceId id : kWebTraces) {
    const PublishedTraceStatistics& p = published_statistics(id);
    WebTraceConfig c;
    c.trace = id;
    c.requests = 100000;
    const WebTrace t = generate_web_trace(c);
    EXPECT_EQ(t.summary.requests, 100000u) << p.title;
    std::uint64_t data_set = 0;
    for (std::uint32_t b : t.file_bytes) data_set += b;
    EXPECT_EQ(data_set, p.data_set_bytes) << p.title;
    EXPECT_EQ(t.file_bytes.size(), p.distinct_files) << p.title;
    EXPECT_LE(t.summary.distinct_files, p.distinct_files) << p.title;
    EXPECT_NEAR(t.summary.average_response_bytes, p.average_response_bytes,
                0.10 * p.average_response_bytes)
        << p.title;
  }
}

TEST(WebTrace, TheSameSeedGivesTheSameTrace) {
  WebTraceConfig c;
  c.trace = WebTraceId::WorldCup;
  c.requests = 5000;
  const WebTrace a = generate_web_trace(c), b = generate_web_trace(c);
  ASSERT_EQ(a.requests.size(), b.requests.size());
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over (file, bytes)
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    ASSERT_EQ(a.requests[i].file, b.requests[i].file);
    ASSERT_EQ(a.requests[i].bytes, b.requests[i].bytes);
    hash = (hash ^ a.requests[i].file) * 1099511628211ull;
    hash = (hash ^ a.requests[i].bytes) * 1099511628211ull;
  }
  c.seed = 2;
  const WebTrace d = generate_web_trace(c);
  bool differs = false;
  for (std::size_t i = 0; i < d.requests.size() && !differs; ++i) {
    differs = d.requests[i].file != a.requests[i].file;
  }
  EXPECT_TRUE(differs);
  // The generator uses integer and IEEE-exact arithmetic only: the wasm build (emcc, run in
  // Node) draws this same trace. A change here is a change of every calibrated trace.
  EXPECT_EQ(hash, 13968274688544199444ull);
}

TEST(WebTrace, EveryParameterSaysWhereItComesFrom) {
  for (WebTraceId id : kWebTraces) {
    const std::vector<TraceParameter> rows = fitted_parameters(id);
    ASSERT_GE(rows.size(), 11u);
    for (const TraceParameter& p : rows) {
      const bool sourced = p.source == "thesis Table 4.1" || p.source.rfind("chosen: ", 0) == 0;
      EXPECT_TRUE(sourced) << web_trace_name(id) << " " << p.name << ": " << p.source;
    }
  }
  // The table comes with the trace, with the derived size-popularity mix added.
  WebTraceConfig c;
  c.trace = WebTraceId::Rice;
  c.requests = 1000;
  const WebTrace t = generate_web_trace(c);
  EXPECT_EQ(t.parameters.size(), fitted_parameters(WebTraceId::Rice).size() + 1);
  EXPECT_EQ(t.parameters.back().name, "size_correlation");
  EXPECT_EQ(t.parameters.back().source.rfind("derived: ", 0), 0u);
  WebTraceId id;
  EXPECT_TRUE(web_trace_from_name("worldcup", &id));
  EXPECT_EQ(id, WebTraceId::WorldCup);
  EXPECT_FALSE(web_trace_from_name("altavista", &id));
  WebTraceConfig bad;
  bad.requests = 10;
  const Errors e = validate(bad);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].path, "workload.trace.requests");
}

TEST(WebTrace, AnUploadedLogIsAListOfFileAndBytes) {
  // What the browser hands over after parsing a Common Log Format log: one id per URL.
  const std::vector<WebRequest> log = {{0, 1000}, {1, 50}, {0, 1000}, {2, 7000}, {0, 400}};
  const TraceSummary s = summarize(log);
  EXPECT_EQ(s.requests, 5u);
  EXPECT_EQ(s.distinct_files, 3u);
  EXPECT_EQ(s.data_set_bytes, 1000u + 50 + 7000);  // a file's size is its largest response
  EXPECT_EQ(s.total_response_bytes, 9450u);
  EXPECT_DOUBLE_EQ(s.average_response_bytes, 1890.0);
  CacheSimConfig sc;
  sc.cache = tiny(Replacement::Lru, 4, 4096);
  const CacheSimResult r = run_cache_sim(log, sc);
  // Only the second request for file 0 and the partial one after it hit: 1000 + 400 bytes.
  EXPECT_EQ(r.cached_bytes, 1400u);
  EXPECT_EQ(r.content_bytes, 9450u);
}

// --- calibration: the cache-only simulator against the thesis ---------------------------------
//
// Each trace is generated once at a scaled request count (the full IBM and World Cup traces
// have 15.6 and 10.6 million requests) and the first quarter is warm-up, so the cold start of
// a scaled trace does not weigh more than it does in a full one (the thesis counts its full
// traces from an empty cache; the full-trace values are within a point of these, see
// web_trace.cpp). Rice is run whole, from an empty cache, as the thesis does.

struct Calibration {
  WebTraceId id;
  std::uint64_t requests;  // 0 = the full trace
  std::uint64_t warmup;
  double table44[3];  // Table 4.4 content reductions, two NICs of 4, 8, 16 MB [EXACT]
};
const Calibration kCalibration[] = {
    {WebTraceId::Berkeley, 400000, 100000, {4, 6, 9}},
    {WebTraceId::Ibm, 600000, 150000, {44, 52, 60}},
    {WebTraceId::Nasa, 300000, 60000, {13, 51, 70}},
    {WebTraceId::Rice, 0, 0, {26, 40, 51}},
    {WebTraceId::WorldCup, 600000, 150000, {49, 66, 83}},
};

const Calibration& calibration(WebTraceId id) { return kCalibration[static_cast<int>(id)]; }

const std::vector<WebRequest>& requests_of(WebTraceId id) {
  static std::map<WebTraceId, std::vector<WebRequest>> traces;
  auto it = traces.find(id);
  if (it == traces.end()) {
    WebTraceConfig c;
    c.trace = id;
    c.requests = calibration(id).requests;
    it = traces.emplace(id, generate_web_trace(c).requests).first;
  }
  return it->second;
}

// Content-traffic reduction in percent.
double reduction(WebTraceId id, double mb, std::uint32_t nics = 1, Replacement r = Replacement::Lru,
                 std::uint32_t block = 4096) {
  CacheSimConfig c;
  c.cache.capacity_bytes = static_cast<std::uint64_t>(mb * 1048576);
  c.cache.block_bytes = block;
  c.cache.replacement = r;
  c.nics = nics;
  c.warmup_requests = calibration(id).warmup;
  return 100.0 * run_cache_sim(requests_of(id), c).content_traffic_reduction;
}

const char* title(WebTraceId id) { return published_statistics(id).title; }

TEST(NicCacheCalibration, Table44ContentReductionsWithTwoNics) {
  // The prototype's measured reductions (Table 4.4; the same in Tables 4.5-4.7 to within a
  // point), two NICs with a cache of 4, 8 and 16 MB each; within 4 percentage points.
  for (const Calibration& c : kCalibration) {
    const double mb[3] = {4, 8, 16};
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(reduction(c.id, mb[i], 2), c.table44[i], 4.0)
          << title(c.id) << ", two NICs of " << mb[i] << " MB";
    }
  }
}

TEST(NicCacheCalibration, ReductionRisesWithCacheSize) {
  // Fig 4.3: every curve rises from 64 KB to 16 MB.
  for (WebTraceId id : kWebTraces) {
    double last = -1;
    for (double mb : {0.0625, 0.25, 1.0, 4.0, 16.0}) {
      const double r = reduction(id, mb);
      EXPECT_GT(r, last) << title(id) << " at " << mb << " MB";
      last = r;
    }
  }
}

TEST(NicCacheCalibration, Figure43Claims) {
  // §4.2: "the World Cup and IBM traces have small working sets, so even 2 MB caches reduce
  // HTTP content traffic by over 35%".
  EXPECT_GT(reduction(WebTraceId::WorldCup, 2), 35.0);
  EXPECT_GT(reduction(WebTraceId::Ibm, 2), 35.0);
  // "The NASA and Rice traces begin to show significant benefit with 8 MB caches, with
  // content traffic reductions of 40-45%". Rice within that range (1 point of tolerance). For
  // NASA the thesis contradicts itself: the prototype measured 51% with two 8 MB caches
  // (Table 4.4), which one cache of the same size cannot fall below; the traces are fitted to
  // the table, so NASA is checked between the two (and well above its 4 MB value).
  EXPECT_GE(reduction(WebTraceId::Rice, 8), 39.0);
  EXPECT_LE(reduction(WebTraceId::Rice, 8), 46.0);
  EXPECT_GE(reduction(WebTraceId::Nasa, 8), 40.0);
  EXPECT_LE(reduction(WebTraceId::Nasa, 8), 54.0);
  EXPECT_GT(reduction(WebTraceId::Nasa, 8) - reduction(WebTraceId::Nasa, 4), 25.0);
  // "52-84% of HTTP content traffic eliminated ... given dual 16 MB caches" (four traces;
  // 3 points of tolerance).
  for (WebTraceId id :
       {WebTraceId::Ibm, WebTraceId::Nasa, WebTraceId::Rice, WebTraceId::WorldCup}) {
    const double r = reduction(id, 16, 2);
    EXPECT_GE(r, 52.0 - 3) << title(id);
    EXPECT_LE(r, 84.0 + 3) << title(id);
  }
  // "The Berkeley trace ... caches as large as 16 MB only reduce HTTP content traffic by 12%"
  // (2 points of tolerance).
  EXPECT_NEAR(reduction(WebTraceId::Berkeley, 16), 12.0, 2.0);
}

TEST(NicCacheCalibration, TwoIndependentCachesAreSlightlyWorseThanOne) {
  // §4.2: two caches of the same size with the trace split evenly "doubles the total cache
  // size, [but] the traffic reduction is slightly lower since splitting the traces reduces
  // temporal locality".
  for (WebTraceId id : kWebTraces) {
    const double one = reduction(id, 16), two = reduction(id, 16, 2);
    EXPECT_GT(one, two) << title(id);
    EXPECT_LT(one - two, 5.0) << title(id);
  }
}

TEST(NicCacheCalibration, LfuBeatsLruBeatsFifo) {
  // Fig 4.4 at 16 MB: LRU beats FIFO by 1-5%, LFU beats LRU by 2-6% (ranges over the traces;
  // 1.5 points of tolerance on each trace).
  for (WebTraceId id : kWebTraces) {
    const double lru = reduction(id, 16), lfu = reduction(id, 16, 1, Replacement::Lfu),
                 fifo = reduction(id, 16, 1, Replacement::Fifo);
    EXPECT_GE(lfu - lru, 2.0 - 1.5) << title(id);
    EXPECT_LE(lfu - lru, 6.0 + 1.5) << title(id);
    EXPECT_GE(lru - fifo, 1.0 - 1.5) << title(id);
    EXPECT_LE(lru - fifo, 5.0 + 1.5) << title(id);
  }
}

TEST(NicCacheCalibration, BlockSizeMattersLittleAndSmallerIsSlightlyBetter) {
  // Fig 4.5: from 512 B to 8 KB blocks "the improvement over caches with largest block (8 KB)
  // is at most 5% with 16 MB cache (World Cup trace)" (1 point of tolerance).
  for (WebTraceId id : kWebTraces) {
    const double b512 = reduction(id, 16, 1, Replacement::Lru, 512);
    const double b8k = reduction(id, 16, 1, Replacement::Lru, 8192);
    EXPECT_GE(b512, b8k) << title(id);
    EXPECT_LE(b512 - b8k, 5.0 + 1.0) << title(id);
  }
}

TEST(NicCacheCalibration, TheSimulatorReportsItsWork) {
  CacheSimConfig c;
  c.cache.capacity_bytes = 1u << 20;
  c.nics = 2;
  c.max_events = 100;
  const std::vector<WebRequest>& t = requests_of(WebTraceId::Nasa);
  const std::vector<WebRequest> head(t.begin(), t.begin() + 20000);
  const CacheSimResult r = run_cache_sim(head, c);
  EXPECT_EQ(r.requests, 20000u);
  ASSERT_EQ(r.nics.size(), 2u);
  EXPECT_EQ(r.nics[0].requests, 10000u);
  EXPECT_EQ(r.nics[0].slots.size(), 256u);
  EXPECT_EQ(r.events.size(), 100u);
  EXPECT_TRUE(r.events_truncated);
  EXPECT_EQ(r.events[0].kind, CacheEventKind::Insert);
  EXPECT_GT(r.evictions, 0u);
  EXPECT_GT(r.block_hit_rate, 0.0);
  EXPECT_GT(r.request_hit_rate, 0.0);
  EXPECT_EQ(r.cached_bytes, r.nics[0].cached_bytes + r.nics[1].cached_bytes);
  std::uint64_t slot_hits = 0;
  for (const CacheSimNicResult& n : r.nics) {
    for (const SlotState& s : n.slots) slot_hits += s.hits;
  }
  EXPECT_EQ(slot_hits, r.nics[0].counters.hits + r.nics[0].counters.partial_hits +
                           r.nics[1].counters.hits + r.nics[1].counters.partial_hits);
  // Warm-up requests are played but not counted.
  c.warmup_requests = 5000;
  const CacheSimResult w = run_cache_sim(head, c);
  EXPECT_EQ(w.requests, 15000u);
  EXPECT_EQ(w.evictions, w.nics[0].counters.evictions + w.nics[1].counters.evictions);
}

// --- configuration ----------------------------------------------------------------------------

// The warm-up's walk (plan_response_blocks: one lookup per block) leaves every cache as the
// walk that posts commands (plan_response: one access per piece) does, with the same counts.
// Two walks of the same requests leave the same counters.
void expect_same_counters(const CacheCounters& x, const CacheCounters& y) {
  EXPECT_EQ(x.references, y.references);
  EXPECT_EQ(x.hits, y.hits);
  EXPECT_EQ(x.partial_hits, y.partial_hits);
  EXPECT_EQ(x.misses, y.misses);
  EXPECT_EQ(x.insertions, y.insertions);
  EXPECT_EQ(x.evictions, y.evictions);
  EXPECT_EQ(x.invalidations, y.invalidations);
  EXPECT_EQ(x.hit_bytes, y.hit_bytes);
  EXPECT_EQ(x.inserted_bytes, y.inserted_bytes);
}

TEST(NicCacheWalk, BlockWalkLeavesTheSameCacheAsThePieceWalk) {
  for (Replacement r : {Replacement::Lru, Replacement::Lfu, Replacement::Fifo}) {
    for (std::uint32_t block : {512u, 4096u, 8192u}) {
      for (std::uint32_t segment : {536u, 1448u, 9000u}) {
        // No HTTP header, or one filling the first segment: packets start where blocks do.
        for (std::uint32_t http : {240u, 0u, segment}) {
          NicDataCache by_piece(tiny(r, 40, block)), by_block(tiny(r, 40, block));
          std::vector<CacheEvent> log_piece, log_block;
          by_piece.set_event_log(&log_piece, 100000);
          by_block.set_event_log(&log_block, 100000);
          Segmentation seg;
          seg.segment_bytes = segment;
          seg.http_header_bytes = http;
          Rng rng(block * 7 + segment + http);
          ResponsePlan a, b;
          for (int i = 0; i < 3000; ++i) {
            const auto file = static_cast<std::uint32_t>(rng.below(30));
            if (rng.below(50) == 0) {
              by_piece.file_modified(file);
              by_block.file_modified(file);
              continue;
            }
            // Whole files mostly, from an offset sometimes (a range request).
            const std::uint64_t offset = rng.below(4) == 0 ? rng.below(3 * block) : 0;
            const Response resp{file, offset, rng.below(12 * block) + (rng.below(9) == 0 ? 0 : 1),
                                true};
            by_piece.set_request(static_cast<std::uint32_t>(i));
            by_block.set_request(static_cast<std::uint32_t>(i));
            plan_response(by_piece, resp, seg, &a);
            plan_response_blocks(by_block, resp, seg, &b);
            ASSERT_EQ(a.packets, b.packets);
            ASSERT_EQ(a.header_bytes, b.header_bytes);
            ASSERT_EQ(a.content_bytes, b.content_bytes);
            ASSERT_EQ(a.content_from_cache, b.content_from_cache);
            ASSERT_EQ(a.content_inserted, b.content_inserted);
            ASSERT_TRUE(b.commands.empty());
          }
          expect_same_counters(by_piece.counters(), by_block.counters());
          EXPECT_EQ(describe(log_piece), describe(log_block));
          for (std::uint32_t s = 0; s < by_piece.slots(); ++s) {
            const SlotState p = by_piece.slot_state(s), q = by_block.slot_state(s);
            EXPECT_EQ(p.used, q.used);
            EXPECT_EQ(p.file, q.file);
            EXPECT_EQ(p.block, q.block);
            EXPECT_EQ(p.valid_lo, q.valid_lo);
            EXPECT_EQ(p.valid_hi, q.valid_hi);
            EXPECT_EQ(p.frequency, q.frequency);
            EXPECT_EQ(p.hits, q.hits);
            EXPECT_EQ(p.insertions, q.insertions);
          }
        }
      }
    }
  }
}

// A warm-up's responses (warm_response: a file cached whole, as its last response left it, is
// one step; a file with no block cached goes in without a lookup per block) leave every cache
// as the block walk does: the same counters, the same slots with the same hits and insertions,
// and the same LRU order (the victims that follow, in order).
TEST(NicCacheWalk, WarmUpLeavesTheSameCacheAsTheBlockWalk) {
  for (Replacement r : {Replacement::Lru, Replacement::Lfu, Replacement::Fifo}) {
    for (std::uint32_t block : {512u, 4096u}) {
      for (std::uint32_t slots : {40u, 200u}) {
        for (std::uint32_t segment : {1448u, 512u}) {
          NicDataCache walked(tiny(r, slots, block)), warmed(tiny(r, slots, block));
          // A 512-byte segment with no HTTP header: packets start where blocks do.
          Segmentation seg;
          seg.segment_bytes = segment;
          seg.http_header_bytes = segment == 512 ? 0 : 240;
          Rng rng(block + slots + segment + static_cast<std::uint32_t>(r));
          // Files of fixed sizes mostly (as in the traces); file 0 larger than the cache.
          std::vector<std::uint32_t> size(30);
          for (std::uint32_t& b : size) b = static_cast<std::uint32_t>(rng.below(12 * block) + 1);
          size[0] = slots * block + 100;
          warmed.begin_warm();
          ResponsePlan a, b;
          int whole = 0;
          for (int i = 0; i < 4000; ++i) {
            // Skewed toward low file ids: files come back while still cached.
            const auto file = static_cast<std::uint32_t>(rng.below(rng.below(30) + 1));
            if (rng.below(60) == 0) {
              walked.file_modified(file);
              warmed.file_modified(file);
              continue;
            }
            // Now and then a file of another size (a log's file that changed).
            const std::uint32_t bytes =
                rng.below(25) == 0 ? static_cast<std::uint32_t>(rng.below(12 * block)) : size[file];
            plan_response_blocks(walked, Response{file, 0, bytes, true}, seg, &a);
            whole += warm_response(warmed, file, bytes, seg, &b) ? 1 : 0;
          }
          warmed.end_warm();
          if (r == Replacement::Lru) {
            EXPECT_GT(whole, 100);
          } else {
            EXPECT_EQ(whole, 0);
          }
          expect_same_counters(walked.counters(), warmed.counters());
          for (std::uint32_t s = 0; s < slots; ++s) {
            const SlotState p = walked.slot_state(s), q = warmed.slot_state(s);
            EXPECT_EQ(p.used, q.used) << s;
            EXPECT_EQ(p.stale, q.stale) << s;
            EXPECT_EQ(p.file, q.file) << s;
            EXPECT_EQ(p.block, q.block) << s;
            EXPECT_EQ(p.revision, q.revision) << s;
            EXPECT_EQ(p.valid_lo, q.valid_lo) << s;
            EXPECT_EQ(p.valid_hi, q.valid_hi) << s;
            EXPECT_EQ(p.frequency, q.frequency) << s;
            EXPECT_EQ(p.hits, q.hits) << s;
            EXPECT_EQ(p.insertions, q.insertions) << s;
          }
          // New blocks through the whole cache: every slot's victim, in the policy's order.
          std::vector<CacheEvent> log_walked, log_warmed;
          walked.set_event_log(&log_walked, 100000);
          warmed.set_event_log(&log_warmed, 100000);
          for (std::uint32_t k = 0; k < slots; ++k) {
            walked.access(1000 + k, 0, 0, block);
            warmed.access(1000 + k, 0, 0, block);
          }
          EXPECT_EQ(describe(log_walked), describe(log_warmed));
        }
      }
    }
  }
}

TEST(NicCacheConfig, ValidationNamesTheFieldAndTheAllowedRange) {
  NicCacheConfig c;
  EXPECT_TRUE(validate(c).empty());
  c.block_bytes = 1000;
  Errors e = validate(c);
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].path, "cache.block_bytes");
  EXPECT_EQ(e[0].message, "must be a power of two in 512..65536");
  c.block_bytes = 4096;
  c.capacity_bytes = 5000;
  e = validate(c, "system.nic_cache");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].path, "system.nic_cache.capacity_bytes");
  c.capacity_bytes = 16u << 20;
  CacheSimConfig s;
  s.cache = c;
  s.nics = 3;
  e = validate(s);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].path, "cache.nics");
  Segmentation seg;
  seg.http_header_bytes = 2000;
  e = validate(seg);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].path, "segmentation.http_header_bytes");
  Replacement r;
  EXPECT_TRUE(replacement_from_name("lfu", &r));
  EXPECT_EQ(r, Replacement::Lfu);
  EXPECT_FALSE(replacement_from_name("random", &r));
}

}  // namespace
}  // namespace nicsim
