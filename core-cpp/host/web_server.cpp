#include "host/web_server.hpp"

#include <algorithm>
#include <memory>
#include <string>

namespace nicsim {

namespace {
constexpr std::uint32_t kNone = 0xFFFFFFFFu;
constexpr std::uint32_t kPageBytes = 4096;  // the OS page (the thesis §4.4.2)

// Requests per persistent connection, per trace (chosen, fitted to Table 4.4's request rates of
// the CPU-bound IBM and World Cup with the other costs fixed; the thesis's replayer groups a
// client's requests within 15 s into one connection, §4.4.3, and the traces' clients are not
// published).
constexpr std::int64_t kFittedRequestsPerConnection[] = {
    4,   // Berkeley (disk-bound: hardly matters)
    12,  // IBM: 19443 req/s, CPU-bound
    12,  // NASA: cheap enough per request that the bus, not the CPU, limits it without a cache
    2,   // Rice: bus-bound without a cache, the CPU limits it at 16 MB (+14%, not the +51% its
         // content reduction allows); fitted over a 1 s window whose responses average the
         // trace's 35 KB (shorter windows sample its mix unevenly)
    6,   // World Cup: 13551 req/s, CPU-bound
};
constexpr std::int64_t kLogRequestsPerConnection = 6;  // chosen: between the traces
}  // namespace

// ---- file LRU ------------------------------------------------------------------------------

void FileLru::unlink(std::uint32_t file, Entry& e) {
  if (e.prev != kNone)
    map.present(e.prev).next = e.next;
  else
    head = e.next;
  if (e.next != kNone)
    map.present(e.next).prev = e.prev;
  else
    tail = e.prev;
  e.prev = e.next = kNone;
  (void)file;
}

void FileLru::push_back(std::uint32_t file, Entry& e) {
  e.prev = tail;
  e.next = kNone;
  if (tail != kNone)
    map.present(tail).next = file;
  else
    head = file;
  tail = file;
}

bool FileLru::touch(std::uint32_t file, std::uint32_t bytes,
                    std::vector<std::pair<std::uint32_t, std::uint32_t>>* evicted) {
  auto it = map.find(file);
  if (it != map.end()) {
    unlink(file, it->second);
    push_back(file, it->second);
    return true;
  }
  // A miss: make room (least recently used first), then keep it.
  while (used + bytes > capacity && head != kNone) {
    const std::uint32_t victim = head;
    Entry& v = map.present(victim);
    unlink(victim, v);
    const std::uint32_t victim_bytes = v.bytes;  // read before erase frees the entry
    used -= victim_bytes;
    map.erase(victim);
    if (evicted) evicted->push_back({victim, victim_bytes});
  }
  if (bytes > capacity) return false;  // larger than the whole cache: never kept
  Entry& e = map[file];
  e.bytes = bytes;
  used += bytes;
  push_back(file, e);
  return false;
}

// ---- client --------------------------------------------------------------------------------

WebClient::WebClient(SimContext* ctx, const Config& cfg, unsigned nic, WebNicFlow* flow,
                     const std::vector<WebRequest>* trace, WebCounters* counters)
    : ctx_(ctx),
      server_(cfg.server),
      nic_(nic),
      nics_(static_cast<std::uint32_t>(cfg.nics)),
      flow_(flow),
      trace_(trace),
      counters_(counters) {
  const std::uint64_t warm = std::min<std::uint64_t>(
      cfg.workload.warmup_requests, trace->size() > nics_ ? trace->size() - nics_ : 0);
  // This NIC's share: every nics-th request from the first one after the warm-up (§4.4.3).
  first_ = warm + (nic + nics_ - warm % nics_) % nics_;
  next_ = first_;
}

void WebClient::start() {
  for (std::uint32_t c = 0; c < static_cast<std::uint32_t>(server_.connections); ++c) ask(c);
  send_next();
}

void WebClient::ask(std::uint32_t connection) {
  if (next_ >= trace_->size()) next_ = first_;  // the trace replayed again (caches stay warm)
  const std::uint64_t index = next_;
  next_ += nics_;
  const std::uint32_t packet = ctx_->new_packet();
  // The request carries the ACK of what came before it on this connection.
  unacked_ = 0;
  flow_->requests.push_back({packet, connection, index});
  const RecordId asked = ctx_->record(component_id(Component::Peer, nic_),
                                      rec::WebAsk()
                                          .request(static_cast<std::uint32_t>(index))
                                          .packet(packet)
                                          .nic(nic_)
                                          .connection(connection));
  const std::uint32_t frame = static_cast<std::uint32_t>(
      std::max<std::int64_t>(kMinFrameBytes, 66 + server_.request_bytes + kCrcBytes));
  // The request's frame follows from the ask.
  out_.push_back(Frame{packet, frame, 0, asked});
}

void WebClient::send_next() {
  while (!out_.empty()) {
    if (!to_nic_->ready()) return;  // the wire calls link_ready when free
    Frame out = out_.front();
    out_.pop_front();
    // The frame on the wire follows from its PeerTxStart, which follows from the frame's cause.
    out.cause =
        ctx_->record(component_id(Component::Peer, nic_),
                     rec::PeerTxStart().packet(out.packet).frame_bytes(out.frame_bytes), out.cause);
    to_nic_->send(out);
  }
}

void WebClient::frame_arrived(const Frame& f) {
  const RecordId got =
      ctx_->record(component_id(Component::Peer, nic_),
                   rec::PeerRxDone().packet(f.packet).frame_bytes(f.frame_bytes), f.cause);
  counters_->content_bytes += f.payload_bytes;
  if (flow_->responses.empty()) {
    ctx_->fail("web client: a segment arrived with no response on the wire");
    return;
  }
  WebNicFlow::Response& r = flow_->responses.front();
  r.received_bytes += f.payload_bytes;
  if (++r.received == r.packets) {
    // Every content byte crosses the wire exactly once, from main memory or a NIC cache.
    if (r.received_bytes != r.content_bytes) {
      ctx_->fail("web client: a response arrived with " + std::to_string(r.received_bytes) +
                 " content bytes of " + std::to_string(r.content_bytes));
      return;
    }
    ++counters_->responses;
    ctx_->record(component_id(Component::Peer, nic_),
                 rec::WebResponseDone()
                     .request(static_cast<std::uint32_t>(r.index))
                     .nic(nic_)
                     .content_bytes(r.content_bytes)
                     .connection(r.connection),
                 got);
    const std::uint32_t connection = r.connection;
    flow_->responses.pop_front();
    ask(connection);  // infinite demand: the next request at once
  } else if (++unacked_ >= static_cast<std::uint32_t>(server_.ack_every)) {
    unacked_ = 0;
    const std::uint32_t ack =
        static_cast<std::uint32_t>(std::max<std::int64_t>(kMinFrameBytes, 66 + kCrcBytes));
    out_.push_back(Frame{ctx_->new_packet(), ack, 0});
  }
  send_next();
}

// ---- server --------------------------------------------------------------------------------

WebServer::WebServer(SimContext* ctx, const Config& cfg, HostBridge* bridge, IoBus* bus,
                     const std::vector<WebRequest>* trace, WebCounters* counters)
    : ctx_(ctx),
      cfg_(cfg.server),
      cache_cfg_(cfg.nic_cache),
      nics_(static_cast<std::uint32_t>(cfg.nics)),
      disk_burst_(static_cast<std::uint64_t>(std::max<std::int64_t>(cfg.disk.burst_bytes, 8))),
      bridge_(bridge),
      bus_(bus),
      trace_(trace),
      c_(counters),
      trace_id_(cfg.workload.trace),
      from_log_(cfg.workload.trace_from_log),
      consumer_by_pio_(cfg.driver.send_consumer_by_pio) {
  seg_.http_header_bytes = static_cast<std::uint32_t>(cfg_.http_header_bytes);
  file_cache_.capacity = static_cast<std::uint64_t>(cfg_.file_cache_mb) << 20;
  mapped_.capacity = static_cast<std::uint64_t>(cfg_.mapped_files);
  cpu_cache_.capacity = static_cast<std::uint64_t>(cfg_.cpu_cache_kb) * 1024;
}

void WebServer::pio_read_done(std::uint32_t value) {
  DescriptorRing& tx = *ports_[task_nic_].rings.send;
  tx.set_cons(Copy::Host, tx.unwrap(tx.cons(Copy::Host), value));
  begin(Task::Interrupt, interrupt_begin(task_nic_), 1);
}

std::int64_t WebServer::fitted_requests_per_connection(WebTraceId trace) {
  return kFittedRequestsPerConnection[static_cast<int>(trace)];
}

std::int64_t WebServer::requests_per_connection() const {
  if (cfg_.requests_per_connection > 0) return cfg_.requests_per_connection;
  return from_log_ ? kLogRequestsPerConnection : fitted_requests_per_connection(trace_id_);
}

Time WebServer::scaled(Time t) const {
  // Costs are given at the 2200+'s 1.8 GHz (Table 4.2) and scale with the clock.
  return t * 1800 / cfg_.cpu_mhz;
}

InterruptLine* WebServer::attach(Rings rings, MailboxTarget* nic, WebNicFlow* flow) {
  WebPort p;
  p.rings = rings;
  p.nic = nic;
  p.flow = flow;
  // §4.3.2: the NIC cache is used in response to sendfile.
  if (cache_cfg_.capacity_bytes > 0 && cfg_.api == SendApi::Sendfile)
    p.cache = std::make_unique<NicDataCache>(cache_cfg_);
  ports_.push_back(std::move(p));
  auto irq = std::make_unique<Irq>();
  irq->server = this;
  irq->nic = static_cast<unsigned>(ports_.size() - 1);
  irqs_.push_back(std::move(irq));
  reclaimed_.push_back(0);
  sending_.emplace_back();
  return irqs_.back().get();
}

bool WebServer::file_cache_touch(std::uint32_t file, std::uint32_t bytes) {
  evicted_.clear();
  const bool hit = file_cache_.touch(file, bytes, &evicted_);
  // Inclusion (§4.3.2): the NIC caches' copies of a file that left the file cache must not be
  // used again. Lazily: the file's revision moves on, so its blocks are dropped at their next
  // lookup (O(1) per file however many blocks it has).
  for (const auto& ev : evicted_) {
    for (WebPort& p : ports_)
      if (p.cache) p.cache->file_modified(ev.first);
  }
  return hit;
}

bool WebServer::mmap_touch(std::uint32_t file) { return mapped_.touch(file, 1, nullptr); }

struct WebServer::Warmed {
  // The inputs: a warm-up is a function of these alone.
  std::vector<WebRequest> trace;  // compared in full: the same requests, not the same address
  std::uint64_t requests = 0;
  std::uint32_t nics = 0;
  SendApi api = SendApi::Sendfile;
  std::uint64_t file_cache = 0, mapped = 0, cpu_cache = 0;
  NicCacheConfig cache;
  std::uint32_t segment = 0, network_header = 0, http_header = 0;
  // What it leaves.
  FileLru file_lru, mapped_lru, cpu_lru;
  std::vector<NicDataCache> nic_caches;
};

namespace {
// chosen: four warm-ups (a main run and a sweep's points alternate), each at most about 16 MB
// of requests and 16 MB of NIC cache slots.
constexpr std::size_t kWarmedKept = 4;
constexpr std::size_t kWarmedMaxRequests = 2u << 20;
constexpr std::uint64_t kWarmedMaxSlots = 256u << 10;
}  // namespace

bool WebServer::warm_from_memo(std::uint64_t requests) {
  auto& list = warmed();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Warmed& w = *list[i];
    if (w.requests != requests || w.nics != nics_ || w.api != cfg_.api ||
        w.file_cache != file_cache_.capacity || w.mapped != mapped_.capacity ||
        w.cpu_cache != cpu_cache_.capacity || w.cache.capacity_bytes != cache_cfg_.capacity_bytes ||
        w.cache.block_bytes != cache_cfg_.block_bytes ||
        w.cache.replacement != cache_cfg_.replacement || w.segment != seg_.segment_bytes ||
        w.network_header != seg_.network_header_bytes || w.http_header != seg_.http_header_bytes ||
        w.trace.size() != trace_->size() || w.nic_caches.size() != ports_.size())
      continue;
    bool same = true;
    for (std::size_t k = 0; same && k < w.trace.size(); ++k)
      same = w.trace[k].file == (*trace_)[k].file && w.trace[k].bytes == (*trace_)[k].bytes;
    if (!same) continue;
    for (std::size_t k = 0; k < ports_.size(); ++k)
      if (ports_[k].cache) *ports_[k].cache = w.nic_caches[k];
    file_cache_ = w.file_lru;
    mapped_ = w.mapped_lru;
    cpu_cache_ = w.cpu_lru;
    std::rotate(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(i),
                list.begin() + static_cast<std::ptrdiff_t>(i + 1));  // most recent first
    return true;
  }
  return false;
}

void WebServer::warm_to_memo(std::uint64_t requests) {
  std::uint64_t slots = 0;
  for (const WebPort& p : ports_)
    if (p.cache) slots += p.cache->slots();
  if (trace_->size() > kWarmedMaxRequests || slots > kWarmedMaxSlots) return;
  auto w = std::make_unique<Warmed>();
  w->trace = *trace_;
  w->requests = requests;
  w->nics = nics_;
  w->api = cfg_.api;
  w->file_cache = file_cache_.capacity;
  w->mapped = mapped_.capacity;
  w->cpu_cache = cpu_cache_.capacity;
  w->cache = cache_cfg_;
  w->segment = seg_.segment_bytes;
  w->network_header = seg_.network_header_bytes;
  w->http_header = seg_.http_header_bytes;
  w->file_lru = file_cache_;
  w->mapped_lru = mapped_;
  w->cpu_lru = cpu_cache_;
  // A port without a cache keeps a placeholder, never copied back.
  for (const WebPort& p : ports_)
    w->nic_caches.push_back(p.cache ? *p.cache : NicDataCache(NicCacheConfig{512, 512}));
  auto& list = warmed();
  if (list.size() >= kWarmedKept) list.pop_back();
  list.insert(list.begin(), std::move(w));
}

std::vector<std::unique_ptr<WebServer::Warmed>>& WebServer::warmed() {
  thread_local std::vector<std::unique_ptr<WebServer::Warmed>> list;  // one per thread
  return list;
}

void WebServer::warm(std::uint64_t requests) {
  if (warm_from_memo(requests)) return;
  // The OS file cache starts as after one replay of the whole trace (chosen: the thesis's
  // month-long traces make first-touch misses a few per cent of requests at most, a short
  // trace would make them the rule); then everything sees the warm-up prefix in order.
  // In pieces of kWarmPiece requests: see warm_piece.
  for (std::uint64_t i = 0; i < trace_->size(); i += kWarmPiece)
    warm_piece(i, std::min<std::uint64_t>(trace_->size(), i + kWarmPiece), false, nullptr);
  ResponsePlan plan;
  const std::uint64_t n = std::min<std::uint64_t>(requests, trace_->size());
  for (WebPort& p : ports_)
    if (p.cache) p.cache->begin_warm();
  for (std::uint64_t i = 0; i < n; i += kWarmPiece)
    warm_piece(i, std::min(n, i + kWarmPiece), true, &plan);
  for (WebPort& p : ports_)
    if (p.cache) p.cache->end_warm();
  warm_to_memo(requests);
}

void WebServer::warm_piece(std::uint64_t from, std::uint64_t to, bool prefix, ResponsePlan* plan) {
  if (!prefix) {
    for (std::uint64_t i = from; i < to; ++i)
      file_cache_touch((*trace_)[i].file, (*trace_)[i].bytes);
    return;
  }
  for (std::uint64_t i = from; i < to; ++i) {
    const WebRequest& q = (*trace_)[i];
    file_cache_touch(q.file, q.bytes);
    if (cfg_.api == SendApi::Write) {
      mmap_touch(q.file);
      cpu_cache_.touch(q.file, q.bytes, nullptr);
    }
    WebPort& p = ports_[i % nics_];
    if (p.cache) warm_response(*p.cache, q.file, q.bytes, seg_, plan);
  }
}

void WebServer::start() {
  // Pre-allocate receive buffers on every NIC (thesis §2.3.2).
  for (unsigned i = 0; i < ports_.size(); ++i) {
    DescriptorRing& rx = *ports_[i].rings.receive;
    rx.post_receive_buffers(static_cast<std::uint64_t>(rx.size() - 1), kReceiveBufferBytes);
    post(i, Mailbox::ReceiveProducer, rx.slot(rx.prod(Copy::Host)));
  }
  started_ = true;
  flush_pio();
}

void WebServer::interrupt(unsigned nic) {
  if (std::find(interrupts_.begin(), interrupts_.end(), nic) == interrupts_.end())
    interrupts_.push_back(nic);
  dispatch();
}

void WebServer::begin(Task t, Time cost, std::uint32_t trace_task) {
  task_ = t;
  cpu_.set_busy(ctx_->now(), true);
  ctx_->record(Component::HostCpu, rec::HostCpuBusy()
                                       .task(trace_task)
                                       .duration_ps(static_cast<std::uint64_t>(cost))
                                       .nic(task_nic_));
  ctx_->after(cost, this, kTaskDone);
}

void WebServer::dispatch() {
  if (task_ != Task::None || stalled_on_pio_ || !started_) return;
  if (!interrupts_.empty()) {
    task_nic_ = interrupts_.front();
    interrupts_.pop_front();
    if (consumer_by_pio_) {
      // The Tigon's PARALLEL firmware (the thesis §3.2.2): the send consumer index is a
      // register read; the CPU stalls, busy, until the NIC's answer crosses the bus.
      task_ = Task::Interrupt;
      cpu_.set_busy(ctx_->now(), true);
      bridge_->read(ports_[task_nic_].nic, task_nic_, Register::SendConsumer, this);
      return;
    }
    begin(Task::Interrupt, interrupt_begin(task_nic_), 1);
    return;
  }
  // The server process: a new request, unless it waits for the disk.
  if (!blocked_on_disk_ && !accepted_.empty()) {
    task_job_ = accepted_.front();
    accepted_.pop_front();
    task_nic_ = task_job_.nic;
    begin(Task::Serve, serve_begin(task_job_), 0);  // the send path: serving a request
    return;
  }
  // The kernel's TCP output: segments of responses already handed over, NICs in turn.
  for (std::size_t k = 0; k < ports_.size(); ++k) {
    const unsigned n = static_cast<unsigned>((next_sender_ + k) % ports_.size());
    if (!send_ready(n)) continue;
    next_sender_ = (n + 1) % ports_.size();
    task_nic_ = n;
    begin(Task::Send, send_begin(n), 0);
    return;
  }
  cpu_.set_busy(ctx_->now(), false);
}

void WebServer::fire(std::uint32_t tag) {
  if (tag == kDiskDone) {
    // The head is over the data: DMA it into main memory through the disk controller.
    disk_dma_left_ = (*trace_)[disk_job_.index].bytes;
    if (disk_dma_left_ == 0) {
      bus_done(BusTransaction{});
      return;
    }
    pump_disk_dma();
    return;
  }
  switch (task_) {
    case Task::Interrupt:
      interrupt_done();
      break;
    case Task::Serve:
      serve_done();
      break;
    case Task::Send:
      send_done();
      break;
    case Task::None:
      ctx_->fail("web server: a task ended with none running");
      return;
  }
  task_ = Task::None;
  flush_pio();
}

// ---- serving a request -----------------------------------------------------------------------

Time WebServer::serve_begin(const Job& job) {
  const WebRequest& q = (*trace_)[job.index];
  ++c_->served;
  // A persistent connection's set-up and tear-down, shared by its requests.
  Time cost = scaled(cfg_.request_cost) + scaled(cfg_.connection_cost) / requests_per_connection();
  // Table 4.3's thttpd ran without its file-info caching: a stat() and open() per request.
  cost += scaled(cfg_.file_info_cost);
  const bool hit = file_cache_touch(q.file, q.bytes);
  if (hit) ++c_->file_cache_hits;
  task_needs_disk_ = !hit;
  if (cfg_.api == SendApi::Write) {
    // mmap the file (unless thttpd keeps it mapped) and write it: a copy into socket buffers.
    if (!mmap_touch(q.file)) {
      ++c_->mmap_misses;
      const Time pages = (q.bytes + kPageBytes - 1) / kPageBytes;
      cost += pages * scaled(cfg_.map_cost_per_page);
    }
    // The copy reads the file's pages: from the CPU's L2 if this file was copied recently
    // (small hot files: IBM, World Cup), else from DRAM, which the NICs' DMA reads share
    // (large files: NASA, Rice). Table 4.3's penalty is largest where the copies miss.
    const bool warm = cpu_cache_.touch(q.file, q.bytes, nullptr);
    if (!warm) ++c_->copy_misses;
    c_->copied_bytes += q.bytes;
    cost += scaled(warm ? cfg_.copy_cached_cost_per_kb : cfg_.copy_cost_per_kb) *
            static_cast<Time>(q.bytes) / 1024;
  }
  const RecordId served = ctx_->record(Component::HostCpu,
                                       rec::WebServe()
                                           .request(static_cast<std::uint32_t>(job.index))
                                           .file(q.file)
                                           .content_bytes(q.bytes)
                                           .nic(job.nic)
                                           .file_cache(hit ? 1 : 0),
                                       job.cause);
  task_job_.cause = served;  // `job` is task_job_: what follows the serving follows from it
  return cost;
}

void WebServer::serve_done() {
  if (!task_needs_disk_) {
    start_response(task_job_);
    return;
  }
  // A file-cache miss: the single server process waits for the disk (§4.1.1 step 3).
  blocked_on_disk_ = true;
  disk_job_ = task_job_;
  const WebRequest& q = (*trace_)[task_job_.index];
  ++c_->disk_reads;
  c_->disk_bytes += q.bytes;
  disk_.set_busy(ctx_->now(), true);
  ctx_->record(Component::Disk,
               rec::DiskRead()
                   .request(static_cast<std::uint32_t>(task_job_.index))
                   .file(q.file)
                   .bytes(q.bytes)
                   .phase(0),
               task_job_.cause);
  const Time transfer = static_cast<Time>(q.bytes) * 1000000 / cfg_.disk_mbps;  // ps
  ctx_->after(cfg_.disk_latency + transfer, this, kDiskDone);
}

void WebServer::pump_disk_dma() {
  if (disk_dma_active_ || disk_dma_left_ == 0) return;
  BusTransaction txn;
  txn.master = Component::Disk;
  txn.purpose = Purpose::DiskTransfer;
  txn.bytes = static_cast<std::uint32_t>(std::min(disk_dma_left_, disk_burst_));
  txn.read = false;  // a disk read lands in memory: a DMA write
  if (bus_->try_start(txn, this)) disk_dma_active_ = true;
}

void WebServer::bus_done(const BusTransaction& txn) {
  disk_dma_active_ = false;
  disk_dma_left_ -= std::min<std::uint64_t>(disk_dma_left_, txn.bytes);
  if (disk_dma_left_ > 0) {
    pump_disk_dma();
    return;
  }
  const WebRequest& q = (*trace_)[disk_job_.index];
  disk_.set_busy(ctx_->now(), false);
  disk_job_.cause = ctx_->record(Component::Disk,
                                 rec::DiskRead()
                                     .request(static_cast<std::uint32_t>(disk_job_.index))
                                     .file(q.file)
                                     .bytes(q.bytes)
                                     .phase(1),
                                 disk_job_.cause);
  blocked_on_disk_ = false;
  start_response(disk_job_);
  dispatch();
}

void WebServer::plan_plain(const WebRequest& q, ResponsePlan* plan) const {
  // No NIC cache: each segment is its headers and its content, both nic_pkt_append_mm.
  plan->commands.clear();
  plan->packets = 0;
  plan->header_bytes = plan->content_bytes = plan->content_from_cache = 0;
  plan->content_inserted = plan->content_from_memory = 0;
  std::uint64_t offset = 0;
  const std::uint64_t total = q.bytes + seg_.http_header_bytes;
  std::uint64_t pos = 0;  // of the HTTP message (header then content)
  do {
    const std::uint64_t take = std::min<std::uint64_t>(seg_.segment_bytes, total - pos);
    const std::uint64_t http = pos < seg_.http_header_bytes
                                   ? std::min<std::uint64_t>(take, seg_.http_header_bytes - pos)
                                   : 0;
    const std::uint64_t content = take - http;
    CacheCommand h;
    h.kind = CacheCommandKind::AppendMm;
    h.source = MmSource::Headers;
    h.first = true;
    h.last = content == 0;
    h.packet = plan->packets;
    h.len = static_cast<std::uint32_t>(seg_.network_header_bytes + http);
    h.http_bytes = static_cast<std::uint32_t>(http);
    plan->commands.push_back(h);
    plan->header_bytes += h.len;
    if (content > 0) {
      CacheCommand d;
      d.kind = CacheCommandKind::AppendMm;
      d.source = MmSource::FileContent;
      d.last = true;
      d.packet = plan->packets;
      d.len = static_cast<std::uint32_t>(content);
      d.file_offset = offset;
      plan->commands.push_back(d);
      offset += content;
      plan->content_bytes += content;
      plan->content_from_memory += content;
    }
    pos += take;
    ++plan->packets;
  } while (pos < total);
}

void WebServer::start_response(const Job& job) {
  Sending s;
  s.job = job;
  const WebRequest& q = (*trace_)[job.index];
  WebPort& p = ports_[job.nic];
  if (p.cache) {
    p.cache->set_request(static_cast<std::uint32_t>(job.index));
    plan_response(*p.cache, Response{q.file, 0, q.bytes, true}, seg_, &s.plan);
  } else {
    plan_plain(q, &s.plan);
  }
  const bool write = cfg_.api == SendApi::Write;
  s.job.cause = ctx_->record(Component::HostCpu,
                             rec::WebSend()
                                 .request(static_cast<std::uint32_t>(job.index))
                                 .nic(job.nic)
                                 .packets(s.plan.packets)
                                 .api(write ? 1 : 0)
                                 .bytes_copied(write ? q.bytes : 0),
                             job.cause);
  c_->planned_content += s.plan.content_bytes;
  c_->planned_from_cache += s.plan.content_from_cache;
  c_->planned_inserted += s.plan.content_inserted;
  p.flow->responses.push_back(
      {job.connection, job.index, s.plan.packets, static_cast<std::uint32_t>(q.bytes)});
  sending_[job.nic].push_back(std::move(s));
}

// ---- TCP output and the driver's send descriptors (Fig 4.12) ---------------------------------

bool WebServer::send_ready(unsigned nic) {
  if (sending_[nic].empty()) return false;
  const Sending& s = sending_[nic].front();
  // The next packet's descriptors must fit in the ring (one slot kept empty).
  std::size_t n = 0;
  for (std::size_t k = s.next_command;
       k < s.plan.commands.size() && s.plan.commands[k].packet == s.next_packet; ++k)
    ++n;
  const DescriptorRing& tx = *ports_[nic].rings.send;
  const std::int64_t used = static_cast<std::int64_t>(tx.prod(Copy::Host) - reclaimed_[nic]);
  return used + static_cast<std::int64_t>(n) <= tx.size() - 1;
}

Time WebServer::send_begin(unsigned nic) {
  // Count the segments this task posts (ring space permitting); the descriptors are written
  // when it ends.
  send_packets_ = 0;
  const Sending& s = sending_[nic].front();
  const DescriptorRing& tx = *ports_[nic].rings.send;
  std::int64_t free =
      tx.size() - 1 - static_cast<std::int64_t>(tx.prod(Copy::Host) - reclaimed_[nic]);
  std::size_t k = s.next_command;
  std::uint32_t packet = s.next_packet;
  while (packet < s.plan.packets &&
         send_packets_ < static_cast<std::uint32_t>(cfg_.packets_per_send)) {
    std::size_t n = 0;
    while (k + n < s.plan.commands.size() && s.plan.commands[k + n].packet == packet) ++n;
    if (static_cast<std::int64_t>(n) > free) break;
    free -= static_cast<std::int64_t>(n);
    k += n;
    ++packet;
    ++send_packets_;
  }
  return scaled(cfg_.packet_cost) * send_packets_;
}

void WebServer::send_done() {
  WebPort& p = ports_[task_nic_];
  Sending& s = sending_[task_nic_].front();
  DescriptorRing& tx = *p.rings.send;
  std::uint64_t idx = tx.prod(Copy::Host);
  const std::uint64_t base = idx;
  RecordId last_command = 0;
  for (std::uint32_t n = 0; n < send_packets_; ++n) {
    const std::uint32_t packet = ctx_->new_packet();
    ++c_->packets_posted;
    // The segment's headers and content, for the request-path view (Figs 4.1 and 4.2).
    std::uint32_t headers = 0, content = 0;
    for (std::size_t k = s.next_command;
         k < s.plan.commands.size() && s.plan.commands[k].packet == s.next_packet; ++k) {
      const CacheCommand& cmd = s.plan.commands[k];
      if (cmd.kind == CacheCommandKind::Insert) continue;
      (cmd.kind == CacheCommandKind::AppendMm && cmd.source == MmSource::Headers ? headers
                                                                                 : content) +=
          cmd.len;
    }
    const RecordId segment = ctx_->record(component_id(Component::Driver, task_nic_),
                                          rec::WebSegment()
                                              .packet(packet)
                                              .request(static_cast<std::uint32_t>(s.job.index))
                                              .nic(task_nic_)
                                              .header_bytes(headers)
                                              .content_bytes(content),
                                          s.job.cause);
    while (s.next_command < s.plan.commands.size() &&
           s.plan.commands[s.next_command].packet == s.next_packet) {
      const CacheCommand& cmd = s.plan.commands[s.next_command++];
      Descriptor d;
      d.packet = packet;
      d.bytes = cmd.len;
      d.end = cmd.last;
      switch (cmd.kind) {
        case CacheCommandKind::AppendMm:
          d.command = BdCommand::AppendMm;
          if (cmd.source == MmSource::Headers) {
            // Fig 4.6 counts the TCP/IP and Ethernet headers apart from the HTTP header.
            d.header_bytes = cmd.len - cmd.http_bytes;
            d.app_header_bytes = cmd.http_bytes;
          } else {
            d.payload = cmd.len;
          }
          break;
        case CacheCommandKind::AppendCache:
          d.command = BdCommand::AppendCache;
          d.payload = cmd.len;
          break;
        case CacheCommandKind::Insert:
          d.command = BdCommand::CacheInsert;
          d.end = false;
          break;
      }
      tx.desc(Copy::Host, idx) = d;
      last_command = tx.desc(Copy::Host, idx).cause =
          ctx_->record(component_id(Component::Driver, task_nic_),
                       rec::CacheCommand()
                           .packet(packet)
                           .command(static_cast<std::uint32_t>(cmd.kind))
                           .bytes(cmd.len)
                           .cache_offset(static_cast<std::uint32_t>(cmd.ncoffset))
                           .slot(static_cast<std::uint32_t>(tx.slot(idx))),
                       segment);
      ++idx;
    }
    ++s.next_packet;
  }
  c_->descriptors += idx - base;
  tx.set_prod(Copy::Host, idx);
  const RecordId posted = ctx_->record(component_id(Component::Driver, task_nic_),
                                       rec::DriverPostSendBd()
                                           .packet(ctx_->new_packet())
                                           .slot(static_cast<std::uint32_t>(tx.slot(base)))
                                           .frame_bytes(static_cast<std::uint32_t>(idx - base)),
                                       last_command);
  post(task_nic_, Mailbox::SendProducer, tx.slot(tx.prod(Copy::Host)), posted);
  if (s.next_packet >= s.plan.packets) sending_[task_nic_].pop_front();
}

// ---- interrupts: ACKs and requests in, send descriptors recycled -----------------------------

Time WebServer::interrupt_begin(unsigned nic) {
  WebPort& p = ports_[nic];
  ++c_->interrupts;
  isr_receives_ = p.rings.ret->prod(Copy::Host) - p.rings.ret->cons(Copy::Host);
  isr_completions_ = p.rings.send->cons(Copy::Host) - reclaimed_[nic];
  ctx_->record(component_id(Component::HostCpu, nic),
               rec::IsrStart().interrupt(static_cast<std::uint32_t>(c_->interrupts)),
               irqs_[nic]->raised);
  return scaled(cfg_.interrupt_cost) + static_cast<Time>(isr_receives_) * scaled(cfg_.receive_cost);
}

void WebServer::interrupt_done() {
  const unsigned nic = task_nic_;
  WebPort& p = ports_[nic];
  DescriptorRing& ret = *p.rings.ret;
  DescriptorRing& rx = *p.rings.receive;
  for (std::uint64_t i = 0; i < isr_receives_; ++i) {
    const std::uint64_t c = ret.cons(Copy::Host);
    const Descriptor d = ret.desc(Copy::Host, c);
    ret.set_cons(Copy::Host, c + 1);
    rx.set_cons(Copy::Host, rx.cons(Copy::Host) + 1);
    const RecordId delivered =
        ctx_->record(component_id(Component::Driver, nic),
                     rec::HostDeliver().packet(d.packet).payload_bytes(d.bytes), d.cause);
    // Frames keep their order on the wire and through the NIC, so the requests arrive in the
    // order sent; one whose frame was dropped is taken as retransmitted now (TCP is not
    // simulated).
    bool request = false;
    while (!p.flow->requests.empty() && p.flow->requests.front().packet <= d.packet) {
      const WebNicFlow::Request r = p.flow->requests.front();
      p.flow->requests.pop_front();
      ++c_->requests_received;
      accepted_.push_back({nic, r.connection, r.index, r.packet == d.packet ? delivered : 0});
      request = request || r.packet == d.packet;
    }
    if (!request) ++c_->acks_received;
  }
  if (isr_receives_ > 0) {
    rx.post_receive_buffers(isr_receives_, kReceiveBufferBytes);
    post(nic, Mailbox::ReceiveProducer, rx.slot(rx.prod(Copy::Host)));
    post(nic, Mailbox::ReturnConsumer, ret.slot(ret.cons(Copy::Host)));
  }
  reclaimed_[nic] += isr_completions_;
  post(nic, Mailbox::InterruptAck, 0);
  ctx_->record(component_id(Component::HostCpu, nic),
               rec::IsrEnd()
                   .interrupt(static_cast<std::uint32_t>(c_->interrupts))
                   .packets_received(static_cast<std::uint32_t>(isr_receives_))
                   .sends_completed(static_cast<std::uint32_t>(isr_completions_)));
}

void WebServer::post(unsigned nic, Mailbox box, std::int64_t value, RecordId cause) {
  pio_.push_back({ports_[nic].nic, nic, box, static_cast<std::uint32_t>(value), cause});
}

void WebServer::flush_pio() {
  if (!pio_.drain(bridge_, this)) {
    stalled_on_pio_ = true;  // the CPU stalls, busy, until the bridge drains
    cpu_.set_busy(ctx_->now(), true);
    return;
  }
  stalled_on_pio_ = false;
  dispatch();
}

}  // namespace nicsim
