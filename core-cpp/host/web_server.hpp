// The web server of full-system mode (the thesis §4.1.1, §4.3-4.4): one host CPU running an
// event-driven static server (thttpd 2.22 on FreeBSD 4.6) and one driver per NIC. A request
// is read from a client connection, the file is looked up in the OS file cache (on a miss the
// single server process waits for the disk, §4.1.1 step 3), the HTTP header is built, and the
// file goes out by sendfile (zero-copy) or by mmap and write (a copy into the kernel, Table
// 4.3). TCP cuts it into 1448-byte segments; for each the driver posts send descriptors
// carrying the NIC data cache commands of Fig 4.11, planned by the Fig 4.12 walk
// (plan_response) over the directory it keeps for that NIC's cache (§4.3.2: lookup, lazy
// invalidation, inclusion in the file cache).
//
// The clients (the thesis §4.4.3) replay the trace with infinite demand on persistent
// connections: each NIC's share of the trace (every second request) is spread over its
// connections, and a connection asks for its next file as soon as the last one has arrived.
// TCP itself is not simulated: segments are never lost, windows never close, and the two ends
// share a per-NIC record of which request and which response is on the wire (WebNicFlow).
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "host/host_bridge.hpp"
#include "link/ethernet_link.hpp"
#include "nic/cache/nic_data_cache.hpp"
#include "nic/fixed_nic.hpp"
#include "sim/stats.hpp"

namespace nicsim {

// What both ends of one NIC's connections know without simulating TCP: the requests on their
// way to the server, and the responses on their way to the clients, each in wire order.
struct WebNicFlow {
  struct Request {
    std::uint32_t packet;      // the request's frame
    std::uint32_t connection;  // the client's connection
    std::uint64_t index;       // into the trace
  };
  struct Response {
    std::uint32_t connection;
    std::uint64_t index;
    std::uint32_t packets;
    std::uint32_t content_bytes;
    std::uint32_t received = 0;        // segments
    std::uint64_t received_bytes = 0;  // content in them
  };
  std::deque<Request> requests;
  std::deque<Response> responses;
};

// The OS file cache (and thttpd's mmap cache, and the CPU's L2 by file): files, least recently
// used first out, whole files (the trace's responses are whole files from offset 0).
struct FileLru {
  struct Entry {
    std::uint32_t bytes;
    std::uint32_t prev, next;
  };
  // File ids are dense (numbered from 0 in first-seen order), so an entry lives at its id: a
  // lookup is one index, not a hash (the warm-up replays the whole trace through the file
  // cache). The interface is the part of unordered_map's that FileLru uses.
  class FileMap {
   public:
    using value_type = std::pair<std::uint32_t, Entry>;  // first: the file, or kAbsent
    value_type* find(std::uint32_t file) {
      return file < v_.size() && v_[file].first == file ? &v_[file] : nullptr;
    }
    value_type* end() { return nullptr; }
    Entry& operator[](std::uint32_t file) {
      if (file >= v_.size())
        v_.resize(std::max<std::size_t>(file + std::size_t{1}, v_.size() * 2),
                  value_type{kAbsent, Entry{}});
      value_type& e = v_[file];
      if (e.first != file) e = value_type{file, Entry{}};
      return e.second;
    }
    void erase(std::uint32_t file) { v_[file].first = kAbsent; }
    // A file that is present (a list neighbour): no check, no insertion.
    Entry& present(std::uint32_t file) { return v_[file].second; }

   private:
    static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;
    std::vector<value_type> v_;
  };
  std::uint64_t capacity = 0, used = 0;  // bytes
  FileMap map;
  std::uint32_t head = 0xFFFFFFFFu, tail = 0xFFFFFFFFu;  // head = least recent
  // True on a hit. A miss makes room, least recent first ((file, bytes) of each file it evicts
  // go to `evicted` if given), then keeps the file unless it is larger than the whole cache.
  bool touch(std::uint32_t file, std::uint32_t bytes,
             std::vector<std::pair<std::uint32_t, std::uint32_t>>* evicted);
  void unlink(std::uint32_t file, Entry& e);
  void push_back(std::uint32_t file, Entry& e);
};

// Counts over the run; the measured window is a difference of two snapshots.
struct WebCounters {
  std::uint64_t responses = 0;        // completed at the clients
  std::uint64_t content_bytes = 0;    // HTTP content received by the clients
  std::uint64_t served = 0;           // requests the server took
  std::uint64_t file_cache_hits = 0;  // ... whose file was in the OS file cache
  std::uint64_t disk_reads = 0;
  std::uint64_t disk_bytes = 0;
  std::uint64_t mmap_misses = 0;         // write(): files that had to be mapped
  std::uint64_t copied_bytes = 0;        // write(): bytes copied into the kernel
  std::uint64_t copy_misses = 0;         // write(): copies whose file was not in the L2
  std::uint64_t packets_posted = 0;      // TCP segments handed to the drivers
  std::uint64_t descriptors = 0;         // send descriptors posted
  std::uint64_t planned_content = 0;     // content bytes in posted segments
  std::uint64_t planned_from_cache = 0;  // ... by nic_pkt_append_cache of blocks cached before
  std::uint64_t planned_inserted = 0;    // ... by nic_cache_insert then append_cache
  std::uint64_t acks_received = 0;
  std::uint64_t requests_received = 0;
  std::uint64_t interrupts = 0;
};

class WebServer;

// The clients behind one NIC (two replayers per subnet in the thesis, here one endpoint).
class WebClient final : public LinkEndpoint, private EventHandler {
 public:
  WebClient(SimContext* ctx, const Config& cfg, unsigned nic, WebNicFlow* flow,
            const std::vector<WebRequest>* trace, WebCounters* counters);
  void attach(LinkDirection* to_nic) { to_nic_ = to_nic; }
  void start();
  void frame_arrived(const Frame& f) override;
  void link_sent(const Frame&) override {}
  void link_ready() override { send_next(); }

 private:
  void fire(std::uint32_t) override { send_next(); }
  void ask(std::uint32_t connection);
  void send_next();

  SimContext* ctx_;
  WebServerConfig server_;
  unsigned nic_;
  std::uint32_t nics_;
  WebNicFlow* flow_;
  const std::vector<WebRequest>* trace_;
  WebCounters* counters_;
  LinkDirection* to_nic_ = nullptr;
  std::uint64_t first_ = 0;  // this NIC's first trace index after the functional warm-up
  std::uint64_t next_ = 0;   // this NIC's next trace index
  std::uint32_t unacked_ = 0;
  std::deque<Frame> out_;  // frames waiting for the wire
};

// One NIC as the server's driver sees it.
struct WebPort {
  Rings rings;
  MailboxTarget* nic = nullptr;
  WebNicFlow* flow = nullptr;
  std::unique_ptr<NicDataCache> cache;  // the driver's directory of this NIC's cache
};

class WebServer final : private EventHandler, private PioWaiter, private BusMaster {
 public:
  // `trace` lives for the run; `warm_from` requests of it were played functionally.
  WebServer(SimContext* ctx, const Config& cfg, HostBridge* bridge, IoBus* bus,
            const std::vector<WebRequest>* trace, WebCounters* counters);
  // Adds a NIC; returns its interrupt line.
  InterruptLine* attach(Rings rings, MailboxTarget* nic, WebNicFlow* flow);
  // Functional warm-up (no time): the file cache, the mmap cache and every NIC cache see the
  // trace's first `requests` requests, split evenly across the NICs.
  void warm(std::uint64_t requests);
  void start();
  Time busy_total(Time now) const { return cpu_.total(now); }
  Time disk_busy_total(Time now) const { return disk_.total(now); }
  const WebPort& port(unsigned i) const { return ports_[i]; }
  // The trace's fitted requests per persistent connection (0 in the config = this).
  static std::int64_t fitted_requests_per_connection(WebTraceId trace);

 private:
  enum class Task { None, Interrupt, Serve, Send };
  enum Tag : std::uint32_t { kTaskDone = 1, kStart = 2, kDiskDone = 3 };
  struct Irq final : InterruptLine {
    WebServer* server = nullptr;
    unsigned nic = 0;
    RecordId raised = 0;  // the latest InterruptRaise on this line
    void raise_interrupt(std::uint32_t, RecordId r) override {
      raised = r;
      server->interrupt(nic);
    }
  };
  struct Job {  // a request the server has taken
    unsigned nic;
    std::uint32_t connection;
    std::uint64_t index;
    RecordId cause = 0;  // its latest record: the request delivered, served, sent (trace flows)
  };
  struct Sending {  // a response being posted to its NIC, packet by packet
    Job job;
    ResponsePlan plan;
    std::size_t next_command = 0;
    std::uint32_t next_packet = 0;
  };
  void fire(std::uint32_t tag) override;
  void pio_space() override { flush_pio(); }
  void pio_read_done(std::uint32_t value) override;  // the send consumer index (PARALLEL)
  void bus_done(const BusTransaction& txn) override;
  void bus_retry() override { pump_disk_dma(); }

  void interrupt(unsigned nic);
  void dispatch();
  void begin(Task t, Time cost, std::uint32_t trace_task);
  Time serve_begin(const Job& job);
  void serve_done();
  bool send_ready(unsigned nic);
  Time send_begin(unsigned nic);
  void send_done();
  Time interrupt_begin(unsigned nic);
  void interrupt_done();
  void flush_pio();
  void post(unsigned nic, Mailbox box, std::int64_t value, RecordId cause = 0);  // after the task
  void start_response(const Job& job);
  void plan_plain(const WebRequest& q, ResponsePlan* plan) const;
  bool file_cache_touch(std::uint32_t file, std::uint32_t bytes);  // true on a hit
  bool mmap_touch(std::uint32_t file);                             // true if mapped already
  void pump_disk_dma();
  Time scaled(Time t) const;
  std::int64_t requests_per_connection() const;

  SimContext* ctx_;
  WebServerConfig cfg_;
  Segmentation seg_;
  NicCacheConfig cache_cfg_;
  std::uint32_t nics_;
  std::uint64_t disk_burst_;
  HostBridge* bridge_;
  IoBus* bus_;
  const std::vector<WebRequest>* trace_;
  WebCounters* c_;
  WebTraceId trace_id_;
  bool from_log_;
  bool consumer_by_pio_;  // the driver reads the send consumer index by PIO
  std::vector<WebPort> ports_;
  std::vector<std::unique_ptr<Irq>> irqs_;
  std::vector<std::uint64_t> reclaimed_;  // send descriptors recycled, per NIC
  std::vector<std::deque<Sending>> sending_;
  std::deque<Job> accepted_;  // requests read from the connections, not yet served
  std::deque<unsigned> interrupts_;
  std::size_t next_sender_ = 0;
  BusyTime cpu_, disk_;
  Task task_ = Task::None;
  unsigned task_nic_ = 0;
  Job task_job_{};
  bool task_needs_disk_ = false;
  std::uint64_t isr_receives_ = 0, isr_completions_ = 0;
  std::uint32_t send_packets_ = 0;  // of the current send task
  bool started_ = false;
  bool blocked_on_disk_ = false;  // the server process waits for a disk read
  Job disk_job_{};
  std::uint64_t disk_dma_left_ = 0;
  bool disk_dma_active_ = false;
  bool stalled_on_pio_ = false;
  PioQueue pio_;
  std::uint64_t served_on_connection_ = 0;

  FileLru file_cache_, mapped_, cpu_cache_;
  // The state a warm-up leaves, kept for the next runs with the same inputs (a knob that
  // changes only the timed run, e.g. the CPU's clock, finds its warm-up done).
  struct Warmed;
  static std::vector<std::unique_ptr<Warmed>>& warmed();
  bool warm_from_memo(std::uint64_t requests);
  // The warm-up's requests [from, to): replayed through the file cache alone, or (prefix) through
  // every cache. warm() calls it a piece at a time: in WebAssembly a function runs as first
  // (quickly, not well) compiled until it is called again, so one long loop would never run the
  // optimised code (in wasm under Node, the anatomy preset's warm-up 97 -> 82 ms).
  static constexpr std::uint64_t kWarmPiece = 4096;
  [[gnu::noinline]] void warm_piece(std::uint64_t from, std::uint64_t to, bool prefix,
                                    ResponsePlan* plan);
  void warm_to_memo(std::uint64_t requests);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> evicted_;  // (file, bytes)
};

}  // namespace nicsim
