#include "eta/eta_server.hpp"

#include <algorithm>

#include "trace/trace_kinds.hpp"

namespace nicsim {

namespace {

constexpr std::uint32_t kWakeTag = 0x80000000u;
constexpr std::size_t kUser = 0, kTcp = 1, kEth = 2, kKernel = 3, kPpe = 4;
// SPECweb99's classes (35/50/14/1 % of requests) and its access weights of the nine files in a
// class (per mille; the fifth file is the most requested).
constexpr std::uint8_t kClassShare[4] = {35, 50, 14, 1};
constexpr std::uint16_t kFileShare[9] = {39, 59, 88, 177, 354, 118, 71, 50, 44};
constexpr Time kPsPerByteGigabit = 8000;  // 1 Gb/s

std::uint32_t u32(std::int64_t v) {
  return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, 0, 0xffffffffll));
}

}  // namespace

std::int64_t EtaServer::Work::total() const {
  std::int64_t t = 0;
  for (std::int64_t c : cycles) t += c;
  return t;
}

void EtaServer::Work::reset() {
  cycles.fill(0);
  for (std::vector<std::uint32_t>* v :
       {&send, &done, &app, &rx_events, &tx_events, &doorbell_recv, &doorbell_send})
    v->clear();
  signal_deliver = false;
  arm = false;
}

std::int64_t EtaServer::file_bytes(unsigned c, unsigned i) {
  // Class 0 holds files of 0.1 KB multiples, class 1 of 1 KB, class 2 of 10 KB, class 3 of
  // 100 KB: ten directories of the 36 make SPECweb99's ~51 MB fileset (the paper's §6).
  std::int64_t unit = 1024;
  for (unsigned k = 0; k < c; ++k) unit *= 10;
  return static_cast<std::int64_t>(i) * unit / 10;
}

double EtaServer::mean_file_bytes() {
  double sum = 0;
  for (unsigned c = 0; c < 4; ++c)
    for (unsigned i = 0; i < 9; ++i)
      sum += kClassShare[c] / 100.0 * kFileShare[i] / 1000.0 *
             static_cast<double>(file_bytes(c, i + 1));
  return sum;
}

EtaServer::EtaServer(SimContext* ctx, const EtaConfig& cfg) : ctx_(ctx), cfg_(cfg) {
  const bool one_cpu = cfg.system == EtaSystem::Baseline && cfg.cpus == 1;
  // §6: the 1-CPU baseline serves two NICs at half the request rate.
  const std::int64_t nics = one_cpu ? std::max<std::int64_t>(1, cfg.nics / 2) : cfg.nics;
  const std::int64_t rate = one_cpu ? cfg.request_rate / 2 : cfg.request_rate;
  nics_.resize(static_cast<std::size_t>(nics));
  cpus_.resize(one_cpu ? 1 : 2);
  interval_ = rate > 0 ? kSec / rate : kSec;
  reqs_.resize(static_cast<std::size_t>(cfg.max_connections));
  for (std::size_t i = reqs_.size(); i > 0; --i) free_.push_back(static_cast<std::uint32_t>(i - 1));
  for (unsigned c = 0; c < 4; ++c) {
    for (std::uint8_t k = 0; k < kClassShare[c]; ++k)
      class_deck_.push_back(static_cast<std::uint8_t>(c));
  }
  for (unsigned c = 0; c < 4; ++c) {
    for (unsigned i = 0; i < 9; ++i)
      for (std::uint16_t k = 0; k < kFileShare[i]; ++k)
        file_deck_[c].push_back(static_cast<std::uint8_t>(i + 1));
  }
  class_pos_ = class_deck_.size();
  poll_time_ = cycles_to_time(cfg.ppe.poll);
}

Time EtaServer::cycles_to_time(std::int64_t cycles) const {
  // cycles / MHz µs, in ps, rounded.
  return (cycles * 1000000 + cfg_.cpu_mhz / 2) / cfg_.cpu_mhz;
}

EtaCounters EtaServer::counters() const {
  EtaCounters c = n_;
  if (eta() && !ppe_running_ && poll_time_ > 0) {
    const std::int64_t j = (ctx_->now() - idle_from_) / poll_time_;
    c.cycles[0][kPpe] += j * cfg_.ppe.poll;
    c.unproductive_cycles += j * cfg_.ppe.poll;
    c.empty_iterations += static_cast<std::uint64_t>(j);
  }
  return c;
}

Time EtaServer::cpu_busy(unsigned cpu) const {
  if (eta() && cpu == 0) return ctx_->now();  // the PPE polls when it has nothing to do
  const Cpu& c = cpus_[cpu];
  return c.busy_total + (c.busy ? ctx_->now() - c.busy_since : 0);
}

void EtaServer::start() {
  idle_from_ = 0;
  idle_rr_ = 0;
  ppe_running_ = false;
  ctx_->at(0, this, kArrival);
}

void EtaServer::fire(std::uint32_t tag) {
  if (tag & kWakeTag) {
    if ((tag & ~kWakeTag) != (wake_gen_ & ~kWakeTag)) return;  // superseded by an earlier wake
    wake_at_ = -1;
    // The loop ran wake_j_ empty iterations (§4.2: 152 cycles each) since it found nothing.
    const std::int64_t cycles = static_cast<std::int64_t>(wake_j_) * cfg_.ppe.poll;
    n_.cycles[0][kPpe] += cycles;
    n_.unproductive_cycles += cycles;
    n_.empty_iterations += wake_j_;
    ctx_->record(component_id(Component::HostCpu, 0),
                 rec::EtaIdle()
                     .iterations(u32(static_cast<std::int64_t>(wake_j_)))
                     .duration_ns(u32((ctx_->now() - idle_from_) / kNs)));
    rr_ = static_cast<unsigned>((idle_rr_ + wake_j_) % nics_.size());
    ppe_running_ = true;
    ppe_iteration();
    return;
  }
  if (tag == kArrival) {
    arrival();
  } else if (tag >= kCpuDone && tag < kIrq) {
    cpu_end(tag - kCpuDone);
  } else if (tag >= kIrq && tag < kAck) {
    irq_due(tag - kIrq);
  } else if (tag >= kAck && tag < kPpeWake) {
    ack_arrives(tag - kAck);
  } else if (tag == kPpeDone) {
    ppe_done();
  } else if (tag == kHostDone) {
    host_done();
  }
}

std::uint32_t EtaServer::draw_file() {
  // The class from a shuffled deck of 100 (exact SPECweb99 shares per 100 requests); the file
  // within the class by a stride through its 1,000 per-mille positions from a random start, so
  // any run of requests holds the files near their shares and a short window's mean response
  // size is close to the mix's (the 1% of 100-900 KB files carry a third of the bytes).
  if (class_pos_ >= class_deck_.size()) {
    for (std::size_t i = class_deck_.size() - 1; i > 0; --i)
      std::swap(class_deck_[i], class_deck_[ctx_->rng.below(i + 1)]);
    class_pos_ = 0;
  }
  const unsigned c = class_deck_[class_pos_++];
  if (!file_started_[c]) {
    file_pos_[c] = ctx_->rng.below(1000);
    file_started_[c] = true;
  }
  file_pos_[c] = (file_pos_[c] + 617) % 1000;  // 617 is prime to 1,000: every position once
  return static_cast<std::uint32_t>(file_bytes(c, file_deck_[c][file_pos_[c]]));
}

void EtaServer::arrival() {
  ctx_->after(interval_, this, kArrival);
  ++n_.offered;
  const unsigned nic = next_nic_;
  next_nic_ = (next_nic_ + 1) % static_cast<unsigned>(nics_.size());
  const std::uint32_t id = ++next_id_;
  const std::int64_t bytes = draw_file();
  if (free_.empty()) {
    // Every connection is busy: the client's connection attempt is not accepted.
    ++n_.refused;
    ctx_->record(component_id(Component::Peer, nic),
                 rec::EtaRequest()
                     .request(id)
                     .nic(nic)
                     .response_bytes(u32(bytes))
                     .refused(1)
                     .ring(u32(static_cast<std::int64_t>(nics_[nic].rx.size()))));
    return;
  }
  const std::uint32_t slot = free_.back();
  free_.pop_back();
  ++live_;
  Request& r = reqs_[slot];
  r = Request{};
  r.id = id;
  r.nic = nic;
  r.bytes = bytes;
  r.segments = (bytes + cfg_.mss - 1) / cfg_.mss;
  r.arrived = ctx_->now();
  if (bytes <= cfg_.encrypt_max_bytes && cfg_.encrypt_percent > 0) {
    // §7.2: a share of the files up to 7,500 bytes, spread evenly over the stream.
    encrypt_acc_ += cfg_.encrypt_percent;
    if (encrypt_acc_ >= 100) {
      encrypt_acc_ -= 100;
      r.encrypt = true;
    }
  }
  r.cause = ctx_->record(component_id(Component::Peer, nic),
                         rec::EtaRequest()
                             .request(id)
                             .nic(nic)
                             .response_bytes(u32(bytes))
                             .ring(u32(static_cast<std::int64_t>(nics_[nic].rx.size() + 1))));
  frame_in(nic, Frame{false, slot, 0, r.cause});
}

void EtaServer::frame_in(unsigned nic, const Frame& f) {
  nics_[nic].rx.push_back(f);
  if (eta()) {
    ppe_wake_for(static_cast<int>(nic));
    return;
  }
  Nic& x = nics_[nic];
  if (x.irq_scheduled || x.irq_queued) return;
  // Interrupt moderation: at most one interrupt per interval per NIC.
  const Time t =
      x.last_irq < 0 ? ctx_->now() : std::max(ctx_->now(), x.last_irq + cfg_.interrupt_interval);
  x.irq_scheduled = true;
  ctx_->at(t, this, kIrq + nic);
}

std::int64_t EtaServer::window_room(const Request& r) const {
  return std::max<std::int64_t>(
      0, std::min(cfg_.window_segments - (r.sent - r.acked), r.segments - r.sent));
}

void EtaServer::transmit(std::uint32_t slot, std::int64_t segments) {
  Request& r = reqs_[slot];
  Nic& x = nics_[r.nic];
  for (std::int64_t k = 0; k < segments; ++k) {
    const std::int64_t offset = r.delivered * cfg_.mss;
    const std::int64_t bytes = std::min(cfg_.mss, r.bytes - offset);
    const Time start = std::max(ctx_->now(), x.wire_free);
    x.wire_free = start + (bytes + wire_overhead_) * kPsPerByteGigabit;
    const std::uint32_t packet = ctx_->new_packet();
    const RecordId seg = ctx_->record(component_id(Component::Nic, r.nic),
                                      rec::EtaSegment()
                                          .packet(packet)
                                          .request(r.id)
                                          .nic(r.nic)
                                          .bytes(u32(bytes))
                                          .wire_ns(u32((x.wire_free - ctx_->now()) / kNs)),
                                      r.cause);
    ++r.delivered;
    const bool last = r.delivered == r.segments;
    if (last || r.delivered % cfg_.ack_every == 0) {
      // The client's (delayed) ACK for the segments since its last one.
      const std::int64_t covered =
          r.delivered - ((r.delivered - 1) / cfg_.ack_every) * cfg_.ack_every;
      const bool idle = x.acks.empty();
      x.acks.push_back({x.wire_free + cfg_.client_turnaround, Frame{true, slot, covered, seg}});
      if (idle) ctx_->at(x.acks.front().first, this, kAck + r.nic);
    }
  }
}

void EtaServer::ack_arrives(unsigned nic) {
  Nic& x = nics_[nic];
  while (!x.acks.empty() && x.acks.front().first <= ctx_->now()) {
    const Frame f = x.acks.front().second;
    x.acks.pop_front();
    frame_in(nic, f);
  }
  if (!x.acks.empty()) ctx_->at(x.acks.front().first, this, kAck + nic);
}

void EtaServer::finish(std::uint32_t slot) {
  Request& r = reqs_[slot];
  ++n_.completed;
  n_.latency_sum += ctx_->now() - r.arrived;
  // §5: the send's TX descriptor completes only once all its data is acknowledged.
  if (eta() && tx_descriptors_ > 0) --tx_descriptors_;
  ctx_->record(component_id(Component::Peer, r.nic),
               rec::EtaDone()
                   .request(r.id)
                   .bytes(u32(r.bytes))
                   .latency_ns(u32((ctx_->now() - r.arrived) / kNs))
                   .tx_descriptors(u32(tx_descriptors_)),
               r.cause);
  free_.push_back(slot);
  --live_;
}

// Books the frames a CPU takes from a NIC: the baseline's interrupt drains the ring, the PPE
// takes at most rx_batch per iteration (§4.2).
void EtaServer::charge_frames(unsigned nic, Work* w, bool ppe) {
  Nic& x = nics_[nic];
  std::size_t n = x.rx.size();
  if (ppe) n = std::min<std::size_t>(n, static_cast<std::size_t>(cfg_.rx_batch));
  for (std::size_t i = 0; i < n; ++i) {
    const Frame f = x.rx.front();
    x.rx.pop_front();
    Request& r = reqs_[f.slot];
    if (ppe) {
      w->cycles[kEth] += cfg_.ppe.eth_rx_frame;
      w->cycles[kKernel] += cfg_.ppe.kernel_frame;
    } else {
      w->cycles[kEth] += cfg_.baseline.eth_rx_frame;
    }
    if (!f.ack) {
      if (ppe) {
        // The receive was posted: the PPE copies the request into the user buffer (§5) and
        // posts the receive completion.
        w->cycles[kTcp] +=
            cfg_.ppe.tcp_rx_request + cfg_.request_bytes * cfg_.ppe.copy_per_kb / 1024;
        w->cycles[kPpe] += cfg_.ppe.queue_op;
        w->rx_events.push_back(f.slot);
        if (rx_descriptors_ > 0) --rx_descriptors_;
      } else {
        w->cycles[kTcp] += cfg_.baseline.tcp_rx_request;
        w->app.push_back(f.slot);
      }
      continue;
    }
    w->cycles[kTcp] += ppe ? cfg_.ppe.tcp_rx_ack : cfg_.baseline.tcp_rx_ack;
    const std::int64_t before = std::min(r.acked * cfg_.mss, r.bytes);
    r.acked += f.segments;
    n_.bytes_delivered +=
        static_cast<std::uint64_t>(std::min(r.acked * cfg_.mss, r.bytes) - before);
    const RecordId ack = ctx_->record(component_id(Component::Nic, nic),
                                      rec::EtaAck()
                                          .request(r.id)
                                          .acked(u32(f.segments))
                                          .left(u32(r.segments - r.acked))
                                          .ring(u32(static_cast<std::int64_t>(x.rx.size())))
                                          .nic(nic),
                                      f.cause);
    if (r.acked >= r.segments) {
      // §5: the send completes only once all its data is acknowledged.
      w->done.push_back(f.slot);
      if (ppe) {
        w->cycles[kPpe] += cfg_.ppe.queue_op;
        w->tx_events.push_back(r.id);
        w->tx_events.push_back(ack);  // the completion follows from the last ACK
      }
      continue;
    }
    // The ACK opened the window: the blocked send resumes (§4.2 step 4).
    const std::int64_t k = window_room(r);
    if (k > 0) {
      r.sent += k;
      w->send.push_back(f.slot);
      w->send.push_back(static_cast<std::uint32_t>(k));
      if (ppe) {
        w->cycles[kTcp] += k * cfg_.ppe.tcp_tx_segment;
        w->cycles[kEth] += k * cfg_.ppe.eth_tx_frame;
        w->cycles[kKernel] += k * cfg_.ppe.kernel_frame;
      } else {
        w->cycles[kTcp] += k * cfg_.baseline.tcp_tx_segment;
        w->cycles[kEth] += k * cfg_.baseline.eth_tx_frame;
      }
    }
  }
}

// Applies what a unit of work decided once its cycles are spent.
void EtaServer::apply(const Work& w, unsigned cpu) {
  (void)cpu;
  for (std::size_t i = 0; i + 1 < w.send.size(); i += 2) transmit(w.send[i], w.send[i + 1]);
  for (std::uint32_t slot : w.done) finish(slot);
  for (std::uint32_t slot : w.app) {
    const unsigned c =
        cpus_.size() == 1 ? 0 : (reqs_[slot].nic * 2 / static_cast<unsigned>(nics_.size()));
    cpus_[c].app.push_back(slot);
    cpu_next(c);
  }
  for (std::uint32_t slot : w.rx_events) post_event(true, slot, reqs_[slot].cause);
  for (std::size_t i = 0; i + 1 < w.tx_events.size(); i += 2)
    post_event(false, w.tx_events[i], w.tx_events[i + 1]);
  for (std::uint32_t slot : w.doorbell_recv) {
    dbq_.push_back(DbOp{false, slot, reqs_[slot].cause});
    ++n_.doorbells;
    ++rx_descriptors_;
    ctx_->record(component_id(Component::HostCpu, 1),
                 rec::EtaDoorbell()
                     .op(2)
                     .request(reqs_[slot].id)
                     .depth(u32(static_cast<std::int64_t>(dbq_.size())))
                     .tx_descriptors(u32(tx_descriptors_))
                     .rx_descriptors(u32(rx_descriptors_)),
                 reqs_[slot].cause);
    ppe_wake_for(-1);
  }
  for (std::uint32_t slot : w.doorbell_send) {
    Request& r = reqs_[slot];
    ++tx_descriptors_;
    r.cause = ctx_->record(component_id(Component::HostCpu, 1),
                           rec::EtaDoorbell()
                               .op(1)
                               .request(r.id)
                               .depth(u32(static_cast<std::int64_t>(dbq_.size() + 1)))
                               .tx_descriptors(u32(tx_descriptors_))
                               .rx_descriptors(u32(rx_descriptors_)),
                           r.cause);
    dbq_.push_back(DbOp{true, slot, r.cause});
    ++n_.doorbells;
    ppe_wake_for(-1);
  }
}

void EtaServer::book(unsigned cpu, const Work& w) {
  for (std::size_t b = 0; b < kEtaBins; ++b) n_.cycles[cpu][b] += w.cycles[b];
}

// ---------------------------------------------------------------- the baseline

void EtaServer::irq_due(unsigned nic) {
  Nic& x = nics_[nic];
  x.irq_scheduled = false;
  if (x.rx.empty()) return;
  x.last_irq = ctx_->now();
  x.irq_queued = true;
  ++n_.interrupts;
  const unsigned c = cpus_.size() == 1 ? 0 : nic * 2 / static_cast<unsigned>(nics_.size());
  cpus_[c].irq.push_back(nic);
  cpu_next(c);
}

void EtaServer::add_contention(unsigned cpu, Work* w) {
  if (cpus_.size() < 2 || !cpus_[1 - cpu].busy) return;
  const EtaBaselineCosts& b = cfg_.baseline;
  w->cycles[kTcp] += w->cycles[kTcp] * b.contention_tcp_permille / 1000;
  w->cycles[kEth] += w->cycles[kEth] * b.contention_eth_permille / 1000;
  w->cycles[kKernel] += w->cycles[kKernel] * b.contention_kernel_permille / 1000;
  w->cycles[kUser] += w->cycles[kUser] * b.contention_user_permille / 1000;
}

void EtaServer::cpu_next(unsigned cpu) {
  Cpu& c = cpus_[cpu];
  if (c.busy || (eta() && cpu == 0)) return;
  if (c.irq.empty() && c.app.empty()) return;
  Work& w = c.work.fresh();
  std::uint32_t request = 0;
  RecordId cause = 0;
  const EtaBaselineCosts& b = cfg_.baseline;
  if (!c.irq.empty()) {
    const unsigned nic = c.irq.front();
    c.irq.pop_front();
    nics_[nic].irq_queued = false;
    const std::size_t frames = nics_[nic].rx.size();
    cause =
        ctx_->record(component_id(Component::Nic, nic),
                     rec::EtaInterrupt().nic(nic).frames(u32(static_cast<std::int64_t>(frames))));
    w.cycles[kEth] += b.irq;
    n_.interrupt_cycles += b.irq;
    charge_frames(nic, &w, false);
  } else {
    // The userver: epoll says the socket is readable; read, parse, sendfile() or write().
    const std::uint32_t slot = c.app.front();
    c.app.pop_front();
    Request& r = reqs_[slot];
    request = r.id;
    cause = r.cause;  // the request's arrival
    w.cycles[kKernel] += b.kernel_request;
    w.cycles[kUser] += b.user_request;
    if (r.encrypt) w.cycles[kUser] += r.bytes * cfg_.encrypt_cycles_per_kb / 1024;
    if (cfg_.api == EtaSendApi::Write) w.cycles[kTcp] += r.bytes * b.copy_per_kb / 1024;
    const std::int64_t k = window_room(r);
    r.sent += k;
    w.cycles[kTcp] += k * b.tcp_tx_segment;
    w.cycles[kEth] += k * b.eth_tx_frame;
    w.send.push_back(slot);
    w.send.push_back(static_cast<std::uint32_t>(k));
  }
  add_contention(cpu, &w);
  cpu_begin(cpu, request, cause);
}

void EtaServer::cpu_begin(unsigned cpu, std::uint32_t request, RecordId cause) {
  Cpu& c = cpus_[cpu];
  const Work& w = c.work.current();
  book(cpu, w);
  // The bin with the most cycles names the work in the trace.
  std::size_t top = 0;
  for (std::size_t b = 1; b < kEtaBins; ++b)
    if (w.cycles[b] > w.cycles[top]) top = b;
  ctx_->record(component_id(Component::HostCpu, cpu),
               rec::EtaCpuWork()
                   .cpu(cpu)
                   .bin(static_cast<std::uint32_t>(top))
                   .cycles(u32(w.total()))
                   .request(request),
               cause);
  c.busy = true;
  c.busy_since = ctx_->now();
  const Time d = cycles_to_time(w.total());
  ctx_->after(d, this, cpu == 1 && eta() ? kHostDone : kCpuDone + cpu);
}

void EtaServer::cpu_end(unsigned cpu) {
  Cpu& c = cpus_[cpu];
  c.busy = false;
  c.busy_total += ctx_->now() - c.busy_since;
  c.work.end();
  apply(c.work.ended(), cpu);
  cpu_next(cpu);
}

// ---------------------------------------------------------------- ETA+AIO: the PPE

void EtaServer::ppe_wake_for(int nic) {
  if (!eta() || ppe_running_) return;
  // Iteration j of the idle stretch starts at idle_from + j·poll and polls NIC idle_rr + j.
  const Time since = ctx_->now() - idle_from_;
  std::uint64_t j =
      static_cast<std::uint64_t>(std::max<Time>(1, (since + poll_time_ - 1) / poll_time_));
  if (nic >= 0) {
    const std::uint64_t n = nics_.size();
    const std::uint64_t polled = (idle_rr_ + j) % n;
    j += (static_cast<std::uint64_t>(nic) + n - polled) % n;
  }
  if (wake_at_ >= 0 && wake_j_ <= j) return;
  wake_j_ = j;
  wake_at_ = idle_from_ + static_cast<Time>(j) * poll_time_;
  wake_gen_ = (wake_gen_ + 1) & ~kWakeTag;
  ctx_->at(wake_at_, this, kWakeTag | wake_gen_);
}

void EtaServer::ppe_iteration() {
  const unsigned nic = rr_;
  rr_ = (rr_ + 1) % static_cast<unsigned>(nics_.size());
  Work& w = ppe_work_.fresh();
  w.cycles[kPpe] += cfg_.ppe.poll;
  std::swap(w.cycles[kKernel], pending_ppe_kernel_);
  const std::size_t frames =
      std::min<std::size_t>(nics_[nic].rx.size(), static_cast<std::size_t>(cfg_.rx_batch));
  charge_frames(nic, &w, true);
  std::uint32_t op = 0, request = 0, slot_of_op = 0;
  RecordId cause = 0;
  if (!dbq_.empty()) {
    // §4.2: at most one operation from the doorbell queue per iteration.
    const DbOp d = dbq_.front();
    dbq_.pop_front();
    w.cycles[kPpe] += cfg_.ppe.queue_op;
    Request& r = reqs_[d.slot];
    request = r.id;
    cause = d.cause;
    slot_of_op = d.slot;
    op = d.send ? 1 : 2;
    if (d.send) {
      // Step 3: the outbound stack transmits from the registered user buffer, no copy (§5).
      const std::int64_t k = window_room(r);
      r.sent += k;
      w.cycles[kTcp] += k * cfg_.ppe.tcp_tx_segment;
      w.cycles[kEth] += k * cfg_.ppe.eth_tx_frame;
      w.cycles[kKernel] += k * cfg_.ppe.kernel_frame;
      w.send.push_back(d.slot);
      w.send.push_back(static_cast<std::uint32_t>(k));
    }
  }
  if (frames == 0 && op == 0) {
    bool work_left = !dbq_.empty();
    for (const Nic& x : nics_) work_left = work_left || !x.rx.empty();
    if (!work_left && w.cycles[kKernel] == 0) {
      // Nothing anywhere: the loop keeps polling; its iterations are counted when work comes.
      ppe_running_ = false;
      idle_from_ = ctx_->now();
      idle_rr_ = nic;
      return;
    }
    n_.unproductive_cycles += cfg_.ppe.poll;
    ++n_.empty_iterations;
  } else {
    ++n_.iterations;
    const RecordId id = ctx_->record(component_id(Component::HostCpu, 0),
                                     rec::EtaIteration()
                                         .nic(nic)
                                         .frames(u32(static_cast<std::int64_t>(frames)))
                                         .op(op)
                                         .cycles(u32(w.total()))
                                         .request(request),
                                     cause);
    // The segments this iteration sends follow from it (doorbell → send → frames).
    if (op == 1) reqs_[slot_of_op].cause = id;
  }
  book(0, w);
  ctx_->after(cycles_to_time(w.total()), this, kPpeDone);
}

void EtaServer::ppe_done() {
  ppe_work_.end();
  apply(ppe_work_.ended(), 0);
  ppe_iteration();
}

void EtaServer::post_event(bool rx, std::uint32_t v, RecordId cause) {
  const std::uint32_t id = rx ? reqs_[v].id : v;
  std::deque<QueuedEvent>& queue = rx ? evq_rx_ : evq_tx_;
  queue.push_back(QueuedEvent{v, 0});
  ++n_.events;
  const RecordId ev = ctx_->record(
      component_id(Component::HostCpu, 0),
      rec::EtaEvent()
          .queue(rx ? 0 : 1)
          .request(id)
          .depth(u32(static_cast<std::int64_t>(queue.size())))
          .rx_descriptors(u32(rx_descriptors_))
          .ring(u32(static_cast<std::int64_t>(rx ? nics_[reqs_[v].nic].rx.size() : 0))),
      cause);
  queue.back().cause = ev;
  if (rx) reqs_[v].cause = ev;
  if (app_ != App::Sleeping) {
    host_next();
    return;
  }
  // §5: the event queue went from empty to non-empty with the signal armed: the PPE posts to
  // the Interrupt Queue and sends an IPI; the Kernel Agent delivers the signal.
  app_ = App::Waking;
  ++n_.signals;
  pending_ppe_kernel_ += cfg_.ppe.ipi;
  n_.signal_cycles += cfg_.ppe.ipi;
  const RecordId signal =
      ctx_->record(component_id(Component::HostCpu, 0), rec::EtaSignal().step(1), ev);
  Work& w = cpus_[1].work.fresh();
  w.cycles[kKernel] = cfg_.host.signal_deliver;
  w.signal_deliver = true;
  n_.signal_cycles += cfg_.host.signal_deliver;
  host_begin(0, signal);
}

// ---------------------------------------------------------------- ETA+AIO: the application

void EtaServer::host_next() {
  if (host_busy_ || app_ != App::Running) return;
  const EtaHostCosts& h = cfg_.host;
  Work& w = cpus_[1].work.fresh();
  std::uint32_t request = 0;
  RecordId cause = 0;
  if (!evq_rx_.empty()) {
    // §6: receive completions first. Post the next receive, parse, post the send.
    const std::uint32_t slot = evq_rx_.front().v;
    cause = evq_rx_.front().cause;
    evq_rx_.pop_front();
    const Request& r = reqs_[slot];
    request = r.id;
    w.cycles[kUser] += h.user_request + 3 * h.dusi_op;
    if (r.encrypt) w.cycles[kUser] += r.bytes * cfg_.encrypt_cycles_per_kb / 1024;
    w.cycles[kKernel] += h.kernel_request;
    w.doorbell_recv.push_back(slot);
    w.doorbell_send.push_back(slot);
  } else if (!evq_tx_.empty()) {
    // A send completion: the file cache's use count.
    request = evq_tx_.front().v;
    cause = evq_tx_.front().cause;
    evq_tx_.pop_front();
    w.cycles[kUser] += h.dusi_op;
  } else {
    // Nothing to do: arm the signal and sleep.
    w.cycles[kKernel] += h.signal_arm;
    n_.signal_cycles += h.signal_arm;
    w.arm = true;
  }
  host_begin(request, cause);
}

void EtaServer::host_begin(std::uint32_t request, RecordId cause) {
  host_busy_ = true;
  cpu_begin(1, request, cause);
}

void EtaServer::host_done() {
  Cpu& c = cpus_[1];
  c.busy = false;
  c.busy_total += ctx_->now() - c.busy_since;
  c.work.end();
  const Work& w = c.work.ended();
  host_busy_ = false;
  if (w.signal_deliver) {
    app_ = App::Running;
    ctx_->record(component_id(Component::HostCpu, 1), rec::EtaSignal().step(2));
  }
  if (w.arm) {
    if (evq_rx_.empty() && evq_tx_.empty()) {
      app_ = App::Sleeping;
      ctx_->record(component_id(Component::HostCpu, 1), rec::EtaSignal().step(0));
    }
  }
  apply(w, 1);
  host_next();
}

}  // namespace nicsim
