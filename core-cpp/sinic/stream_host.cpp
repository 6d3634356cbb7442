#include "sinic/stream_host.hpp"

#include <algorithm>

#include "trace/trace_kinds.hpp"

namespace nicsim {

namespace {
// Ethernet CRC + preamble/SFD + inter-frame gap on the wire (nic_facts §2.5).
constexpr std::int64_t kWireExtraBytes = 4;
// The driver allocates 2 KB receive buffers and passes their size as the copy length (§3.1).
constexpr std::int64_t kRxBufferBytes = 2048;
constexpr std::int64_t kHeaderLine = 64;  // eth_type_trans() reads the headers: one cache line
bool is_sinic(NicModel m) { return m == NicModel::Sinic || m == NicModel::VSinic; }
}  // namespace

StreamHost::StreamHost(SimContext* ctx, const Config& cfg)
    : ctx_(ctx),
      cfg_(cfg),
      sc_(cfg.sinic),
      model_(cfg.nic_model),
      receive_(cfg.workload.direction == Direction::Receive),
      off_chip_(cfg.nic_model == NicModel::CnicOffChip),
      cycle_(1000 / cfg.sinic.cpu.ghz),
      l2_(cfg.sinic.l2),
      port_(ctx),
      to_peer_(ctx, cfg.link.rate_mbps,
               kWireExtraBytes + cfg.link.preamble_bytes + cfg.link.ifg_bytes),
      to_host_(ctx, cfg.link.rate_mbps,
               kWireExtraBytes + cfg.link.preamble_bytes + cfg.link.ifg_bytes),
      conns_(static_cast<std::size_t>(cfg.sinic.tcp.connections)) {
  if (is_sinic(model_)) {
    // §3.1: SINIC is one register set; §3.2: V-SINIC has `vnics` of them.
    const std::int64_t v = model_ == NicModel::VSinic ? sc_.sinic.vnics : 1;
    sinic_ = std::make_unique<SinicDevice>(ctx, sc_.sinic, v, cycle_, &port_);
    vnic_stamp_.assign(static_cast<std::size_t>(v), L2Model::kNotCached);
    sinic_->link_busy = [this] { return to_peer_.busy(); };
    sinic_->link_send = [this](const NetPacket& p) { to_peer_.send(p); };
    sinic_->on_rx_packet = [this] { post_interrupt(); };
    sinic_->on_tx_space = [this] {
      if (!qdisc_.empty() && !restart_) {
        restart_ = true;
        dispatch();
      }
    };
    // The copy engine writes through the L2 port: the bytes land in the L2 (§3.1 fn 2).
    sinic_->on_rx_copy = [this](std::int64_t vnic, std::int64_t bytes, bool) {
      vnic_stamp_[static_cast<std::size_t>(vnic)] = l2_.place(bytes);
      peer_try_send();
    };
    to_peer_.ready = [this] { sinic_->link_ready(); };
  } else {
    cnic_ = std::make_unique<Cnic>(ctx, sc_.cnic, model_ == NicModel::CnicOnChip,
                                   sc_.sinic.rx_fifo_bytes, cycle_, &port_);
    cnic_->link_busy = [this] { return to_peer_.busy(); };
    cnic_->link_send = [this](const NetPacket& p) { to_peer_.send(p); };
    cnic_->on_interrupt_cause = [this] { post_interrupt(); };
    // §6: on chip, DMA places data in the last-level cache; off chip, it goes to DRAM.
    cnic_->on_placed = [this](const NetPacket& p) {
      cnic_stamps_.push_back(off_chip_ ? L2Model::kNotCached : l2_.place(p.frame()));
    };
    cnic_->on_rx_space = [this] { peer_try_send(); };
    to_peer_.ready = [this] { cnic_->link_ready(); };
  }
  to_peer_.deliver = [this](const NetPacket& p) { peer_receive(p); };
  to_host_.deliver = [this](const NetPacket& p) { host_receive(p); };
  to_host_.ready = [this] { peer_try_send(); };
  for (Conn& k : conns_) {
    k.adv_edge = sc_.tcp.socket_buffer;
    k.peer_edge = sc_.tcp.socket_buffer;
    k.thread = receive_ ? Thread::Blocked : Thread::Runnable;
  }
}

void StreamHost::start() {
  if (!receive_) {
    for (std::uint32_t c = 0; c < conns_.size(); ++c) runq_.push_back(c);
  }
  peer_try_send();
  dispatch();
}

// ---------------------------------------------------------------- the CPU

// A copy that misses waits for DRAM (Table 1: 50 ns) and for the L2-to-memory bus (4 bytes per
// cycle); the copy loop overlaps `copy_mlp` misses (chosen).
Time StreamHost::miss_time(std::int64_t lines) const {
  const Time per_line =
      sc_.l2.memory_latency * 100 / sc_.l2.copy_mlp_x100 + cyc((sc_.l2.line_bytes + 3) / 4);
  return lines * per_line;
}

// A dependent load that misses (a descriptor the NIC wrote, a frame's header) waits the whole
// DRAM latency (Table 1: 50 ns): nothing overlaps it.
Time StreamHost::load_miss(std::int64_t lines) const {
  return lines * (sc_.l2.memory_latency + cyc((sc_.l2.line_bytes + 3) / 4));
}

// Off chip the CNIC reads and writes its descriptors in DRAM: the driver's first touch of one
// is a dependent miss (§6); on chip the NIC's DMA placed it in the L2.
Time StreamHost::descriptor_miss() {
  if (!off_chip_) return 0;
  ++n_.missed_lines;
  return load_miss(1);
}

std::int64_t StreamHost::count_misses(std::int64_t stamp, std::int64_t bytes) {
  const std::int64_t m = l2_.missing_lines(stamp, bytes);
  n_.missed_lines += m;
  return m;
}

void StreamHost::account(CpuPart part, Time from, Time to) {
  if (to > from) n_.cpu[static_cast<std::size_t>(part)] += to - from;
}

void StreamHost::compute(CpuPart part, Time d, std::function<void()> then, std::uint32_t packet) {
  busy_ = true;
  part_ = part;
  unit_start_ = ctx_->now();
  then_ = std::move(then);
  ctx_->record(Component::HostCpu, rec::CpuPart()
                                       .part(static_cast<std::uint32_t>(part))
                                       .duration_ns(static_cast<std::uint32_t>(d / kNs))
                                       .packet(packet));
  ctx_->after(d, this, kUnitDone);
}

void StreamHost::stall(CpuPart part) {
  busy_ = true;
  part_ = part;
  unit_start_ = ctx_->now();
}

void StreamHost::resume() {
  account(part_, unit_start_, ctx_->now());
  unit_start_ = ctx_->now();
}

void StreamHost::finish() {
  busy_ = false;
  dispatch();
}

std::pair<std::int64_t, std::int64_t> StreamHost::stream_bytes() const {
  std::int64_t sent = 0, delivered = 0;
  for (const Conn& k : conns_) {
    sent += receive_ ? k.peer_nxt : k.snd_nxt;
    delivered += receive_ ? k.read_seq : k.peer_rcv;
  }
  return {sent, delivered};
}

StreamCounters StreamHost::counters() const {
  StreamCounters c = n_;
  if (busy_) c.cpu[static_cast<std::size_t>(part_)] += ctx_->now() - unit_start_;
  if (paused_) c.pause += ctx_->now() - pause_since_;
  c.wire_payload = (receive_ ? to_host_ : to_peer_).carried_payload(ctx_->now());
  return c;
}

void StreamHost::dispatch() {
  if (busy_) return;
  // The interrupt, then the driver's receive pass (the CNIC's rx tasklet, SINIC's poll loop),
  // then the stack's softirq work on the backlog (CNIC), then the netperf threads.
  if (intr_pending_) {
    intr_pending_ = false;
    // The handler reads the interrupt status and masks the NIC's receive interrupts (DP83820
    // driver: ISR read, IMR write; SINIC: IntrStatus, IntrMask). §2.2, §6: off chip both are
    // uncached accesses across the I/O bridge.
    const Time reg = reg_read() + reg_write();
    ++n_.register_reads;
    note_reg(NicReg::IntrStatus, kAnyVnic,
             sinic_ && sinic_->read_rx_done(-1).packets > 0 ? sinic_bits::kIntrRxPacket : 0,
             reg_read());
    ctx_->record(Component::Driver,
                 rec::IsrStart().interrupt(static_cast<std::uint32_t>(n_.interrupts)),
                 intr_raised_);
    compute(CpuPart::Driver, cyc(sc_.cpu.isr_cycles) + reg, [this] {
      masked_ = true;  // the driver's pass runs with the NIC's interrupts masked
      note_reg(NicReg::IntrMask, kAnyVnic, 0, reg_write());
      rx_poll_ = true;
      reclaim_ = cnic_ != nullptr;
      finish();
    });
    return;
  }
  if (rx_poll_) return rx_poll_one();
  if (reclaim_) return reclaim_one();
  if (!backlog_.empty()) {
    const Skb s = backlog_.front();
    backlog_.pop_front();
    return stack_rx(s);
  }
  if (restart_) return restart_one();
  if (cur_thread_ < 0 && !runq_.empty()) {
    cur_thread_ = runq_.front();
    runq_.pop_front();
  }
  if (cur_thread_ >= 0) {
    const auto c = static_cast<std::uint32_t>(cur_thread_);
    return receive_ ? reader_step(c) : writer_step(c);
  }
}

void StreamHost::fire(std::uint32_t tag) {
  if (tag == kUnitDone) {
    account(part_, unit_start_, ctx_->now());
    std::function<void()> then = std::move(then_);
    then_ = nullptr;
    then();
    return;
  }
  if (tag == kResume) {
    std::function<void()> then = std::move(resume_then_);
    resume_then_ = nullptr;
    resume();
    then();
    return;
  }
  if (tag == kIntrTimer) {
    intr_timer_ = false;
    if (masked_) return;
    last_intr_ = ctx_->now();
    intr_pending_ = true;
    ++n_.interrupts;
    intr_raised_ = ctx_->record(Component::Nic, rec::InterruptRaise().causes(3).trigger(1));
    dispatch();
    return;
  }
  if (tag >= kWake) {
    const std::uint32_t c = tag - kWake;
    Conn& k = conns_[c];
    k.thread = Thread::Runnable;
    runq_.push_back(c);
    dispatch();
  }
}

// §5.1: "a fixed delay in the NIC bounds interrupt generation to once per 10 µs" (used for
// all four NICs: gem5's SINIC has the same 10 µs intr_delay, nic_facts §1.6).
void StreamHost::post_interrupt() {
  if (masked_ || intr_timer_ || intr_pending_) return;
  const Time when = ctx_->now() + sc_.cnic.interrupt_interval;
  intr_timer_ = true;
  ctx_->at(when, this, kIntrTimer);
}

// The driver's pass is over: it unmasks the NIC's interrupts (a register write, across the
// bridge off chip); work that arrived meanwhile raises the interrupt again (at most once per
// interval). The CNIC's stack work then runs from the backlog.
void StreamHost::poll_done() {
  rx_poll_ = false;
  if (reclaim_) return finish();
  auto unmask = [this] {
    masked_ = false;
    const bool more = cnic_ ? (cnic_->rx_completed() > 0 || cnic_->tx_completed() > 0)
                            : (sinic_->read_rx_done(-1).packets > 0 && !vnic_starved_);
    if (more) post_interrupt();
    finish();
  };
  if (!masked_) return unmask();  // a pass restarted by a freed VNIC, not by an interrupt
  compute(CpuPart::Driver, reg_write(), [this, unmask] {
    note_reg(NicReg::IntrMask, kAnyVnic, sinic_bits::kIntrMaskReset, reg_write());
    unmask();
  });
}

void StreamHost::to_backlog(const Skb& s) {
  backlog_.push_back(s);  // netif_rx()
  finish();
}

// ---------------------------------------------------------------- receive path

void StreamHost::rx_poll_one() {
  if (sinic_) return rx_sinic_one();
  if (cnic_->rx_completed() == 0) return poll_done();
  // §2.2 receive step 4: the driver takes the filled buffer, converts it to an sk_buff and
  // refills the descriptor, and eth_type_trans() reads the frame's header. Off chip the NIC
  // wrote both the descriptor and the frame to DRAM: two dependent misses.
  Skb s;
  s.p = cnic_->take_rx();
  s.stamp = cnic_stamps_.front();
  cnic_stamps_.pop_front();
  Time d = cyc(sc_.cnic.rx_cycles) + load_miss(count_misses(s.stamp, kHeaderLine));
  d += descriptor_miss();
  compute(
      CpuPart::Driver, d, [this, s] { to_backlog(s); }, s.p.id);
}

void StreamHost::rx_sinic_one() {
  // §3.1 receive: read RxDone; if a packet waits, write RxData with the buffer's address and
  // size, and wait on RxWait.
  ++n_.register_reads;
  const RxDoneReg done = sinic_->read_rx_done(-1);
  note_reg(NicReg::RxDone, kAnyVnic, sinic_bits::rx_done(done), sc_.cnic.register_on_chip);
  if (done.packets == 0) return poll_done();
  std::int64_t vnic = 0;
  if (model_ == NicModel::VSinic) {
    vnic = -1;
    const std::int64_t nv = sinic_->vnics();
    for (std::int64_t i = 0; i < nv; ++i) {
      const std::int64_t v = (next_vnic_ + i) % nv;
      if (sinic_->vnic_idle(v)) {
        vnic = v;
        next_vnic_ = (v + 1) % nv;
        break;
      }
    }
    if (vnic < 0) {
      // Every VNIC holds a deferred packet (§3.2): the FIFO waits for read()s to free one.
      vnic_starved_ = true;
      return poll_done();
    }
  }
  vnic_starved_ = false;
  std::int64_t cycles = sc_.sinic.rx_cycles;
  // §3.2 footnote 3: V-SINIC's driver has additional overheads.
  if (model_ == NicModel::VSinic) cycles += sc_.sinic.vsinic_extra_cycles;
  compute(CpuPart::Driver, cyc(cycles) + 2 * sc_.cnic.register_on_chip, [this, vnic] {
    note_reg(NicReg::RxData, vnic, sinic_bits::rx_data(kRxBufferBytes, false),
             sc_.cnic.register_on_chip);
    const Status st = sinic_->write_rx_data(vnic, kRxBufferBytes, false);
    if (!st.is_ok()) ctx_->fail(st.message());
    wait_rx(vnic, CpuPart::Driver, [this, vnic](const RxDoneReg& r) {
      Skb s;
      s.p = r.packet;
      s.stamp = vnic_stamp_[static_cast<std::size_t>(vnic)];
      if (r.more) {
        // §3.3: only the header was copied; the sk_buff is flagged as in the FIFO on `vnic`.
        s.in_fifo = true;
        s.vnic = vnic;
        s.left = r.copy_len;
      }
      // The copy engine moved the frame (or its header) that arrived: it follows from it.
      s.cause =
          ctx_->record(Component::Nic,
                       rec::SinicCopy()
                           .direction(0)
                           .vnic(static_cast<std::uint32_t>(vnic))
                           .packet(s.p.id)
                           .bytes(r.more ? static_cast<std::uint32_t>(sc_.sinic.zero_copy_bytes)
                                         : static_cast<std::uint32_t>(s.p.frame()))
                           .what(r.more ? 1u : 0u),
                       r.packet.cause);
      // eth_type_trans() reads the header the engine just wrote through the L2 port (a hit).
      // The SINIC driver polls (its Config register has a Poll bit, nic_facts §1.3): the
      // stack processes each packet in the driver's poll loop, interrupts masked.
      const std::int64_t m = count_misses(s.stamp, kHeaderLine);
      if (m == 0) return stack_rx(s);
      compute(
          CpuPart::Driver, load_miss(m), [this, s] { stack_rx(s); }, s.p.id);
    });
  });
}

void StreamHost::wait_rx(std::int64_t vnic, CpuPart part,
                         std::function<void(const RxDoneReg&)> then) {
  stall(part);
  const Time t0 = ctx_->now();
  sinic_->rx_wait(vnic, [this, vnic, t0, then](const RxDoneReg& r) {
    if (sc_.sinic.blocking_wait) {
      // §3.1: one blocking load replaces the busy-wait loop.
      ++n_.register_reads;
      note_reg(NicReg::RxWait, vnic, sinic_bits::rx_done(r), ctx_->now() - t0);
      resume();
      then(r);
      return;
    }
    // Non-blocking: the driver reads RxDone every poll interval until the copy is done.
    const Time poll = sc_.sinic.poll_interval;
    // Reads at t0, t0 + poll, ...: the first that finds the copy done ends the loop.
    const Time polls = (ctx_->now() - t0 + poll - 1) / poll;
    n_.register_reads += polls + 1;
    resume_then_ = [this, vnic, then, r] {
      note_reg(NicReg::RxDone, vnic, sinic_bits::rx_done(r), sc_.cnic.register_on_chip);
      then(r);
    };
    ctx_->at(t0 + polls * poll, this, kResume);
  });
}

void StreamHost::wait_tx(std::int64_t vnic, std::function<void()> then) {
  stall(CpuPart::Driver);
  const Time t0 = ctx_->now();
  sinic_->tx_wait(vnic, [this, vnic, t0, then](const TxDoneReg& r) {
    if (sc_.sinic.blocking_wait) {
      ++n_.register_reads;
      note_reg(NicReg::TxWait, vnic, sinic_bits::tx_done(r), ctx_->now() - t0);
      resume();
      then();
      return;
    }
    const Time poll = sc_.sinic.poll_interval;
    // Reads at t0, t0 + poll, ...: the first that finds the copy done ends the loop.
    const Time polls = (ctx_->now() - t0 + poll - 1) / poll;
    n_.register_reads += polls + 1;
    resume_then_ = [this, vnic, then, r] {
      note_reg(NicReg::TxDone, vnic, sinic_bits::tx_done(r), sc_.cnic.register_on_chip);
      then();
    };
    ctx_->at(t0 + polls * poll, this, kResume);
  });
}

void StreamHost::stack_rx(const Skb& s) {
  // TCP/IP receive processing (the softirq, from the backlog); the driver already brought the
  // headers into the cache.
  const std::int64_t cycles = s.p.ack ? sc_.cpu.stack_ack_rx_cycles : sc_.cpu.stack_rx_cycles;
  compute(
      CpuPart::Stack, cyc(cycles),
      [this, s] {
        Conn& k = conns_[s.p.conn];
        if (s.p.ack) {
          // The stressor acknowledged data: free the send buffer, wake the writer.
          if (s.p.ack_seq > k.snd_una) k.snd_una = s.p.ack_seq;
          if (k.thread == Thread::Blocked) {
            k.thread = Thread::Runnable;
            runq_.push_back(s.p.conn);
          }
          return finish();
        }
        k.queue.push_back(s);
        k.rcv_nxt = s.p.seq + s.p.payload;
        wake_reader(s.p.conn);
        if (++k.segs_unacked >= cfg_.workload.ack_every) {
          k.segs_unacked = 0;
          return send_ack(s.p.conn, [this] { finish(); });
        }
        finish();
      },
      s.p.id);
}

void StreamHost::send_ack(std::uint32_t conn, std::function<void()> then) {
  Conn& k = conns_[conn];
  NetPacket a;
  a.id = ctx_->new_packet();
  a.conn = conn;
  a.ack = true;
  a.ack_seq = k.rcv_nxt;
  // The advertised window is the socket buffer's free space (data not yet read counts).
  a.window = sc_.tcp.socket_buffer - (k.rcv_nxt - k.read_seq);
  k.adv_edge = a.ack_seq + a.window;
  compute(
      CpuPart::Stack, cyc(sc_.cpu.stack_ack_tx_cycles), [this, a, then] { driver_xmit(a, then); },
      a.id);
}

void StreamHost::wake_reader(std::uint32_t c) {
  Conn& k = conns_[c];
  if (k.thread != Thread::Blocked) return;
  // Slow reader (§6): the thread learns of the data (select()) and runs read() much later.
  Time delay = 0;
  if (sc_.tcp.read_delay > 0) {
    delay = static_cast<Time>(ctx_->rng.below(static_cast<std::uint64_t>(2 * sc_.tcp.read_delay)));
  }
  if (delay == 0) {
    k.thread = Thread::Runnable;
    runq_.push_back(c);
    return;
  }
  k.thread = Thread::Waking;
  ctx_->after(delay, this, kWake + c);
}

void StreamHost::reader_step(std::uint32_t c) {
  Conn& k = conns_[c];
  if (!k.in_call) {
    k.in_call = true;
    k.call_bytes = 0;
    return compute(CpuPart::Stack, cyc(sc_.cpu.syscall_cycles), [this, c] { reader_copy(c); });
  }
  reader_copy(c);
}

void StreamHost::reader_copy(std::uint32_t c) {
  Conn& k = conns_[c];
  if (k.queue.empty() || k.call_bytes >= sc_.tcp.message_bytes) {
    // recv() returns; netperf counts it and calls again.
    return compute(CpuPart::User, cyc(sc_.cpu.user_cycles), [this, c] {
      Conn& kk = conns_[c];
      kk.in_call = false;
      cur_thread_ = -1;
      if (kk.queue.empty()) {
        kk.thread = Thread::Blocked;
      } else {
        runq_.push_back(c);
      }
      // Window update once the reader has freed a quarter of the buffer (chosen).
      if (kk.read_seq + sc_.tcp.socket_buffer - kk.adv_edge >= sc_.tcp.socket_buffer / 4) {
        return send_ack(c, [this] { finish(); });
      }
      finish();
    });
  }
  const Skb s = k.queue.front();
  k.queue.pop_front();
  auto consumed = [this, c, s] {
    Conn& kk = conns_[c];
    kk.read_seq = s.p.seq + s.p.payload;
    kk.call_bytes += s.p.payload;
    n_.payload_bytes += s.p.payload;
    ++n_.packets;
  };
  if (s.in_fifo) {
    // §3.3: skb_copy_datagram_iovec() sees the flag and has the VNIC copy the payload from the
    // FIFO straight into the user's buffer; the CPU sets it up and waits (Fig 9's "copy").
    return compute(
        CpuPart::Copy, cyc(sc_.sinic.zero_copy_setup_cycles),
        [this, s, consumed] {
          const RecordId rx_data =
              note_reg(NicReg::RxData, s.vnic, sinic_bits::rx_data(s.left, true),
                       sc_.cnic.register_on_chip, s.cause);
          const Status st = sinic_->write_rx_data(s.vnic, s.left, true);
          if (!st.is_ok()) ctx_->fail(st.message());
          wait_rx(s.vnic, CpuPart::Copy, [this, s, consumed, rx_data](const RxDoneReg&) {
            n_.zero_copy_bytes += s.p.payload;
            ctx_->record(Component::Nic,
                         rec::SinicCopy()
                             .direction(0)
                             .vnic(static_cast<std::uint32_t>(s.vnic))
                             .packet(s.p.id)
                             .bytes(static_cast<std::uint32_t>(s.left))
                             .what(2),
                         rx_data);
            consumed();
            if (vnic_starved_ && !rx_poll_) rx_poll_ = true;  // a VNIC is free again
            finish();
          });
        },
        s.p.id);
  }
  // The kernel copy sk_buff → user buffer: cache-to-cache while the buffer is still in the L2,
  // DRAM-to-cache once it spilled (§6).
  const std::int64_t m = count_misses(s.stamp, s.p.payload);
  ctx_->record(Component::HostCpu,
               rec::L2Copy()
                   .packet(s.p.id)
                   .bytes(static_cast<std::uint32_t>(s.p.payload))
                   .lines_missed(static_cast<std::uint32_t>(m))
                   .lines(static_cast<std::uint32_t>(l2_.lines(s.p.payload))),
               s.cause);
  compute(
      CpuPart::Copy, cyc(s.p.payload / sc_.cpu.copy_bytes_per_cycle) + miss_time(m),
      [this, consumed] {
        consumed();
        finish();
      },
      s.p.id);
}

// ---------------------------------------------------------------- transmit path

void StreamHost::writer_step(std::uint32_t c) {
  Conn& k = conns_[c];
  if (!k.in_call) {
    k.in_call = true;
    k.call_bytes = 0;
    return compute(CpuPart::Stack, cyc(sc_.cpu.syscall_cycles), [this] { finish(); });
  }
  if (k.call_bytes >= sc_.tcp.message_bytes) {
    return compute(CpuPart::User, cyc(sc_.cpu.user_cycles), [this, c] {
      conns_[c].in_call = false;
      finish();
    });
  }
  // The send socket buffer self-throttles the stream (§5.2): block until ACKs free space.
  if (k.snd_nxt - k.snd_una + sc_.tcp.mss > sc_.tcp.socket_buffer) {
    k.thread = Thread::Blocked;
    cur_thread_ = -1;
    return finish();
  }
  NetPacket p;
  p.id = ctx_->new_packet();
  p.conn = c;
  p.seq = k.snd_nxt;
  p.payload = sc_.tcp.mss;
  k.snd_nxt += p.payload;
  k.call_bytes += p.payload;
  // Copy user buffer → sk_buff (the user buffer is resident; the sk_buff is written into the
  // L2), then TCP/IP output, then the driver.
  compute(
      CpuPart::Copy, cyc(p.payload / sc_.cpu.copy_bytes_per_cycle),
      [this, p] {
        l2_.place(p.frame());
        compute(
            CpuPart::Stack, cyc(sc_.cpu.stack_tx_cycles),
            [this, p] { driver_xmit(p, [this] { finish(); }); }, p.id);
      },
      p.id);
}

void StreamHost::driver_xmit(const NetPacket& p, std::function<void()> then, bool from_qdisc) {
  if (sinic_) return sinic_xmit(p, then, from_qdisc);
  // Packets queue in the qdisc, in order, while the ring is full (the driver stops the queue).
  if ((!from_qdisc && !qdisc_.empty()) || cnic_->tx_ring_full()) {
    qdisc_.push_back(p);
    return then();
  }
  // §2.2 transmit steps 1-3: descriptors for header and payload, written into the ring (off
  // chip the ring's line was last written by the NIC: the driver's read of its status
  // misses), then a doorbell register write (kick_tx).
  Time d = cyc(sc_.cnic.tx_cycles) + reg_write();
  d += descriptor_miss();
  compute(
      CpuPart::Driver, d,
      [this, p, then] {
        note_reg(NicReg::Doorbell, kAnyVnic, 0, reg_write());
        cnic_->tx_post(p);
        then();
      },
      p.id);
}

void StreamHost::sinic_xmit(const NetPacket& p, std::function<void()> then, bool from_qdisc) {
  ++n_.register_reads;
  // TxDone.Full stops the queue until the FIFO drains (nic_facts §1.3).
  const TxDoneReg txd = sinic_->read_tx_done(0);
  note_reg(NicReg::TxDone, 0, sinic_bits::tx_done(txd), sc_.cnic.register_on_chip);
  if ((!from_qdisc && !qdisc_.empty()) || txd.full) {
    qdisc_.push_back(p);
    return then();
  }
  // §3.1 transmit: before the next packet the driver checks the engine is free (TxWait);
  // each piece is a TxData write; it waits on TxWait after every piece but the last, whose
  // copy overlaps with computation. Each CPU owns transmit VNIC 0 here (one CPU, §3.2).
  wait_tx(0, [this, p, then] {
    compute(
        CpuPart::Driver,
        cyc(sc_.sinic.tx_cycles +
            (model_ == NicModel::VSinic ? sc_.sinic.vsinic_extra_cycles / 2 : 0)) +
            sc_.cnic.register_on_chip,
        [this, p, then] {
          if (p.payload == 0) {
            const Status st = sinic_->write_tx_data(0, p.frame(), false, true, p);
            if (!st.is_ok()) ctx_->fail(st.message());
            note_reg(NicReg::TxData, 0, sinic_bits::tx_data(p.frame(), false, true),
                     sc_.cnic.register_on_chip);
            ctx_->record(Component::Nic, rec::SinicCopy()
                                             .direction(1)
                                             .vnic(0)
                                             .packet(p.id)
                                             .bytes(static_cast<std::uint32_t>(p.frame()))
                                             .what(0));
            return then();
          }
          const Status st = sinic_->write_tx_data(0, kTcpIpEthHeaderBytes, true, true, p);
          if (!st.is_ok()) ctx_->fail(st.message());
          note_reg(NicReg::TxData, 0, sinic_bits::tx_data(kTcpIpEthHeaderBytes, true, true),
                   sc_.cnic.register_on_chip);
          ctx_->record(Component::Nic, rec::SinicCopy()
                                           .direction(1)
                                           .vnic(0)
                                           .packet(p.id)
                                           .bytes(static_cast<std::uint32_t>(kTcpIpEthHeaderBytes))
                                           .what(3));
          wait_tx(0, [this, p, then] {
            const Status s2 = sinic_->write_tx_data(0, p.payload, false, true, p);
            if (!s2.is_ok()) ctx_->fail(s2.message());
            note_reg(NicReg::TxData, 0, sinic_bits::tx_data(p.payload, false, true),
                     sc_.cnic.register_on_chip);
            ctx_->record(Component::Nic, rec::SinicCopy()
                                             .direction(1)
                                             .vnic(0)
                                             .packet(p.id)
                                             .bytes(static_cast<std::uint32_t>(p.payload))
                                             .what(0));
            then();
          });
        },
        p.id);
  });
}

void StreamHost::reclaim_one() {
  if (cnic_->tx_completed() == 0) {
    reclaim_ = false;
    if (!qdisc_.empty()) restart_ = true;
    if (!rx_poll_) return poll_done();
    return finish();
  }
  // §2.2 transmit step 7: reclaim descriptors and buffers (off chip the written-back
  // descriptor is a dependent miss).
  Time d = cyc(sc_.cnic.reclaim_cycles);
  d += descriptor_miss();
  compute(CpuPart::Driver, d, [this] {
    cnic_->reclaim_one();
    finish();
  });
}

void StreamHost::restart_one() {
  const bool blocked = cnic_ ? cnic_->tx_ring_full() : sinic_->read_tx_done(0).full;
  if (qdisc_.empty() || blocked) {
    restart_ = false;
    return finish();
  }
  const NetPacket p = qdisc_.front();
  qdisc_.pop_front();
  driver_xmit(
      p, [this] { finish(); }, true);
}

// ---------------------------------------------------------------- the stressor and the wire

bool StreamHost::nic_room(std::int64_t frame) const {
  return cnic_ ? cnic_->rx_room(frame) : sinic_->rx_room(frame);
}

void StreamHost::note_pause() {
  if (!paused_) {
    paused_ = true;
    pause_since_ = ctx_->now();
  }
}

void StreamHost::peer_try_send() {
  if (to_host_.busy()) return;
  // ACKs first (stream), then data (maerts), round robin over the connections.
  NetPacket p;
  bool have = false;
  if (!peer_acks_.empty()) {
    if (!nic_room(peer_acks_.front().frame())) return note_pause();
    p = peer_acks_.front();
    peer_acks_.pop_front();
    have = true;
  } else if (receive_) {
    bool window = false;
    for (std::size_t i = 0; i < conns_.size() && !have; ++i) {
      const std::uint32_t c = (peer_rr_ + static_cast<std::uint32_t>(i)) % conns_.size();
      Conn& k = conns_[c];
      if (k.peer_nxt + sc_.tcp.mss > k.peer_edge) continue;
      window = true;
      if (!nic_room(kTcpIpEthHeaderBytes + sc_.tcp.mss)) break;
      p.id = ctx_->new_packet();
      p.conn = c;
      p.seq = k.peer_nxt;
      p.payload = sc_.tcp.mss;
      k.peer_nxt += p.payload;
      peer_rr_ = c + 1;
      have = true;
    }
    // A full receive FIFO holds the lossless link back (chosen: as with PAUSE frames).
    if (!have && window) note_pause();
  }
  if (!have) return;
  if (paused_) {
    paused_ = false;
    n_.pause += ctx_->now() - pause_since_;
  }
  p.cause = ctx_->record(Component::Peer, rec::PeerTxStart().packet(p.id).frame_bytes(
                                              static_cast<std::uint32_t>(p.frame())));
  to_host_.send(p);
}

void StreamHost::host_receive(const NetPacket& p) {
  NetPacket in = p;
  in.cause = ctx_->record(
      Component::Nic,
      rec::MacRxDone().packet(p.id).frame_bytes(static_cast<std::uint32_t>(p.frame())), p.cause);
  if (cnic_) {
    cnic_->rx_frame(in);
  } else {
    sinic_->rx_frame(in);
  }
  ctx_->record(Component::Nic, rec::FifoLevel()
                                   .fifo_bytes(static_cast<std::uint32_t>(rx_fifo_bytes()))
                                   .vnics_bound(static_cast<std::uint32_t>(bound_vnics())));
}

void StreamHost::peer_receive(const NetPacket& p) {
  ctx_->record(Component::Peer,
               rec::PeerRxDone().packet(p.id).frame_bytes(static_cast<std::uint32_t>(p.frame())),
               p.cause);
  Conn& k = conns_[p.conn];
  if (p.ack) {
    // The host's ACK or window update opens the stressor's window.
    k.peer_edge = std::max(k.peer_edge, p.ack_seq + p.window);
    return peer_try_send();
  }
  // The stressor reads at once (§5.1) and acknowledges every second segment.
  k.peer_rcv = p.seq + p.payload;
  n_.payload_bytes += p.payload;
  ++n_.packets;
  if (++k.peer_unacked >= cfg_.workload.ack_every) {
    k.peer_unacked = 0;
    NetPacket a;
    a.id = ctx_->new_packet();
    a.conn = p.conn;
    a.ack = true;
    a.ack_seq = k.peer_rcv;
    a.window = sc_.tcp.socket_buffer;
    peer_acks_.push_back(a);
    peer_try_send();
  }
}

RecordId StreamHost::note_reg(NicReg r, std::int64_t vnic, std::uint64_t value, Time took,
                              RecordId cause) {
  return ctx_->record(Component::Driver,
                      rec::NicRegister()
                          .reg(static_cast<std::uint32_t>(r))
                          .vnic(static_cast<std::uint32_t>(vnic))
                          .value(value)
                          .access_ns(static_cast<std::uint32_t>(took / kNs)),
                      cause);
}

std::int64_t StreamHost::rx_fifo_bytes() const { return sinic_ ? sinic_->rx_occupancy() : 0; }

}  // namespace nicsim
