#include "offload/transfer.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include "trace/gen/trace_kinds.gen.hpp"

namespace nicsim {

// The trace's tables are the ledger's enums in the same order.
static_assert(kOffloadPurposeCount == static_cast<int>(LedgerPurpose::Count));
static_assert(kOffloadDirCount == static_cast<int>(LedgerDir::Count));

namespace {
// Slots of the E1000's rings and the offload tables, as the views number them (chosen: 256,
// Linux 2.6.9 e1000's default ring size; the paper gives no table size).
constexpr std::uint32_t kSlots = 256;
enum TableId : std::uint32_t { TxRing = 0, RxRing = 1, Requests = 2, Responses = 3 };
enum TableOp : std::uint32_t { OpPost = 0, OpFetch = 1, OpWriteBack = 2, OpTake = 3 };
constexpr int kTxFrame = 9, kRxFrame = 10;  // offloadDescriptor entries of the E1000
}  // namespace

const char* ledger_purpose_name(LedgerPurpose p) {
  switch (p) {
    case LedgerPurpose::Descriptor:
      return "descriptor";
    case LedgerPurpose::Header:
      return "header";
    case LedgerPurpose::Payload:
      return "payload";
    case LedgerPurpose::Control:
      return "ACK and handshake frames";
    case LedgerPurpose::Response:
      return "response";
    case LedgerPurpose::Index:
      return "producer index";
    case LedgerPurpose::Count:
      break;
  }
  return "?";
}

OffloadTransfer::OffloadTransfer(SimContext* ctx, const Config& cfg, IoBus* bus)
    : ctx_(ctx),
      cfg_(cfg),
      o_(cfg.offload),
      bus_(bus),
      nic_(this, Component::Nic),
      host_(this, Component::HostBridge),
      offload_(cfg.offload.interface == OffloadInterface::Offload),
      coalesce_timer_(this),
      // Neither a count nor a timer: an interrupt per frame.
      rx_coalescer_(cfg.offload.e1000_coalesce_frames > 0
                        ? static_cast<std::uint64_t>(cfg.offload.e1000_coalesce_frames)
                    : cfg.offload.e1000_coalesce_timer > 0
                        ? std::numeric_limits<std::uint64_t>::max()
                        : 1,
                    cfg.offload.e1000_coalesce_timer, 0) {
  const std::int64_t stream = o_.http_header_bytes + o_.file_bytes;
  for (std::int64_t off = 0; off < stream; off += o_.mss)
    segments_.push_back({off, std::min(o_.mss, stream - off)});
  cwnd_ = o_.init_cwnd;
  client_quick_ = o_.quick_acks;
  requests_.dir = LedgerDir::Send;
  requests_.table = Requests;
  responses_.dir = LedgerDir::Recv;
  responses_.table = Responses;
}

std::uint32_t OffloadTransfer::read_cycles() const {
  return static_cast<std::uint32_t>(
      offload_machine(static_cast<int>(o_.machine)).register_read_cycles);
}

RecordId OffloadTransfer::table_op(std::uint32_t table, std::uint32_t op, int what,
                                   std::uint32_t slot, std::uint32_t occupancy, RecordId cause) {
  // Posting and taking are the host's (the driver, OSLayer); fetches and write-backs the NIC's.
  const Component c = op == OpPost && table != Responses ? Component::Driver
                      : op == OpTake                     ? Component::Driver
                                                         : Component::Nic;
  return ctx_->record(c,
                      rec::OffloadDescriptor()
                          .table(table)
                          .op(op)
                          .what(static_cast<std::uint32_t>(what))
                          .slot(slot % kSlots)
                          .occupancy(occupancy),
                      cause);
}

void OffloadTransfer::after(Time delay, std::function<void()> f) {
  const std::uint32_t tag = next_tag_++;
  pending_.emplace(tag, std::move(f));
  ctx_->at(ctx_->now() + std::max<Time>(0, delay), this, tag);
}

void OffloadTransfer::fire(std::uint32_t tag) {
  auto it = pending_.find(tag);
  if (it == pending_.end()) return;
  std::function<void()> f = std::move(it->second);
  pending_.erase(it);
  f();
}

// ---- the bus: one master per side, descriptor fetches before data on the adapter ----

void OffloadTransfer::Master::push(Dma d, bool control) {
  d.queued = t_->ctx_->now();
  if (d.dir != LedgerDir::Count) {
    d.id = t_->ctx_->new_dma();
    d.queued_rec = t_->ctx_->record(d.read ? Component::DmaRead : Component::DmaWrite,
                                    rec::OffloadDmaQueued()
                                        .dma(d.id)
                                        .direction(static_cast<std::uint32_t>(d.dir))
                                        .purpose(static_cast<std::uint32_t>(d.purpose))
                                        .bytes(d.bytes)
                                        .frame(d.frame),
                                    d.cause);
  }
  (control ? control_ : data_).push_back(std::move(d));
  kick();
}

void OffloadTransfer::Master::kick() {
  if (active_) return;
  std::deque<Dma>* q = !control_.empty() ? &control_ : !data_.empty() ? &data_ : nullptr;
  if (q == nullptr) return;
  BusTransaction txn;
  txn.master = component_;
  txn.purpose = q->front().bus_purpose;
  txn.bytes = q->front().bytes;
  txn.read = q->front().read;
  txn.packet = q->front().frame;
  txn.cause = q->front().queued_rec;
  if (!t_->bus_->try_start(txn, this)) return;  // busy: bus_retry follows
  active_ = true;
  current_ = std::move(q->front());
  q->pop_front();
}

void OffloadTransfer::Master::bus_done(const BusTransaction& txn) {
  active_ = false;
  Dma d = std::move(current_);
  const RecordId done = t_->count(d, t_->ctx_->now(), txn.end);
  if (d.done) d.done(done);
  kick();
}

RecordId OffloadTransfer::count(const Dma& d, Time end, RecordId bus_end) {
  if (d.dir == LedgerDir::Count) return bus_end;  // a register write: on the bus, not a DMA
  const std::int64_t cycles = fixed_model_cycles(cfg_.bus, d.bytes);
  r_.ledger.add(d.dir, d.purpose, d.bytes, static_cast<std::uint64_t>(cycles));
  if (r_.dmas.size() < OffloadResult::kMaxDmaRecords)
    r_.dmas.push_back(
        {d.queued, end, d.dir, d.purpose, d.bytes, static_cast<std::uint32_t>(cycles)});
  return ctx_->record(d.read ? Component::DmaRead : Component::DmaWrite,
                      rec::OffloadDma()
                          .dma(d.id)
                          .direction(static_cast<std::uint32_t>(d.dir))
                          .purpose(static_cast<std::uint32_t>(d.purpose))
                          .bytes(d.bytes)
                          .cycles(static_cast<std::uint32_t>(cycles)),
                      bus_end);
}

// ---- the wire ----

Time OffloadTransfer::frame_time(std::uint32_t bytes) const {
  // Frame with CRC (at least 64 bytes), preamble 8 and inter-frame gap 12, at the link's rate.
  const std::int64_t wire = std::max<std::int64_t>(bytes + 4, 64) + 8 + 12;
  return wire * 8 * 1'000'000 / std::max<std::int64_t>(1, o_.link_mbps);
}

void OffloadTransfer::to_client(Frame f) {
  ++r_.server_frames;
  if (f.kind == FrameKind::Data) ++r_.segments;
  wire(f, 0);
}

void OffloadTransfer::to_server(Frame f) {
  ++r_.client_frames;
  wire(f, 1);
}

void OffloadTransfer::wire(Frame f, int way) {
  // way 0: server to client; 1: client to server. The frame is recorded as it is handed to the
  // wire and again as it reaches the other end.
  if (f.id == 0) f.id = ctx_->new_packet();
  const Time start = std::max(ctx_->now(), wire_free_[way]);
  wire_free_[way] = start + frame_time(f.bytes);
  f.cause = ctx_->record(way == 0 ? Component::WireTx : Component::WireRx,
                         rec::OffloadFrame()
                             .frame(f.id)
                             .way(static_cast<std::uint32_t>(way))
                             .what(static_cast<std::uint32_t>(f.kind))
                             .frame_bytes(f.bytes)
                             .segment(f.segment),
                         f.cause);
  after(wire_free_[way] + o_.one_way - ctx_->now(), [this, f, way]() mutable {
    // At the server, with offload only the request's data crosses (into the RECV buffer).
    const bool crosses = way == 0 ? false : !offload_ || f.kind == FrameKind::Request;
    f.cause = ctx_->record(way == 0 ? Component::Peer : Component::Nic,
                           rec::OffloadFrameIn()
                               .frame(f.id)
                               .way(static_cast<std::uint32_t>(way))
                               .what(static_cast<std::uint32_t>(f.kind))
                               .crosses(crosses ? 1 : 0),
                           f.cause);
    if (way == 0) {
      client_receive(f);
    } else {
      server_receive(f);
    }
  });
}

// ---- the client: httperf on Linux, ACKing as Linux does ----

void OffloadTransfer::client_send(FrameKind k, RecordId cause, std::uint32_t payload) {
  Frame f;
  f.kind = k;
  f.cause = cause;
  f.segment = static_cast<std::uint32_t>(client_segments_);
  const std::int64_t options = k == FrameKind::Syn ? o_.syn_option_bytes : 0;
  f.bytes = static_cast<std::uint32_t>(o_.header_bytes + options + payload);
  to_server(f);
}

void OffloadTransfer::client_receive(const Frame& f) {
  switch (f.kind) {
    case FrameKind::SynAck:
      client_send(FrameKind::Ack, f.cause);
      client_send(FrameKind::Request, f.cause, static_cast<std::uint32_t>(o_.request_bytes));
      break;
    case FrameKind::Data: {
      ++client_segments_;
      r_.client_bytes += static_cast<std::uint64_t>(segments_[f.segment].length);
      // Linux ACKs the first segments at once (quick ACK mode), then every second full
      // segment; an odd one waits for the delayed-ACK timer or the next frame.
      if (client_quick_ > 0) {
        --client_quick_;
        client_unacked_ = 0;
        client_send(FrameKind::Ack, f.cause);
      } else if (++client_unacked_ >= 2) {
        client_unacked_ = 0;
        ++delack_generation_;
        client_send(FrameKind::Ack, f.cause);
      } else {
        const std::uint64_t g = ++delack_generation_;
        const RecordId why = f.cause;
        after(o_.delayed_ack, [this, g, why] {
          if (g != delack_generation_ || client_unacked_ == 0) return;
          client_unacked_ = 0;
          client_send(FrameKind::Ack, why);
        });
      }
      break;
    }
    case FrameKind::Fin:
      // The server's FIN: ACKed at once (with any odd segment), then httperf closes (chosen).
      ++delack_generation_;
      client_unacked_ = 0;
      client_send(FrameKind::Ack, f.cause);
      client_send(FrameKind::Fin, f.cause);
      break;
    case FrameKind::Ack:  // the server's last ACK: the connection is gone
    case FrameKind::Syn:
    case FrameKind::Request:
      break;
  }
}

// ---- the server ----

void OffloadTransfer::server_receive(const Frame& f) {
  if (offload_) {
    edt_packets_.push_back(f);  // the adapter runs TCP: nothing crosses the bus
    edt_wake();
  } else {
    e1000_receive(f);
  }
}

void OffloadTransfer::on_frame(const Frame& f) {
  switch (f.kind) {
    case FrameKind::Syn: {
      Frame a;
      a.kind = FrameKind::SynAck;
      a.bytes = static_cast<std::uint32_t>(o_.header_bytes + o_.syn_option_bytes);
      a.cause = f.cause;
      transmit(a);
      break;
    }
    case FrameKind::Ack:
      if (!established_) {
        established_ = true;
        established_rec_ = f.cause;
        if (offload_ && accept_posted_) post(responses_, ConnEvent, f.cause);
      }
      if (f.segment > acked_segments_) {
        acked_segments_ = f.segment;
        ++cwnd_;  // slow start: one segment per ACK (Linux 2.6, no byte counting)
        try_send(f.cause);
      }
      break;
    case FrameKind::Request:
      if (offload_) {
        if (recv_posted_) {
          // The adapter writes the request into the pre-posted RECV buffer (§4.3).
          nic_.push(
              {LedgerDir::Recv, LedgerPurpose::Payload,
               static_cast<std::uint32_t>(o_.request_bytes), false, Purpose::RecvDataWrite,
               [this](RecordId done) {
                 edt_completions_.push_back([this, done] { post(responses_, RecvDone, done); });
                 edt_wake();
               },
               f.cause, f.id},
              false);
        } else {
          request_waiting_ = true;
          request_frame_ = f;
        }
      } else {
        // Flash: write() the header with TCP_CORK, sendfile() the file, close().
        request_seen_ = true;
        close_requested_ = true;
        try_send(f.cause);
      }
      break;
    case FrameKind::Fin: {
      Frame a;
      a.kind = FrameKind::Ack;
      a.bytes = static_cast<std::uint32_t>(o_.header_bytes);
      a.cause = f.cause;
      if (offload_) {
        // The peer closed: one CLOSE command to the host; after the final ACK, the CLOSE
        // response (§4.3).
        post(responses_, CloseCmd, f.cause);
        adapter_cpu(
            [this, a] {
              to_client(a);
              post(responses_, CloseDone, a.cause);
            },
            o_.adapter_packet);
      } else {
        transmit(a);
      }
      break;
    }
    case FrameKind::SynAck:
    case FrameKind::Data:
      break;
  }
}

bool OffloadTransfer::segment_ready(std::size_t i) const {
  if (!offload_) return request_seen_;
  // An sk_buff whose data has not yet arrived by DMA waits (§4.3's data-not-present flag).
  return present_bytes_ >= segments_[i].offset + segments_[i].length;
}

void OffloadTransfer::try_send(RecordId cause) {
  while (next_segment_ < segments_.size() &&
         static_cast<std::int64_t>(next_segment_ - acked_segments_) < cwnd_ &&
         segment_ready(next_segment_)) {
    Frame f;
    f.kind = FrameKind::Data;
    f.segment = static_cast<std::uint32_t>(next_segment_);
    f.bytes = static_cast<std::uint32_t>(o_.header_bytes + segments_[next_segment_].length);
    // Offload: the segment follows from the DMA that brought its last bytes, if later.
    f.cause = offload_ && present_rec_ > cause ? present_rec_ : cause;
    transmit(f);
    ++next_segment_;
  }
  if (next_segment_ == segments_.size() && close_requested_ && !fin_sent_) {
    fin_sent_ = true;
    Frame f;
    f.kind = FrameKind::Fin;
    f.bytes = static_cast<std::uint32_t>(o_.header_bytes);
    f.cause = cause;
    transmit(f);
  }
}

void OffloadTransfer::transmit(Frame f) {
  if (offload_) {
    adapter_cpu([this, f] { to_client(f); }, o_.adapter_packet);  // headers built on the adapter
  } else {
    host_cpu([this, f] { e1000_transmit(f); });
  }
}

void OffloadTransfer::host_cpu(std::function<void()> f) {
  const Time start = std::max(ctx_->now(), host_free_);
  host_free_ = start + o_.host_packet;
  after(host_free_ - ctx_->now(), std::move(f));
}

void OffloadTransfer::adapter_cpu(std::function<void()> f, Time cost) {
  const Time start = std::max(ctx_->now(), adapter_free_);
  adapter_free_ = start + cost;
  ++edt_jobs_;
  after(adapter_free_ - ctx_->now(), [this, f = std::move(f)] {
    f();
    edt_job_done();
  });
}

void OffloadTransfer::edt_job_done() {
  if (--edt_jobs_ == 0 && edt_running_) edt_loop();
}

void OffloadTransfer::edt_wake() {
  if (edt_running_) return;
  edt_running_ = true;
  edt_phase_ = 0;
  edt_loop();
}

void OffloadTransfer::edt_loop() {
  // EDT is one thread: "On every iteration of the loop, each of the following are checked:
  // pending packets, new descriptors, DMA completion and TCP timers" (§4.2). What arrives while
  // it works on one waits for its turn in the next iteration; a phase whose work occupies the
  // adapter's processor resumes the loop when the work is done.
  while (edt_jobs_ == 0) {
    switch (edt_phase_++) {
      case 0: {
        std::vector<Frame> packets;
        packets.swap(edt_packets_);
        for (const Frame& f : packets) adapter_cpu([this, f] { on_frame(f); }, o_.adapter_packet);
        break;
      }
      case 1: {
        std::vector<std::pair<int, RecordId>> descriptors;
        descriptors.swap(edt_descriptors_);
        for (const auto& [kind, cause] : descriptors)
          adapter_cpu([this, kind = kind, cause = cause] { adapter_takes(kind, cause); },
                      o_.edt_event);
        break;
      }
      case 2: {
        // "After the DMA completes, the event is picked up by Event-driven TCP, and a response
        // descriptor is created" (§4.3): the DMAs found complete in one pass make their
        // responses together, and these ship together when the pass ends (even at batching
        // level 1, "descriptors can still batch significantly with large data transfers", §4.1).
        std::vector<std::function<void()>> completions;
        completions.swap(edt_completions_);
        responses_.hold = true;
        for (auto& f : completions) adapter_cpu(std::move(f), o_.edt_event);
        break;
      }
      default:
        if (responses_.hold) {
          responses_.hold = false;
          try_ship(responses_);
        }
        // The TCP timers: the server's own are not modelled (no loss, the client delays ACKs).
        if (edt_packets_.empty() && edt_descriptors_.empty() && edt_completions_.empty()) {
          edt_running_ = false;
          return;
        }
        edt_phase_ = 0;
        break;
    }
  }
}

// ---- E1000: frames and descriptors cross (e1000_tx_queue, e1000_clean_rx_irq) ----

void OffloadTransfer::e1000_transmit(const Frame& f0) {
  Frame f = f0;
  f.id = ctx_->new_packet();
  // The buffers of the sk_buff: the linear part (protocol headers, and on the first segment
  // the corked HTTP header), then the file's pages as fragments, split at page boundaries.
  struct Buf {
    std::uint32_t bytes;
    LedgerPurpose purpose;
  };
  std::vector<Buf> bufs;
  if (f.kind == FrameKind::Data) {
    const Segment& s = segments_[f.segment];
    const std::int64_t h = o_.http_header_bytes;
    const std::int64_t in_header =
        std::max<std::int64_t>(0, std::min(s.offset + s.length, h) - s.offset);
    bufs.push_back(
        {static_cast<std::uint32_t>(o_.header_bytes + in_header), LedgerPurpose::Header});
    std::int64_t file = std::max<std::int64_t>(0, s.offset - h);
    const std::int64_t end = s.offset + s.length - h;
    while (file < end) {
      const std::int64_t page_end = (file / 4096 + 1) * 4096;
      const std::int64_t n = std::min(end, page_end) - file;
      bufs.push_back({static_cast<std::uint32_t>(n), LedgerPurpose::Payload});
      file += n;
    }
  } else {
    bufs.push_back({f.bytes, LedgerPurpose::Control});
  }
  // The driver writes the descriptors, then the tail register (a register write, not a DMA).
  const auto n = static_cast<std::uint32_t>(bufs.size());
  const std::uint32_t first = tx_posted_;
  RecordId posted = f.cause;
  for (std::uint32_t k = 0; k < n; ++k)
    posted = table_op(TxRing, OpPost, kTxFrame, tx_posted_++, ++tx_in_ring_, f.cause);
  ++r_.register_writes;
  host_.push({LedgerDir::Count, LedgerPurpose::Index, 4, false, Purpose::MailboxPio, nullptr,
              posted, f.id},
             true);
  // The adapter fetches the packet's descriptors in one burst, then each buffer (chosen: one
  // DMA per buffer, as counted in e1000_tx_queue).
  auto left = std::make_shared<std::uint32_t>(n);
  nic_.push({LedgerDir::Send, LedgerPurpose::Descriptor,
             static_cast<std::uint32_t>(o_.e1000_descriptor_bytes) * n, true, Purpose::SendBdFetch,
             [this, bufs, f, left, first, n](RecordId fetched) {
               RecordId why = fetched;
               for (std::uint32_t k = 0; k < n; ++k)
                 why = table_op(TxRing, OpFetch, kTxFrame, first + k, --tx_in_ring_, fetched);
               for (const Buf& b : bufs) {
                 nic_.push({LedgerDir::Send, b.purpose, b.bytes, true, Purpose::SendDataFetch,
                            [this, f, left](RecordId done) {
                              if (--*left != 0) return;
                              Frame out = f;
                              out.cause = done;
                              to_client(out);
                              if (fin_sent_ && f.kind == FrameKind::Ack) finish();
                            },
                            why, f.id},
                           false);
               }
             },
             posted, f.id},
            true);
}

void OffloadTransfer::e1000_receive(const Frame& f) {
  // The frame (with its CRC) is written to an empty receive buffer, then its descriptor is
  // written back; e1000_clean_rx_irq hands it to the stack after the (coalesced) interrupt.
  const std::uint32_t frame = std::max<std::uint32_t>(f.bytes, 60) + (o_.rx_crc ? 4 : 0);
  const LedgerPurpose p =
      f.kind == FrameKind::Request ? LedgerPurpose::Payload : LedgerPurpose::Control;
  nic_.push(
      {LedgerDir::Recv, p, frame, false, Purpose::RecvDataWrite,
       [this, f](RecordId written) {
         nic_.push(
             {LedgerDir::Recv, LedgerPurpose::Descriptor,
              static_cast<std::uint32_t>(o_.e1000_descriptor_bytes), false, Purpose::ReturnBdWrite,
              [this, f](RecordId done) {
                Frame in = f;
                in.cause = table_op(RxRing, OpWriteBack, kRxFrame, rx_filled_, ++rx_in_ring_, done);
                in.slot = rx_filled_++;
                rx_unreported_.push_back(in);
                rx_last_ = in.cause;
                if (rx_coalescer_.add(ctx_, &coalesce_timer_)) e1000_interrupt(0, rx_last_);
              },
              written, f.id},
             true);
       },
       f.cause, f.id},
      false);
}

void OffloadTransfer::CoalesceTimer::fire(std::uint32_t tag) {
  if (!t_->rx_coalescer_.expire(tag >> 8)) return;  // a stale timer
  if (t_->rx_coalescer_.unreported() > 0) t_->e1000_interrupt(1, t_->rx_last_);
}

void OffloadTransfer::e1000_interrupt(std::uint32_t trigger, RecordId cause) {
  // One interrupt for every frame written back since the last (trigger 0: the frame count,
  // 1: the timer); the driver reads the interrupt-cause register, then cleans the ring.
  rx_coalescer_.reported();
  ++r_.interrupts;
  const RecordId irq = ctx_->record(Component::Nic,
                                    rec::OffloadHostEvent()
                                        .interrupt(static_cast<std::uint32_t>(r_.interrupts))
                                        .items(static_cast<std::uint32_t>(rx_unreported_.size()))
                                        .trigger(trigger)
                                        .read_cycles(read_cycles()),
                                    cause);
  std::vector<Frame> frames;
  frames.swap(rx_unreported_);
  for (Frame& f : frames) {
    ++r_.host_events;
    f.cause = table_op(RxRing, OpTake, kRxFrame, f.slot, --rx_in_ring_, irq);
    host_cpu([this, f] { on_frame(f); });
  }
}

// ---- offload: request and response descriptors (§4.3), batched (§4.1) ----

void OffloadTransfer::post(Shipper& s, int kind, RecordId cause) {
  const std::uint32_t slot = s.posted++;
  ++s.in_table;
  s.waiting.push_back(
      {kind, ctx_->now(), slot, table_op(s.table, OpPost, kind, slot, s.in_table, cause)});
  ++r_.descriptors[static_cast<std::size_t>(s.dir)];
  if (!s.hold) try_ship(s);
}

void OffloadTransfer::try_ship(Shipper& s) {
  if (s.in_flight || s.waiting.empty()) return;
  const Time deadline = s.waiting.front().created + o_.batch_timeout;
  if (static_cast<std::int64_t>(s.waiting.size()) >= o_.batch_level) {
    ship(s, false);
    return;
  }
  if (ctx_->now() >= deadline) {
    ship(s, true);
    return;
  }
  // The idle timeout ships a short batch that has waited long enough.
  const std::uint64_t g = ++s.timer_generation;
  Shipper* sp = &s;
  after(deadline - ctx_->now(), [this, sp, g] {
    if (g != sp->timer_generation) return;
    try_ship(*sp);
  });
}

void OffloadTransfer::ship(Shipper& s, bool timer) {
  std::vector<Waiting> batch;
  batch.swap(s.waiting);
  for (const Waiting& w : batch) {
    const Time waited = ctx_->now() - w.created;
    r_.descriptor_wait_sum += static_cast<double>(waited);
    r_.descriptor_wait_max = std::max(r_.descriptor_wait_max, waited);
  }
  s.in_flight = true;
  ++s.timer_generation;
  ++r_.crossings[static_cast<std::size_t>(s.dir)];
  const auto block =
      static_cast<std::uint32_t>(o_.descriptor_bytes * static_cast<std::int64_t>(batch.size()));
  const auto index = static_cast<std::uint32_t>(o_.index_bytes);
  const RecordId last = batch.back().rec;
  Shipper* sp = &s;
  if (s.dir == LedgerDir::Send) {
    // OSLayer writes the producer index; the adapter fetches the new request descriptors,
    // which wait for EDT's next check for new descriptors.
    host_.push(
        {LedgerDir::Send, LedgerPurpose::Index, index, false, Purpose::MailboxPio,
         [this, sp, batch, block](RecordId written) {
           nic_.push({LedgerDir::Send, LedgerPurpose::Descriptor, block, true, Purpose::SendBdFetch,
                      [this, sp, batch](RecordId fetched) {
                        sp->in_flight = false;
                        for (const Waiting& w : batch)
                          edt_descriptors_.emplace_back(
                              w.kind, table_op(sp->table, OpFetch, w.kind, w.slot, --sp->in_table,
                                               fetched));
                        edt_wake();
                        try_ship(*sp);
                      },
                      written},
                     true);
         },
         last},
        true);
  } else {
    // The adapter writes the response descriptors, then the producer index; one event. EDT
    // queues these writes in order behind the data DMAs it queued before ("Since the request
    // for a DMA is queued, it may be some time before a response to a descriptor is received
    // by OSLayer", §4.3), and the responses made meanwhile wait for the next crossing.
    nic_.push({LedgerDir::Recv, LedgerPurpose::Response, block, false, Purpose::ReturnBdWrite,
               [this, sp, batch, index, timer](RecordId written) {
                 std::vector<RecordId> back;
                 for (const Waiting& w : batch)
                   back.push_back(
                       table_op(sp->table, OpWriteBack, w.kind, w.slot, sp->in_table, written));
                 nic_.push({LedgerDir::Recv, LedgerPurpose::Index, index, false,
                            Purpose::ReturnProducerWrite,
                            [this, sp, batch, timer](RecordId done) {
                              sp->in_flight = false;
                              ++r_.interrupts;
                              ++r_.host_events;
                              const RecordId irq = ctx_->record(
                                  Component::Nic,
                                  rec::OffloadHostEvent()
                                      .interrupt(static_cast<std::uint32_t>(r_.interrupts))
                                      .items(static_cast<std::uint32_t>(batch.size()))
                                      .trigger(timer ? 1 : 0)
                                      .read_cycles(read_cycles()),
                                  done);
                              for (const Waiting& w : batch)
                                host_takes(w.kind, table_op(sp->table, OpTake, w.kind, w.slot,
                                                            --sp->in_table, irq));
                              try_ship(*sp);
                            },
                            back.empty() ? written : back.back()},
                           false);
               },
               last},
              false);
  }
}

void OffloadTransfer::adapter_takes(int kind, RecordId cause) {
  switch (kind) {
    case Accept:
      accept_posted_ = true;
      if (established_) post(responses_, ConnEvent, established_rec_);
      break;
    case Recv:
      recv_posted_ = true;
      if (request_waiting_) {
        request_waiting_ = false;
        Frame f = request_frame_;
        f.cause = cause;
        on_frame(f);
      }
      break;
    case Send: {
      // The adapter queues the DMA of the application's buffer and moves on (§4.3).
      const std::int64_t stream = o_.http_header_bytes + o_.file_bytes;
      const std::int64_t off = static_cast<std::int64_t>(sends_to_create_) * o_.send_buffer_bytes;
      ++sends_to_create_;
      const auto n = static_cast<std::uint32_t>(std::min(o_.send_buffer_bytes, stream - off));
      nic_.push({LedgerDir::Send, LedgerPurpose::Payload, n, true, Purpose::SendDataFetch,
                 [this, n](RecordId done) {
                   edt_completions_.push_back([this, n, done] {
                     present_bytes_ += n;
                     present_rec_ = done;
                     post(responses_, SendDone, done);
                     try_send(done);
                   });
                   edt_wake();
                 },
                 cause},
                false);
      break;
    }
    case Close:
      close_requested_ = true;
      try_send(cause);
      break;
    default:
      break;
  }
}

void OffloadTransfer::host_takes(int kind, RecordId cause) {
  switch (kind) {
    case ConnEvent:
      post(requests_, Recv, cause);  // Flash reads the request: a pre-posted RECV
      break;
    case RecvDone: {
      // Flash's sendfile(): OSLayer builds one SEND per buffer of the coalesced header and
      // file, then close() adds the CLOSE.
      const std::int64_t stream = o_.http_header_bytes + o_.file_bytes;
      const std::int64_t buffers = (stream + o_.send_buffer_bytes - 1) / o_.send_buffer_bytes;
      for (std::int64_t i = 1; i <= buffers; ++i)
        after(i * o_.oslayer_descriptor, [this, cause] { post(requests_, Send, cause); });
      after((buffers + 1) * o_.oslayer_descriptor,
            [this, cause] { post(requests_, Close, cause); });
      break;
    }
    case CloseDone:
      finish();
      break;
    default:
      break;
  }
}

void OffloadTransfer::finish() {
  if (r_.complete) return;
  r_.complete = true;
  r_.end = ctx_->now();
}

void OffloadTransfer::start() {
  if (offload_) post(requests_, Accept, 0);  // Flash's accept(), before the client connects
  client_send(FrameKind::Syn, 0);
}

}  // namespace nicsim
