// The network interface data cache of the thesis Ch.4 (§4.3): a region of NIC memory split into
// fixed-size blocks, holding file content the host has sent before, so a later response can be
// assembled on the NIC instead of crossing the PCI bus again. The NIC is a slave: the host OS
// (the device driver) keeps the directory (file, block) -> cache slot, picks victims (LRU in the
// prototype; LFU and FIFO as in Fig 4.4) and keeps the cache coherent by lazy invalidation and
// inclusion in the main-memory file cache. The NIC only executes the commands of Fig 4.11, which
// ride in send buffer descriptors: nic_cache_insert, nic_pkt_append_cache, nic_pkt_append_mm.
//
// This is bookkeeping only (no time): integer bytes, O(1) per block for LRU, FIFO and LFU.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/status.hpp"

namespace nicsim {

struct Segmentation;

// Block cache replacement policies of Fig 4.4.
enum class Replacement : std::uint8_t { Lru, Lfu, Fifo };
const char* replacement_name(Replacement r);  // "lru", "lfu", "fifo"
bool replacement_from_name(const std::string& name, Replacement* out);

// One NIC's cache. Sizes in bytes; "4 MB" in Tables 4.4-4.7 is 4 x 2^20.
struct NicCacheConfig {
  std::uint64_t capacity_bytes = 16ull << 20;  // thesis §4.2: 64 KB to 16 MB simulated
  std::uint32_t block_bytes = 4096;  // thesis §4.4.2: the OS page size (512 B-8 KB, Fig 4.5)
  Replacement replacement = Replacement::Lru;  // thesis §4.4.2: the prototype's LRU
};
constexpr std::uint32_t kMinBlockBytes = 512;
constexpr std::uint32_t kMaxBlockBytes = 65536;
constexpr std::uint64_t kMaxCacheBytes = 1ull << 30;

// Errors name `prefix.field` and the allowed range, e.g.
// "cache.block_bytes: must be a power of two in 512..65536".
Errors validate(const NicCacheConfig& c, const std::string& prefix = "cache");

// What happened to a slot, for a grid-of-blocks view and the hand-worked tests.
enum class CacheEventKind : std::uint8_t {
  Hit,         // a block referenced and found holding some or all of the bytes asked for
  Insert,      // nic_cache_insert into the slot (a new block, or the missing part of one)
  Evict,       // the policy's victim, to make room for an insert
  Invalidate,  // lazy invalidation at lookup: the file changed or left the file cache
};
const char* cache_event_name(CacheEventKind k);  // "hit", "insert", "evict", "invalidate"

struct CacheEvent {
  std::uint32_t request = 0;  // the caller's tag (set_request)
  std::uint32_t slot = 0;
  std::uint32_t file = 0;
  std::uint32_t block = 0;
  CacheEventKind kind = CacheEventKind::Hit;
  std::uint8_t nic = 0;  // which NIC's cache (set by the caller, e.g. the two-NIC simulator)
};

struct CacheCounters {
  std::uint64_t references = 0;      // block references the policy saw
  std::uint64_t hits = 0;            // ... found with every byte asked for
  std::uint64_t partial_hits = 0;    // ... found with only some of the bytes
  std::uint64_t misses = 0;          // ... not found (or found stale)
  std::uint64_t insertions = 0;      // nic_cache_insert commands
  std::uint64_t evictions = 0;       // victims taken by the policy
  std::uint64_t invalidations = 0;   // stale blocks dropped at lookup
  std::uint64_t hit_bytes = 0;       // bytes asked for that were already cached
  std::uint64_t inserted_bytes = 0;  // bytes fetched from main memory into the cache
};

// One slot as the driver's directory sees it.
struct SlotState {
  bool used = false;
  bool stale = false;  // its file-cache page is gone; dropped at the next lookup
  std::uint32_t file = 0;
  std::uint32_t block = 0;     // block index within the file
  std::uint32_t revision = 0;  // the file's revision when inserted (§4.3.2)
  std::uint32_t valid_lo = 0;  // the cached bytes of the block: [valid_lo, valid_hi)
  std::uint32_t valid_hi = 0;
  std::uint32_t frequency = 0;  // references since insertion (LFU)
  std::uint64_t hits = 0;       // over the run, for the grid view
  std::uint64_t insertions = 0;
};

// The outcome of one block access: which slot, and which part of [lo, hi) was cached before.
// The part before cached_lo and after cached_hi has just been inserted. With nothing cached,
// cached_lo == cached_hi == hi (so [lo, cached_lo) is the whole inserted range).
struct BlockAccess {
  std::uint32_t slot = 0;
  std::uint32_t cached_lo = 0;
  std::uint32_t cached_hi = 0;
  bool found = false;  // the block was in the directory and current
};

class NicDataCache {
 public:
  static constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;

  // `config` must pass validate().
  explicit NicDataCache(const NicCacheConfig& config);

  const NicCacheConfig& config() const { return config_; }
  std::uint32_t slots() const { return static_cast<std::uint32_t>(slots_.size()); }
  std::uint32_t used_slots() const { return used_; }
  const CacheCounters& counters() const { return counters_; }

  // The driver's use of bytes [lo, hi) of a file block for a packet (thesis §4.3.2, Fig 4.10):
  // look it up (dropping it if stale), and insert what is missing, allocating a slot and
  // evicting the policy's victim if none is free ("always cache packet data if not found",
  // §4.3.3). `reference` = false for a second piece of the block in the same response, so
  // the policy counts one reference per block per response. 0 <= lo < hi <= block_bytes.
  BlockAccess access(std::uint32_t file, std::uint32_t block, std::uint32_t lo, std::uint32_t hi,
                     bool reference = true);

  // The pieces one response carries of one block, in order and adjacent: the same as
  // access(file, block, bounds[i], bounds[i + 1], i == 0) for each i < pieces, with one lookup
  // (a functional warm-up's walk). Returns the bytes that were cached before.
  std::uint64_t access_pieces(std::uint32_t file, std::uint32_t block, const std::uint32_t* bounds,
                              std::size_t pieces);

  // A functional warm-up (the thesis §4.4.3: the caches warmed before the measured run) plays
  // whole files from offset 0 into an empty cache, nothing else (file_modified aside). Under
  // LRU such a walk leaves a file's blocks as one run at the tail of the list, in block order,
  // and the run stays whole (and in order) while its first block stays: other files' walks move
  // their own blocks and evict from the head, so they eat a run from its first block. A later
  // walk of the file that finds that run unchanged (no block of it evicted or stale, no block
  // beyond it ever cached) is then a move of the run to the tail and a hit on every block: one
  // step, not one per block. Each slot's hit count is kept per file while warming (a file's
  // blocks all hit together), and settled into the slots by end_warm. A file none of whose
  // blocks is cached (counted per file while warming) goes in without a lookup per block.
  void begin_warm();
  void end_warm();
  // A warm-up's response (the whole file from offset 0), as warm_response below: true if done
  // as one step (a file cached whole, as its last response left it).
  bool warm_whole_hit(std::uint32_t file, std::uint32_t bytes);
  // The same for a file none of whose blocks is cached: true if done without a lookup per block.
  bool warm_whole_miss(std::uint32_t file, std::uint32_t bytes, const Segmentation& seg);
  // After a warm-up's block walk of the file: where its run now lies.
  void warm_walked(std::uint32_t file, std::uint32_t bytes);

  // The slot holding a current copy of the block, or kNoSlot. No side effects.
  std::uint32_t find(std::uint32_t file, std::uint32_t block) const;
  SlotState slot_state(std::uint32_t slot) const;

  // Coherence and inclusion (§4.3.2). Both are lazy: nothing is sent to the NIC, and the stale
  // block is dropped when next looked up (or taken as a victim before that).
  void file_modified(std::uint32_t file);                            // a new revision
  void file_cache_evicted(std::uint32_t file, std::uint32_t block);  // page left the file cache
  std::uint32_t revision(std::uint32_t file) const {
    if (revisions_.empty()) return 0;  // the common case: no file has changed
    const auto it = revisions_.find(file);
    return it == revisions_.end() ? 0 : it->second;
  }

  // Event log (capped; 0 keeps none). `request` tags the events that follow.
  void set_event_log(std::vector<CacheEvent>* log, std::size_t cap, std::uint8_t nic = 0) {
    log_ = log;
    log_cap_ = cap;
    nic_ = nic;
  }
  void set_request(std::uint32_t request) { request_ = request; }
  bool events_truncated() const { return log_truncated_; }

 private:
  struct alignas(64) Slot {  // 64 bytes: one cache line each, never two
    std::uint64_t key = 0;   // file << 32 | block
    std::uint32_t revision = 0;
    std::uint32_t valid_lo = 0, valid_hi = 0;
    std::uint32_t prev = kNoSlot, next = kNoSlot;  // policy list (LRU, FIFO, or LFU bucket)
    std::uint32_t bucket = kNoSlot;                // LFU: the frequency bucket
    std::uint32_t frequency = 0;
    std::uint64_t hits = 0, insertions = 0;
    bool used = false, stale = false;
    std::uint32_t warm_hits_base = 0;  // while warming: its file's warm hits when it came in
  };
  static_assert(sizeof(Slot) == 64, "one cache line");
  // While warming (LRU), per file: the run its latest walk left, and its blocks' hits so far.
  struct WarmFile {
    std::uint32_t first = kNoSlot, last = kNoSlot;  // the slots of its first and last blocks
    std::uint32_t blocks = 0;                       // in its latest response
    std::uint32_t most_blocks = 0;                  // in any response since begin_warm
    std::uint32_t hits = 0;                         // whole-file hits (one per block)
    std::uint32_t present = 0;                      // its blocks in the cache
  };
  // The blocks a response of `bytes` from offset 0 spans (block sizes are powers of two).
  std::uint32_t blocks_of(std::uint32_t bytes) const {
    return static_cast<std::uint32_t>((std::uint64_t{bytes} + config_.block_bytes - 1) >>
                                      __builtin_ctz(config_.block_bytes));
  }
  // The slot's file's record (every slot in use while warming came in after begin_warm).
  WarmFile& warm_file(const Slot& s) {
    return warm_files_[static_cast<std::uint32_t>(s.key >> 32)];
  }
  // LFU buckets (one per distinct frequency in use), kept in rising frequency, each a list of
  // its slots from least to most recently referenced: O(1) reference, insert and victim.
  struct Bucket {
    std::uint32_t frequency = 0;
    std::uint32_t head = kNoSlot, tail = kNoSlot;
    std::uint32_t prev = kNoSlot, next = kNoSlot;
  };

  std::uint32_t allocate(std::uint64_t key, std::uint32_t revision);
  void drop(std::uint32_t slot);   // unlink from the policy and the directory; free the slot
  void touch(std::uint32_t slot);  // a reference, for LRU and LFU
  void link_new(std::uint32_t slot);
  void unlink(std::uint32_t slot);
  std::uint32_t victim() const;
  // The current slot of `key`, or kNoSlot (a stale one is dropped: lazy invalidation).
  std::uint32_t lookup(std::uint64_t key, std::uint32_t rev);
  void inserted(std::uint32_t slot, std::uint32_t n);  // a nic_cache_insert of n bytes
  // A found block takes the piece [lo, hi): its valid range grows over an overlap or an adjacent
  // piece, else is replaced (one range per block). Returns the overlap's bounds (ol >= oh: none).
  std::pair<std::uint32_t, std::uint32_t> take_range(Slot& s, std::uint32_t lo, std::uint32_t hi);
  // The parts of [lo, hi) outside the cached [ol, oh) were inserted (ol >= oh: all of it).
  void insert_outside(std::uint32_t slot, std::uint32_t lo, std::uint32_t hi, std::uint32_t ol,
                      std::uint32_t oh);
  void log(CacheEventKind k, std::uint32_t slot) {
    if (log_ != nullptr) log_event(k, slot);  // most runs keep no log: no call
  }
  void log_event(CacheEventKind k, std::uint32_t slot);

  // LFU bucket list helpers.
  std::uint32_t new_bucket(std::uint32_t frequency, std::uint32_t after);
  void bucket_push_back(std::uint32_t b, std::uint32_t slot);
  void bucket_remove(std::uint32_t slot);

  // Directory: open addressing with linear probing and backward-shift deletion. An entry is the
  // slot and its key's hash (which places it): the key itself is the slot's, so a probe reads
  // one array, and a lookup one slot, the one it returns.
  struct DirEntry {
    std::uint32_t hash = 0;
    std::uint32_t slot = kNoSlot;  // kNoSlot = empty
  };
  static std::uint32_t dir_hash(std::uint64_t key) {
    return static_cast<std::uint32_t>((key * 0x9E3779B97F4A7C15ull) >> 29);
  }
  std::uint32_t dir_find(std::uint64_t key) const;
  void dir_insert(std::uint64_t key, std::uint32_t slot);
  void dir_erase(std::uint64_t key, std::uint32_t slot);

  NicCacheConfig config_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;  // free slots, taken from the back (lowest index first)
  std::uint32_t used_ = 0;
  std::uint32_t head_ = kNoSlot, tail_ = kNoSlot;  // LRU: head = least recent; FIFO: oldest
  std::vector<Bucket> buckets_;
  std::vector<std::uint32_t> free_buckets_;
  std::uint32_t lowest_bucket_ = kNoSlot;
  std::vector<DirEntry> dir_;
  std::uint32_t dir_mask_ = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> revisions_;  // files changed at least once
  CacheCounters counters_;
  std::vector<CacheEvent>* log_ = nullptr;
  std::size_t log_cap_ = 0;
  bool log_truncated_ = false;
  std::uint8_t nic_ = 0;
  std::uint32_t request_ = 0;
  std::uint32_t last_slot_ = kNoSlot;  // of the latest access (a lookup hint)
  std::uint32_t next_hint_ = kNoSlot;  // the slot after it in the policy's list, before it moved
  bool warming_ = false;               // between begin_warm and end_warm, under LRU
  std::vector<WarmFile> warm_files_;   // by file id
};

// ---------------------------------------------------------------------------------------------
// The commands of Fig 4.11, as a send buffer descriptor carries them, and the driver's walk of
// a response into packets (Fig 4.12).
// ---------------------------------------------------------------------------------------------

enum class CacheCommandKind : std::uint8_t {
  AppendMm,     // nic_pkt_append_mm(mmaddr, len): DMA from main memory into the transmit buffer
  AppendCache,  // nic_pkt_append_cache(ncoffset, len): copy from the cache into the transmit buffer
  Insert,       // nic_cache_insert(mmaddr, ncoffset, len): DMA from main memory into the cache
};
const char* cache_command_name(CacheCommandKind k);  // the thesis's function names

// Main memory is described by what lies there, not by an address: the packet's headers, or
// the file-cache page holding file bytes at `file_offset`.
enum class MmSource : std::uint8_t { None, Headers, FileContent };

struct CacheCommand {
  CacheCommandKind kind = CacheCommandKind::AppendMm;
  MmSource source = MmSource::None;  // AppendMm and Insert
  bool first = false;                // flags (Fig 4.11): first BD of the packet
  bool last = false;                 // last BD: the NIC sends the packet after it
  std::uint32_t packet = 0;          // packet index within the response
  std::uint32_t len = 0;
  std::uint32_t http_bytes = 0;  // Headers: of len, the HTTP response header (after TCP/IP's)
  std::uint64_t ncoffset =
      0;  // cache byte offset (slot x block_bytes + offset): AppendCache, Insert
  std::uint64_t file_offset = 0;  // FileContent: the file bytes' offset
};

// How a response is cut into packets (thesis §4.4: TCP segments; headers never cached).
struct Segmentation {
  std::uint32_t segment_bytes = 1448;       // thesis §4.4.1: TCP payload per segment
  std::uint32_t network_header_bytes = 66;  // Ethernet 14 + IP 20 + TCP 20 + timestamps 12
  // chosen: a thttpd 2.22 response header (status line, Server, Content-Type, Date,
  // Last-Modified, Accept-Ranges, Connection, Content-Length) is about 240 bytes.
  std::uint32_t http_header_bytes = 240;
};
Errors validate(const Segmentation& s, const std::string& prefix = "segmentation");

// One response: `length` bytes of `file` from `offset`. A response that is not cacheable
// (dynamic content, §4.3.3) bypasses the cache with nic_pkt_append_mm only.
struct Response {
  std::uint32_t file = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  bool cacheable = true;
};

struct ResponsePlan {
  std::vector<CacheCommand> commands;  // in the order the NIC must process them
  std::uint32_t packets = 0;
  std::uint64_t header_bytes = 0;         // network + HTTP headers, all by nic_pkt_append_mm
  std::uint64_t content_bytes = 0;        // = from_cache + inserted + from_memory
  std::uint64_t content_from_cache = 0;   // cached before this response: no PCI crossing
  std::uint64_t content_inserted = 0;     // crossed PCI once, into the cache, then appended
  std::uint64_t content_from_memory = 0;  // nic_pkt_append_mm of content (not cacheable)
};

// The driver's walk of one response (Fig 4.10 steps 2-4, Fig 4.12): TCP segments of
// segment_bytes of payload, the HTTP header at the start of the first; each packet starts with
// one nic_pkt_append_mm of its headers, then, for each piece of a file block it carries, in
// file order: nic_pkt_append_cache for the cached part, nic_cache_insert + nic_pkt_append_cache
// for the rest. One command per block piece (adjacent slots are not merged). Updates the
// directory. `plan` is cleared first (reuse it to avoid allocation).
void plan_response(NicDataCache& cache, const Response& response, const Segmentation& seg,
                   ResponsePlan* plan);
// The same walk and directory updates, the same byte counts in `plan`, but no commands (a
// functional warm-up: nothing is posted).
void plan_response_blocks(NicDataCache& cache, const Response& response, const Segmentation& seg,
                          ResponsePlan* plan);
// A functional warm-up's response, the whole file from offset 0 (between begin_warm and
// end_warm): the directory, the counters and every slot as plan_response_blocks leaves them
// (`plan` is scratch; its counts are not kept). True if the file was a hit as a whole.
bool warm_response(NicDataCache& cache, std::uint32_t file, std::uint32_t bytes,
                   const Segmentation& seg, ResponsePlan* plan);

}  // namespace nicsim
