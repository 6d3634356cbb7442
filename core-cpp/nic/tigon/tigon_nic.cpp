#include "nic/tigon/tigon_nic.hpp"

#include <algorithm>

#include "nic/fixed_nic.hpp"  // Rings

namespace nicsim {

namespace {
constexpr std::uint64_t kTimerTrigger = 1ull << 63;
using E = TigonEvent;
using P = TigonPath;
constexpr int bit(E e) { return static_cast<int>(e); }
}  // namespace

TigonNic::TigonNic(SimContext* ctx, const Config& cfg, unsigned instance, Rings rings, IoBus* bus,
                   Tally* tally)
    : ctx_(ctx),
      cfg_(cfg.nic),
      tcfg_(cfg.tigon),
      instance_(instance),
      send_(rings.send),
      receive_(rings.receive),
      ret_(rings.ret),
      dma_(ctx, bus, cfg.nic.dma_queue_depth, cfg.nic.dma_max_burst, instance, this),
      sram_(cfg.tigon.sram_bandwidth_mbs, cfg.tigon.sram_burst_bytes, cfg.tigon.sram_window),
      costs_(cfg.tigon),
      tally_(tally),
      send_coalesce_(static_cast<std::uint64_t>(cfg.nic.send_coalesce_bds),
                     cfg.nic.send_coalesce_timer, kSendTimer),
      return_coalesce_(static_cast<std::uint64_t>(cfg.nic.receive_coalesce_bds),
                       cfg.nic.receive_coalesce_timer, kReturnTimer) {
  // A window opened mid-run starts with the state it finds, so the views need not guess.
  if (ctx_->trace.start() > 0) ctx_->at(ctx_->trace.start(), this, kSnapshot);
  partition_ = tigon_partition(tcfg_.firmware, tcfg_.partition);
  // PARALLEL's Update Send Consumer only publishes the index; the driver reads it (§3.2.2).
  usc_by_dma_ = !cfg.nic.send_consumer_by_pio;
  for (int cpu = 0; cpu < 2; ++cpu) {
    const auto c = static_cast<std::size_t>(cpu);
    present_[c] = tigon_cpu_runs(tcfg_.firmware, cpu);
    for (int e = 0; e < kTigonEvents; ++e) {
      if (partition_[static_cast<std::size_t>(e)] & (1 << cpu))
        partition_mask_[c] = static_cast<std::uint16_t>(partition_mask_[c] | (1u << e));
      placement_[c][static_cast<std::size_t>(e)] = placement_for(cpu, static_cast<E>(e));
      if (lock_needed(cpu, static_cast<E>(e)))
        lock_events_[c] = static_cast<std::uint16_t>(lock_events_[c] | (1u << e));
    }
    // The PRI/JOFF loop (§3.1.2): four instructions from the loop's code, placed like the
    // highest-priority handler's.
    TigonWork loop;
    loop.instructions = static_cast<double>(tcfg_.dispatch_instructions);
    loop_time_[c] = costs_.cost(loop, placement_[c][kTigonEvents - 1], cpu, Sram::Load{}).time;
    for (int p = 0; p < kTigonPaths; ++p) {
      const TigonPathInfo& info = tigon_path_info(static_cast<P>(p));
      TigonWork w;
      double instructions = static_cast<double>(tcfg_.instructions[static_cast<std::size_t>(p)]);
      if (tcfg_.firmware == TigonFirmware::Bsd) instructions *= tcfg_.bsd_instruction_scale;
      w.instructions = instructions;
      w.shared_loads = static_cast<double>(info.shared_loads);
      w.shared_stores = static_cast<double>(info.shared_stores);
      w.private_loads = std::max(0.0, instructions * tcfg_.load_fraction - w.shared_loads);
      w.private_stores = std::max(0.0, instructions * tcfg_.store_fraction - w.shared_stores);
      const TigonCost cost = costs_.cost(
          w, placement_[c][static_cast<std::size_t>(bit(info.event))], cpu, Sram::Load{});
      PathCost& pc = path_cost_[c][static_cast<std::size_t>(p)];
      pc.time = cost.time;
      pc.sram_accesses = cost.sram_data_accesses + cost.sram_line_fills;
      // The CPU's own SRAM traffic: 4-byte words (two share a beat through the 8-byte data
      // cache) and 64-byte instruction lines.
      pc.traffic =
          Sram::combined(sram_.traffic(static_cast<std::int64_t>(cost.sram_data_accesses + 0.5), 4),
                         sram_.traffic(static_cast<std::int64_t>(cost.sram_line_fills + 0.5), 64));
    }
  }
  handled_ = static_cast<std::uint16_t>(partition_mask_[0] | partition_mask_[1]);
}

Time TigonNic::cpu_busy_at(int cpu, Time now) const {
  const Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
  Time t = stats_.cpu_busy[static_cast<std::size_t>(cpu)];
  switch (c.state) {
    case CpuState::Spinning:  // counted when the spin ends
      t += now - c.spin_started;
      break;
    case CpuState::Running:  // counted when the handler ends
      t += now - c.busy_from;
      break;
    case CpuState::Dispatching:  // counted when it began
    case CpuState::Locking:
      t -= std::max<Time>(0, c.busy_until - now);
      break;
    case CpuState::Idle:
      break;
  }
  return t;
}

Time TigonNic::cpu_spin_at(int cpu, Time now) const {
  const Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
  return stats_.cpu_spin[static_cast<std::size_t>(cpu)] +
         (c.state == CpuState::Spinning ? now - c.spin_started : 0);
}

std::uint64_t TigonNic::work_outstanding() const {
  std::uint64_t n = read_done_.size() + write_done_.size() + rx_queue_.size();
  for (const Cpu& c : cpus_) {
    if (c.state != CpuState::Running) continue;
    switch (c.work.path) {
      case P::ReadDoneSendBds:
      case P::ReadDoneReceiveBds:
      case P::ReadDoneSendData:
      case P::Receive:
      case P::ReceiveNoBuffer:
      case P::WriteDoneData:
      case P::WriteDoneReturnBd:
      case P::WriteDoneIndex:
        ++n;
        break;
      default:
        break;
    }
  }
  return n;
}

// ---- ports ---------------------------------------------------------------------------------

void TigonNic::mailbox_write(Mailbox box, std::uint32_t value, RecordId cause) {
  const auto b = static_cast<std::uint32_t>(box);
  mailbox_cause_ = cause;
  mailbox_values_[b] = value;
  mailbox_dirty_ |= 1u << b;
  wake();
}

std::uint32_t TigonNic::register_read(Register reg) {
  switch (reg) {
    case Register::SendConsumer:  // PARALLEL: the firmware's send consumer index, read by PIO
      return static_cast<std::uint32_t>(send_->slot(send_->cons(Copy::Nic)));
  }
  return 0;
}

void TigonNic::dma_done(DmaChannel ch, const DmaRequest& req) {
  // The bus transfer is over; the DMA is complete when its bytes have passed the SRAM.
  const Time landed = sram_.bulk(SramClient::Dma, req.bytes, ctx_->now());
  if (landed > ctx_->now() || !landing_.empty()) {
    landing_.push_back({ch, req});
    ctx_->at(std::max(landed, ctx_->now()), this, kDmaLanded);
    return;
  }
  dma_landed(ch, req);
}

void TigonNic::dma_landed(DmaChannel ch,
                          const DmaRequest& req) {  // What the DMA hardware itself completes; the
                                                    // firmware hears of it by an event.
  switch (req.purpose) {
    case Purpose::SendDataFetch:  // the data is in the transmit buffer; the MAC may send it
      data_done_ = std::max<std::uint64_t>(data_done_, req.cookie + 1);
      kick_mac();
      break;
    case Purpose::ReturnBdWrite: {  // the return BD is in host memory
      Descriptor d = return_pending_.front();
      return_pending_.pop_front();
      d.cause = req.done;
      ret_->desc(Copy::Host, req.cookie) = d;
      break;
    }
    case Purpose::SendConsumerWrite:
      send_->set_cons(Copy::Host, req.cookie & ~kTimerTrigger);
      break;
    case Purpose::ReturnProducerWrite:
      ret_->set_prod(Copy::Host, req.cookie & ~kTimerTrigger);
      break;
    default:
      break;
  }
  (ch == DmaChannel::Read ? read_done_ : write_done_).push_back(req);
  ++stats_.units_in;
  wake();
}

void TigonNic::dma_space(DmaChannel ch) {
  auto& backlog = backlog_[static_cast<int>(ch)];
  while (!backlog.empty() && dma_.enqueue(ch, backlog.front())) backlog.pop_front();
  wake();
}

void TigonNic::frame_arrived(const Frame& f) {
  Frame in = f;
  in.cause = ctx_->record(me(Component::MacRx),
                          rec::MacRxDone()
                              .packet(f.packet)
                              .frame_bytes(f.frame_bytes)
                              .mac_queue(static_cast<std::uint32_t>(rx_queue_.size() + 1)),
                          f.cause);
  if (rx_used_ + f.frame_bytes > cfg_.rx_buffer_bytes) {  // the MAC's receive FIFO is full
    ctx_->record(me(Component::Nic), rec::RxDrop().packet(f.packet).reason(1), in.cause);
    ++tally_->drops_buffer_full;
    return;
  }
  rx_used_ += f.frame_bytes;
  rx_queue_.push_back(in);
  sram_.bulk(SramClient::Mac, f.frame_bytes, ctx_->now());
  ++stats_.units_in;
  wake();
}

void TigonNic::link_sent(const Frame& f) {
  const RecordId end = ctx_->record(
      me(Component::MacTx), rec::MacTxEnd().packet(f.packet).frame_bytes(f.frame_bytes), f.cause);
  tx_used_ -= f.frame_bytes;
  if (tx_wait_) {
    tx_wait_ = false;
    raise(E::SendDataReady, end);
    wake();
  }
}

void TigonNic::link_ready() { kick_mac(); }

void TigonNic::kick_mac() {
  // "Transmit the packet when it arrives in the transmit buffer" (§3.1.3 step 4): in order.
  while (!mac_tx_.empty() && data_done_ > mac_tx_.front().end_index) {
    if (!tx_link_->ready()) return;  // the wire calls link_ready when free
    Frame out = mac_tx_.front().frame;
    mac_tx_.pop_front();
    sram_.bulk(SramClient::Mac, out.frame_bytes, ctx_->now());
    // The frame on the wire follows from its MacTxStart.
    out.cause = ctx_->record(me(Component::MacTx),
                             rec::MacTxStart()
                                 .packet(out.packet)
                                 .frame_bytes(out.frame_bytes)
                                 .mac_queue_left(static_cast<std::uint32_t>(mac_tx_.size())),
                             out.cause);
    tx_link_->send(out);
  }
}

// ---- the DMA channels ----------------------------------------------------------------------

bool TigonNic::channel_free(DmaChannel ch) const {
  return backlog_[static_cast<int>(ch)].empty() && dma_.has_space(ch);
}

void TigonNic::issue(DmaChannel ch, RecordId handler, DmaRequest req) {
  req.cause = handler;  // the handler that queued it
  auto& backlog = backlog_[static_cast<int>(ch)];
  if (!backlog.empty() || !dma_.enqueue(ch, req)) backlog.push_back(req);
}

RecordId TigonNic::source(E e) const {
  // Queue-like events: the first item's record; flag-like events: what raised the bit.
  switch (e) {
    case E::Mailbox:
      return mailbox_cause_;
    case E::ReceiveComplete:
      return rx_queue_.empty() ? 0 : rx_queue_.front().cause;
    case E::DmaReadComplete:
      return read_done_.empty() ? 0 : read_done_.front().done;
    case E::DmaWriteComplete:
      return write_done_.empty() ? 0 : write_done_.front().done;
    default:
      return raised_by_[static_cast<std::size_t>(bit(e))];
  }
}

// ---- events and the dispatch loop ----------------------------------------------------------

void TigonNic::raise(E e, RecordId cause) {
  raised_ = static_cast<std::uint16_t>(raised_ | (1u << bit(e)));
  raised_by_[static_cast<std::size_t>(bit(e))] = cause;
}

std::uint16_t TigonNic::ready_among(std::uint16_t events) const {
  // One pass over the state behind the events, each part looked at once: the dispatch loop
  // reads both CPUs' registers on every wake, so this is the firmware model's hottest code.
  constexpr auto b = [](E e) { return static_cast<std::uint16_t>(1u << bit(e)); };
  std::uint32_t set = 0;
  if (mailbox_dirty_ != 0) set |= b(E::Mailbox);
  // A handler that would enqueue a DMA waits while the channel's queue is full (nic_facts
  // §3.8: the firmware's "DMA read ring full" counter).
  constexpr std::uint16_t kNeedRead =
      b(E::SendBdReady) | b(E::ReceiveBdReady) | b(E::SendDataReady);
  if ((raised_ & events & kNeedRead) && channel_free(DmaChannel::Read)) set |= raised_ & kNeedRead;
  constexpr std::uint16_t kNeedWrite = b(E::UpdateSendConsumer) | b(E::UpdateReturnProducer);
  if (raised_ & events & kNeedWrite) {
    if (channel_free(DmaChannel::Write)) {
      set |= raised_ & kNeedWrite;
    } else if (!usc_by_dma_) {
      set |= raised_ & b(E::UpdateSendConsumer);  // the consumer index is written locally
    }
  }
  if ((events & b(E::ReceiveComplete)) && !rx_queue_.empty()) {
    bool rc;
    if (receive_->pending(Copy::Nic) == 0) {
      // No receive BD on the NIC: wait if the driver has posted more (they are being
      // fetched); otherwise the handler drops the frame.
      rc = recv_notified_ <= receive_->prod(Copy::Nic);
    } else {
      rc = ret_->free_slots() - return_reserved_ > 0 && backlog_[1].empty() &&
           dma_.has_space(DmaChannel::Write, 2);
    }
    if (rc) set |= b(E::ReceiveComplete);
  }
  if (!read_done_.empty()) set |= b(E::DmaReadComplete);
  if (!write_done_.empty()) set |= b(E::DmaWriteComplete);
  return static_cast<std::uint16_t>(set & events);
}

std::uint16_t TigonNic::mask_bits(int cpu, std::uint16_t ready_set) const {
  std::uint16_t mask = partition_mask_[static_cast<std::size_t>(cpu)];
  // The two events that start new packets share the CPU in turn (chosen: the thesis does not
  // say how one CPU shares itself between directions, but its bidirectional results carry
  // traffic both ways; with a strict order a flood of either would starve the other).
  const int d = cpus_[static_cast<std::size_t>(cpu)].deferred;
  if (d >= 0) {
    const int other = d == bit(E::SendDataReady) ? bit(E::ReceiveComplete) : bit(E::SendDataReady);
    if ((mask & (1u << other)) && (ready_set & (1u << other)))
      mask = static_cast<std::uint16_t>(mask & ~(1u << d));
  }
  return mask;
}

std::uint16_t TigonNic::register_bits(int cpu, std::uint16_t ready_set) const {
  return static_cast<std::uint16_t>(mask_bits(cpu, ready_set) & ready_set);
}

void TigonNic::record_registers(std::uint16_t ready_set) {
  // Both registers follow from the ready set and each CPU's turn alone: read again with the same
  // ones, they are as recorded.
  const std::uint32_t from = ready_set | static_cast<std::uint32_t>(cpus_[0].deferred + 1) << 16 |
                             static_cast<std::uint32_t>(cpus_[1].deferred + 1) << 24;
  if (from == registers_from_) return;
  registers_from_ = from;
  for (int cpu = 0; cpu < 2; ++cpu) {
    if (!cpu_present(cpu)) continue;
    Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
    const std::uint16_t mask = mask_bits(cpu, ready_set);
    const std::uint16_t bits = static_cast<std::uint16_t>(mask & ready_set);
    if (bits == c.recorded_bits && mask == c.recorded_mask) continue;
    if (!ctx_->trace.keeps(ctx_->now())) {  // the id only: no cause to look for
      c.recorded_bits = bits;
      c.recorded_mask = mask;
      ctx_->trace.skip(ctx_->now());
      continue;
    }
    // The register follows from what raised the highest event bit that is new in it.
    const std::uint16_t fresh = c.recorded_bits == 0xFFFF ? 0 : bits & ~c.recorded_bits;
    RecordId cause = 0;
    for (int e = kTigonEvents - 1; e >= 0 && cause == 0; --e)
      if (fresh & (1u << e)) cause = source(static_cast<E>(e));
    c.recorded_bits = bits;
    c.recorded_mask = mask;
    ctx_->record(
        me(Component::TigonCpu),
        rec::TigonRegister().cpu(static_cast<std::uint32_t>(cpu)).event_bits(bits).mask_bits(mask),
        cause);
  }
}

void TigonNic::record_snapshot() {
  for (Cpu& c : cpus_) c.recorded_bits = c.recorded_mask = 0xFFFF;  // forces a record
  registers_from_ = kNoRegisters;
  record_registers();
  ctx_->record(me(Component::Nic),
               rec::TigonSnapshot()
                   .dma_read_queue(static_cast<std::uint32_t>(dma_.queued(DmaChannel::Read)))
                   .dma_write_queue(static_cast<std::uint32_t>(dma_.queued(DmaChannel::Write)))
                   .mac_transmit_queue(static_cast<std::uint32_t>(mac_tx_.size()))
                   .mac_receive_queue(static_cast<std::uint32_t>(rx_queue_.size())));
}

void TigonNic::wake() {
  const std::uint16_t ready_set = ready_bits();
  record_registers(ready_set);
  for (int cpu = 0; cpu < 2; ++cpu) {
    Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
    if (!cpu_present(cpu) || c.state != CpuState::Idle || register_bits(cpu, ready_set) == 0)
      continue;
    c.state = CpuState::Dispatching;
    const Time t = loop_time_[static_cast<std::size_t>(cpu)];
    c.busy_until = ctx_->now() + t;
    stats_.cpu_busy[static_cast<std::size_t>(cpu)] += t;
    ctx_->after(t, this, kDispatched | (static_cast<std::uint32_t>(cpu) << 8));
  }
}

bool TigonNic::lock_needed(int cpu, E e) const {
  return tigon_lock_needed(tcfg_.firmware, partition_, usc_by_dma_, cpu, e);
}

void TigonNic::dispatched(int cpu) {
  Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
  const std::uint16_t ready_set = ready_bits();
  record_registers(ready_set);  // PRI reads the register as it is now
  const std::uint16_t bits = register_bits(cpu, ready_set);
  if (bits == 0) {
    c.state = CpuState::Idle;
    return;
  }
  // PRI: the most significant set bit.
  c.event = static_cast<E>(31 - __builtin_clz(static_cast<unsigned>(bits)));
  if (!(lock_events_[static_cast<std::size_t>(cpu)] & (1u << bit(c.event)))) {
    begin(cpu, true);
    return;
  }
  if (lock_holder_ < 0) {
    lock_holder_ = cpu;
    c.state = CpuState::Locking;
    c.busy_until = ctx_->now() + tcfg_.semaphore_access;
    stats_.cpu_busy[static_cast<std::size_t>(cpu)] += tcfg_.semaphore_access;
    ctx_->after(tcfg_.semaphore_access, this, kLocked | (static_cast<std::uint32_t>(cpu) << 8));
    return;
  }
  c.state = CpuState::Spinning;  // the other CPU holds the one semaphore
  c.spin_started = ctx_->now();
  spinner_ = cpu;
  ctx_->record(me(Component::TigonCpu), rec::TigonSemaphore()
                                            .cpu(static_cast<std::uint32_t>(cpu))
                                            .operation(0)
                                            .event(static_cast<std::uint32_t>(c.event)));
}

void TigonNic::release_lock(int cpu) {
  Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
  c.holds_lock = false;
  lock_holder_ = -1;
  ctx_->record(me(Component::TigonCpu), rec::TigonSemaphore()
                                            .cpu(static_cast<std::uint32_t>(cpu))
                                            .operation(2)
                                            .event(static_cast<std::uint32_t>(c.event)));
  if (spinner_ < 0) return;
  const int s = spinner_;
  spinner_ = -1;
  Cpu& w = cpus_[static_cast<std::size_t>(s)];
  const Time spun = ctx_->now() - w.spin_started;
  stats_.cpu_busy[static_cast<std::size_t>(s)] += spun + tcfg_.semaphore_access;
  stats_.cpu_spin[static_cast<std::size_t>(s)] += spun;
  lock_holder_ = s;
  w.state = CpuState::Locking;
  w.busy_until = ctx_->now() + tcfg_.semaphore_access;
  ctx_->after(tcfg_.semaphore_access, this, kLocked | (static_cast<std::uint32_t>(s) << 8));
}

TigonPlacement TigonNic::placement_for(int cpu, E event) const {
  TigonPlacement p;
  switch (tcfg_.firmware) {
    case TigonFirmware::Release:
    case TigonFirmware::Bsd: {
      // The released firmware keeps a subset of its code and data in CPU A's scratch pad; the
      // thesis does not say which (§3.2.1), so chosen shares stand for it: one for the send
      // and buffer pre-allocation handlers (Table 3.4's CPU B set), one for the others.
      const bool send_side = tigon_table_3_4()[static_cast<std::size_t>(event)] == kCpuB;
      const bool bsd = tcfg_.firmware == TigonFirmware::Bsd;
      const double scratch =
          send_side
              ? (bsd ? tcfg_.bsd_scratch_fraction_send : tcfg_.release_scratch_fraction_send)
              : (bsd ? tcfg_.bsd_scratch_fraction_receive : tcfg_.release_scratch_fraction_receive);
      p.code_in_sram = tcfg_.code_in_sram ? 1.0 : 1.0 - scratch;
      p.data_in_sram = tcfg_.data_in_sram ? 1.0 : 1.0 - scratch;
      return p;
    }
    case TigonFirmware::Dynamic:
      // Any CPU may run any handler: 21 KB of code fits neither scratch pad, and data that
      // persists across invocations must be shared (§3.6).
      p.code_in_sram = 1.0;
      p.data_in_sram = 1.0;
      return p;
    case TigonFirmware::Parallel:
    case TigonFirmware::Custom: {
      std::int64_t bytes = 0;
      for (int e = 0; e < kTigonEvents; ++e)
        if (partition_[static_cast<std::size_t>(e)] & (1 << cpu))
          bytes += tigon_code_bytes(static_cast<E>(e));
      const std::int64_t scratch = cpu == 0 ? 16384 : 8192;  // §3.1.1
      p.code_in_sram = (tcfg_.code_in_sram || bytes > scratch) ? 1.0 : 0.0;
      p.data_in_sram = tcfg_.data_in_sram ? 1.0 : 0.0;
      return p;
    }
  }
  return p;
}

void TigonNic::begin(int cpu, bool checked) {
  Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
  if (!checked &&
      (!ready(c.event) || !(partition_[static_cast<std::size_t>(bit(c.event))] & (1 << cpu)))) {
    // The other CPU took the work while we waited for the semaphore: back to the loop.
    if (c.holds_lock) release_lock(cpu);
    c.state = CpuState::Idle;
    wake();
    return;
  }
  claim(c.event, &c.work);
  if (c.work.cause == 0 && ctx_->trace.keeping()) c.work.cause = source(c.event);
  // The path's cost is fixed by the configuration (worked out in the constructor); only the
  // SRAM's contention depends on the moment.
  const PathCost& pc =
      path_cost_[static_cast<std::size_t>(cpu)][static_cast<std::size_t>(c.work.path)];
  const SramClient me_client = cpu == 0 ? SramClient::CpuA : SramClient::CpuB;
  const Time now = ctx_->now();
  const Sram::Load load = sram_.load_seen_by(me_client, now);
  sram_.book(me_client, pc.traffic, now);
  const double wait = TigonCostModel::sram_wait(pc.sram_accesses, load);
  stats_.sram_accesses += pc.sram_accesses;
  stats_.sram_wait += wait;
  c.duration = pc.time + static_cast<Time>(wait) + (c.holds_lock ? tcfg_.semaphore_access : 0);
  c.state = CpuState::Running;
  c.busy_from = now;
  // Outside the trace window the ids only (SramLoad, TigonHandler): the SRAM's utilisation is
  // summed over its window for the record alone.
  if (!ctx_->trace.keeps(now)) {
    ctx_->trace.skip(now);
    c.work.handler = ctx_->trace.skip(now);
    record_registers();
    ctx_->after(c.duration, this, kHandlerEnd | (static_cast<std::uint32_t>(cpu) << 8));
    return;
  }
  ctx_->record(
      me(Component::Sram),
      rec::SramLoad()
          .utilisation(static_cast<std::uint32_t>(sram_.utilization(now) * 1000.0 + 0.5))
          .wait_per_access_ps(static_cast<std::uint32_t>(std::min<Time>(load.wait, 0xFFFFFFFF)))
          .cpu(static_cast<std::uint32_t>(cpu)));
  std::uint32_t packet = 0;
  if (c.work.path == P::Receive || c.work.path == P::ReceiveNoBuffer)
    packet = c.work.frame.packet;
  else if (c.work.path == P::SendData)
    packet = send_->desc(Copy::Nic, c.work.index).packet;
  else
    packet = c.work.dma.packet;
  c.work.handler = ctx_->record(
      me(Component::TigonCpu),
      rec::TigonHandler()
          .event(static_cast<std::uint32_t>(bit(c.event)))
          .cpu(static_cast<std::uint32_t>(cpu))
          .path(static_cast<std::uint32_t>(c.work.path))
          .duration_ps(static_cast<std::uint32_t>(std::min<Time>(c.duration, 0xFFFFFFFF)))
          .packet(packet),
      c.work.cause);
  record_registers();  // the claim cleared the event's bit (or took one of its items)
  ctx_->after(c.duration, this, kHandlerEnd | (static_cast<std::uint32_t>(cpu) << 8));
}

void TigonNic::end(int cpu) {
  Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
  const auto ci = static_cast<std::size_t>(cpu);
  stats_.cpu_busy[ci] += c.duration;
  stats_.cpu_handlers[ci] += c.duration;
  stats_.handler_time[static_cast<std::size_t>(bit(c.event))] += c.duration;
  ++stats_.handler_runs[static_cast<std::size_t>(bit(c.event))];
  stats_.path_time[static_cast<std::size_t>(c.work.path)] += c.duration;
  ++stats_.path_runs[static_cast<std::size_t>(c.work.path)];
  finish(cpu, c.event, c.work);
  if (c.event == E::SendDataReady || c.event == E::ReceiveComplete) c.deferred = bit(c.event);
  ctx_->record(me(Component::TigonCpu),
               rec::TigonHandlerEnd()
                   .event(static_cast<std::uint32_t>(bit(c.event)))
                   .cpu(static_cast<std::uint32_t>(cpu))
                   .path(static_cast<std::uint32_t>(c.work.path)),
               c.work.handler);
  if (c.holds_lock) release_lock(cpu);
  c.state = CpuState::Idle;
  wake();
}

void TigonNic::fire(std::uint32_t tag) {
  const int cpu = static_cast<int>((tag >> 8) & 1);
  switch (tag & 0xFF) {
    case kDispatched:
      dispatched(cpu);
      return;
    case kLocked: {
      Cpu& c = cpus_[static_cast<std::size_t>(cpu)];
      c.holds_lock = true;
      ctx_->record(me(Component::TigonCpu), rec::TigonSemaphore()
                                                .cpu(static_cast<std::uint32_t>(cpu))
                                                .operation(1)
                                                .event(static_cast<std::uint32_t>(c.event)));
      begin(cpu, false);
      return;
    }
    case kHandlerEnd:
      end(cpu);
      return;
    case kSnapshot:
      record_snapshot();
      return;
    case kDmaLanded: {
      const Landing l = landing_.front();
      landing_.pop_front();
      dma_landed(l.ch, l.req);
      return;
    }
    case kSendTimer:
      timer_expired(send_coalesce_, tag >> 8, kCauseSend, &send_trigger_, E::UpdateSendConsumer);
      return;
    case kReturnTimer:
      timer_expired(return_coalesce_, tag >> 8, kCauseReceive, &return_trigger_,
                    E::UpdateReturnProducer);
      return;
    default:
      ctx_->fail("Tigon: unknown event tag " + std::to_string(tag));
  }
}

// ---- the handlers (§3.1.3) -----------------------------------------------------------------

void TigonNic::claim(E e, Work* claimed) {
  Work& w = *claimed;
  w = Work{};
  auto fetch = [&](DescriptorRing* ring, std::uint64_t notified, bool* inflight, P go, P idle) {
    const std::uint64_t p = ring->prod(Copy::Nic);
    if (*inflight || notified <= p) {
      w.path = idle;
      return;
    }
    const std::uint64_t to_end = static_cast<std::uint64_t>(ring->size() - ring->slot(p));
    w.index = std::min({notified - p, static_cast<std::uint64_t>(cfg_.bd_fetch_max), to_end});
    *inflight = true;
    w.path = go;
  };
  switch (e) {
    case E::Mailbox:
      w.path = P::MailboxRead;
      w.mailbox_dirty = mailbox_dirty_;
      w.mailbox_values = mailbox_values_;
      mailbox_dirty_ = 0;
      break;
    case E::SendBdReady:
      lower(e);
      fetch(send_, send_notified_, &send_fetch_inflight_, P::SendBdFetch, P::SendBdIdle);
      break;
    case E::ReceiveBdReady:
      lower(e);
      fetch(receive_, recv_notified_, &recv_fetch_inflight_, P::ReceiveBdFetch, P::ReceiveBdIdle);
      break;
    case E::DmaReadComplete:
      w.dma = read_done_.front();
      read_done_.pop_front();
      w.cause = w.dma.done;  // the DMA's completion raised the event
      w.path = w.dma.purpose == Purpose::SendBdFetch   ? P::ReadDoneSendBds
               : w.dma.purpose == Purpose::RecvBdFetch ? P::ReadDoneReceiveBds
                                                       : P::ReadDoneSendData;
      break;
    case E::DmaWriteComplete:
      w.dma = write_done_.front();
      write_done_.pop_front();
      w.cause = w.dma.done;
      w.path = w.dma.purpose == Purpose::RecvDataWrite   ? P::WriteDoneData
               : w.dma.purpose == Purpose::ReturnBdWrite ? P::WriteDoneReturnBd
                                                         : P::WriteDoneIndex;
      break;
    case E::SendDataReady: {
      lower(e);
      w.path = P::SendDataWait;
      if (send_next_data_ >= send_->prod(Copy::Nic)) break;
      const Descriptor& d = send_->desc(Copy::Nic, send_next_data_);
      const std::int64_t need = d.end ? d.bytes + kCrcBytes : d.bytes;
      if (tx_used_ + need > cfg_.tx_buffer_bytes) {
        if (!tx_wait_) {
          ++tally_->tx_buffer_full;
          ctx_->record(me(Component::Nic), rec::TxBufferFull().packet(d.packet),
                       raised_by_[static_cast<std::size_t>(bit(e))]);
        }
        tx_wait_ = true;
        break;
      }
      tx_used_ += need;
      w.index = send_next_data_++;
      w.path = P::SendData;
      break;
    }
    case E::UpdateSendConsumer:
      lower(e);
      w.path = usc_by_dma_ ? P::SendConsumerDma : P::SendConsumerLocal;
      w.index = send_->cons(Copy::Nic) | (send_trigger_ ? kTimerTrigger : 0);
      send_coalesce_.reported();
      send_trigger_ = 0;
      break;
    case E::UpdateReturnProducer:
      lower(e);
      w.path = P::ReturnProducerDma;
      w.index = ret_->prod(Copy::Nic) | (return_trigger_ ? kTimerTrigger : 0);
      return_coalesce_.reported();
      return_trigger_ = 0;
      break;
    case E::ReceiveComplete: {
      w.frame = rx_queue_.front();
      rx_queue_.pop_front();
      w.cause = w.frame.cause;  // its MacRxDone
      ctx_->record(me(Component::MacRx),
                   rec::MacRxTaken()
                       .packet(w.frame.packet)
                       .mac_queue(static_cast<std::uint32_t>(rx_queue_.size())),
                   w.frame.cause);
      if (receive_->pending(Copy::Nic) == 0) {
        w.path = P::ReceiveNoBuffer;
        break;
      }
      w.index = receive_->cons(Copy::Nic);
      receive_->set_cons(Copy::Nic, w.index + 1);
      ++return_reserved_;
      w.path = P::Receive;
      break;
    }
    case E::Count:
      break;
  }
}

void TigonNic::finish(int, E, const Work& w) {
  switch (w.path) {
    case P::MailboxRead:  // step 1: read the producer indices, raise the BD Ready events
      for (std::uint32_t b = 0; b < 4; ++b) {
        if (!(w.mailbox_dirty & (1u << b))) continue;
        const std::uint32_t v = w.mailbox_values[b];
        switch (static_cast<Mailbox>(b)) {
          case Mailbox::SendProducer:
            send_notified_ = send_->unwrap(send_notified_, v);
            raise(E::SendBdReady, w.handler);
            break;
          case Mailbox::ReceiveProducer:
            recv_notified_ = receive_->unwrap(recv_notified_, v);
            raise(E::ReceiveBdReady, w.handler);
            break;
          case Mailbox::ReturnConsumer:
            ret_->set_cons(Copy::Nic, ret_->unwrap(ret_->cons(Copy::Nic), v));
            break;
          case Mailbox::InterruptAck:
            break;
        }
      }
      break;
    case P::SendBdFetch:  // step 2
      issue(DmaChannel::Read, w.handler,
            {Purpose::SendBdFetch,
             static_cast<std::uint32_t>(w.index * static_cast<std::uint64_t>(cfg_.send_bd_bytes)),
             send_->desc(Copy::Host, send_->prod(Copy::Nic)).packet, w.index});
      break;
    case P::ReceiveBdFetch:
      issue(
          DmaChannel::Read, w.handler,
          {Purpose::RecvBdFetch,
           static_cast<std::uint32_t>(w.index * static_cast<std::uint64_t>(cfg_.receive_bd_bytes)),
           receive_->desc(Copy::Host, receive_->prod(Copy::Nic)).packet, w.index});
      break;
    case P::SendBdIdle:
    case P::ReceiveBdIdle:
    case P::SendDataWait:
    case P::WriteDoneReturnBd:
      break;
    case P::ReadDoneSendBds:
    case P::ReadDoneReceiveBds: {  // step 3: the BDs are in NIC memory
      const bool is_send = w.path == P::ReadDoneSendBds;
      DescriptorRing* ring = is_send ? send_ : receive_;
      const std::uint64_t p = ring->prod(Copy::Nic);
      for (std::uint64_t i = 0; i < w.dma.cookie; ++i)
        ring->desc(Copy::Nic, p + i) = ring->desc(Copy::Host, p + i);
      ring->set_prod(Copy::Nic, p + w.dma.cookie);
      (is_send ? send_fetch_inflight_ : recv_fetch_inflight_) = false;
      if (is_send) raise(E::SendDataReady, w.handler);
      if ((is_send ? send_notified_ : recv_notified_) > ring->prod(Copy::Nic))
        raise(is_send ? E::SendBdReady : E::ReceiveBdReady, w.handler);
      ++stats_.units_done;
      break;
    }
    case P::ReadDoneSendData:  // step 5: the BD's buffer is consumed
      if (w.dma.cookie != send_->cons(Copy::Nic)) {
        ctx_->fail("Tigon: send data completed out of order");
        return;
      }
      send_->set_cons(Copy::Nic, w.dma.cookie + 1);
      // "If the number of send descriptors consumed is greater than the interrupt coalescing
      // threshold, raise Update Send Consumer" (§3.1.3 step 5).
      if (send_coalesce_.add(ctx_, this)) {
        send_trigger_ = 0;
        raise(E::UpdateSendConsumer, w.handler);
      }
      ++stats_.units_done;
      break;
    case P::SendData: {  // step 4: DMA the packet in, queue its MAC descriptor
      const Descriptor d = send_->desc(Copy::Nic, w.index);
      issue(DmaChannel::Read, w.handler,
            {Purpose::SendDataFetch, d.bytes, d.packet, w.index, d.header_bytes});
      frame_so_far_ += d.bytes;
      payload_so_far_ += d.payload;
      if (d.end) {
        const std::uint32_t frame =
            std::max<std::uint32_t>(frame_so_far_ + kCrcBytes, kMinFrameBytes);
        mac_tx_.push_back({Frame{d.packet, frame, payload_so_far_}, w.index});
        mac_tx_.back().frame.cause = ctx_->record(me(Component::MacTx),
                                                  rec::MacTxQueued().packet(d.packet).mac_queue(
                                                      static_cast<std::uint32_t>(mac_tx_.size())),
                                                  w.handler);
        frame_so_far_ = payload_so_far_ = 0;
        kick_mac();
      }
      if (send_next_data_ < send_->prod(Copy::Nic)) raise(E::SendDataReady, w.handler);
      break;
    }
    case P::SendConsumerDma:  // step 6
      issue(DmaChannel::Write, w.handler,
            {Purpose::SendConsumerWrite, static_cast<std::uint32_t>(cfg_.index_bytes), 0, w.index});
      break;
    case P::SendConsumerLocal:  // PARALLEL: the driver reads the index by PIO (§3.2.2)
      interrupt_host(kCauseSend, (w.index & kTimerTrigger) ? 1 : 0, w.handler);
      break;
    case P::ReturnProducerDma:  // receive step 2
      issue(
          DmaChannel::Write, w.handler,
          {Purpose::ReturnProducerWrite, static_cast<std::uint32_t>(cfg_.index_bytes), 0, w.index});
      break;
    case P::Receive: {  // receive step 1: packet and return BD to the host
      const Frame& f = w.frame;
      ++tally_->rx_accepted;
      issue(
          DmaChannel::Write, w.handler,
          {Purpose::RecvDataWrite, f.frame_bytes - static_cast<std::uint32_t>(kCrcBytes), f.packet,
           f.frame_bytes, f.frame_bytes - static_cast<std::uint32_t>(kCrcBytes) - f.payload_bytes});
      const std::uint64_t p = ret_->prod(Copy::Nic);
      const Descriptor d{f.packet, f.payload_bytes,
                         static_cast<std::uint32_t>(receive_->slot(w.index))};
      ret_->desc(Copy::Nic, p) = d;
      return_pending_.push_back(d);
      issue(
          DmaChannel::Write, w.handler,
          {Purpose::ReturnBdWrite, static_cast<std::uint32_t>(cfg_.return_bd_bytes), f.packet, p});
      ret_->set_prod(Copy::Nic, p + 1);
      --return_reserved_;
      if (return_coalesce_.add(ctx_, this)) {
        return_trigger_ = 0;
        raise(E::UpdateReturnProducer, w.handler);
      }
      ++stats_.units_done;
      break;
    }
    case P::ReceiveNoBuffer:
      ctx_->record(me(Component::Nic), rec::RxDrop().packet(w.frame.packet).reason(0), w.handler);
      ++tally_->drops_no_descriptor;
      rx_used_ -= w.frame.frame_bytes;
      ++stats_.units_done;
      break;
    case P::WriteDoneData:  // receive step 3: the packet is in host memory
      rx_used_ -= static_cast<std::int64_t>(w.dma.cookie);
      ++stats_.units_done;
      break;
    case P::WriteDoneIndex:  // send step 7, receive step 5
      interrupt_host(w.dma.purpose == Purpose::SendConsumerWrite ? kCauseSend : kCauseReceive,
                     (w.dma.cookie & kTimerTrigger) ? 1 : 0, w.handler);
      ++stats_.units_done;
      break;
    case P::Count:
      break;
  }
  if (w.path == P::WriteDoneReturnBd) ++stats_.units_done;
}

void TigonNic::timer_expired(Coalescer& c, std::uint32_t generation, std::uint32_t cause,
                             std::uint32_t* trigger, E event) {
  if (!c.expire(generation)) return;  // superseded by a report
  const RecordId timer = ctx_->record(me(Component::Nic), rec::CoalesceTimer().causes(cause));
  if (c.unreported() == 0) return;
  *trigger = 1;
  raise(event, timer);
  wake();
}

void TigonNic::interrupt_host(std::uint32_t cause, std::uint32_t trigger, RecordId why) {
  const RecordId raised =
      ctx_->record(me(Component::Nic), rec::InterruptRaise().causes(cause).trigger(trigger), why);
  irq_->raise_interrupt(cause, raised);
}

}  // namespace nicsim
