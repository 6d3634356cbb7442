#include "sinic/sinic_device.hpp"

#include <algorithm>
#include <string>

#include "sinic/sinic_regs.hpp"

namespace nicsim {

namespace {
// nic_facts §1.1: ZeroCopyMark — only requests longer than this are cut to the header.
constexpr std::int64_t kZeroCopyMark = 256;
// nic_facts §1.1: TxMaxCopy — the transmit FIFO reports Full below this much free space.
constexpr std::int64_t kTxMaxCopy = 16 * 1024;
}  // namespace

SinicDevice::SinicDevice(SimContext* ctx, const SinicDeviceConfig& cfg, std::int64_t vnics,
                         Time cycle, L2Port* port)
    : ctx_(ctx),
      cfg_(cfg),
      cycle_(cycle),
      port_(port),
      rx_capacity_(cfg.fifo_bytes_per_vnic > 0 ? vnics * cfg.fifo_bytes_per_vnic
                                               : cfg.rx_fifo_bytes),
      rx_(static_cast<std::size_t>(vnics)),
      tx_(static_cast<std::size_t>(vnics)) {}

// §3.1 footnote 2 and Table 1: the engine moves 64 bytes per CPU cycle through the L2 port.
Time SinicDevice::copy_time(std::int64_t bytes) const {
  return cfg_.copy_setup + (bytes + 63) / 64 * cycle_;
}

SinicDevice::RxEntry* SinicDevice::entry(std::int64_t seq) {
  const std::int64_t i = seq - fifo_base_;
  if (i < 0 || i >= static_cast<std::int64_t>(fifo_.size())) return nullptr;
  return &fifo_[static_cast<std::size_t>(i)];
}

void SinicDevice::update_marks() {
  // nic_facts §1.4 step 7: below the low mark zero copy is allowed again; above the high mark
  // it is not (the conservative policy of §6 Fig 11).
  if (rx_occupancy_ < cfg_.low_mark_bytes) not_high_ = true;
  if (rx_occupancy_ >= cfg_.high_mark_bytes) not_high_ = false;
}

void SinicDevice::rx_frame(const NetPacket& p) {
  RxEntry e;
  e.packet = p;
  e.frame = p.frame();
  e.left = p.frame();
  fifo_.push_back(e);
  ++unbound_;
  rx_occupancy_ += e.frame;
  update_marks();
  if (on_rx_packet) on_rx_packet();
  kick_rx();
}

std::int64_t SinicDevice::free_vnics() const {
  std::int64_t n = 0;
  for (const RxVnic& v : rx_) n += (!v.busy && v.entry < 0) ? 1 : 0;
  return n;
}
std::int64_t SinicDevice::bound_vnics() const {
  std::int64_t n = 0;
  for (const RxVnic& v : rx_) n += v.entry >= 0 ? 1 : 0;
  return n;
}

Status SinicDevice::write_rx_data(std::int64_t vnic, std::int64_t len, bool no_delay) {
  if (vnic < 0 || vnic >= vnics()) return Status::fail("RxData: no VNIC " + std::to_string(vnic));
  RxVnic& v = rx_[static_cast<std::size_t>(vnic)];
  // §3.2: one outstanding copy per VNIC.
  if (v.busy)
    return Status::fail("RxData: VNIC " + std::to_string(vnic) + " has a copy outstanding");
  if (len <= 0) return Status::fail("RxData: length must be positive");
  v.busy = true;
  v.complete = false;
  v.request = len;
  v.no_delay = no_delay;
  // nic_facts §1.4 step 2: a VNIC bound to a packet continues it; others want a new packet
  // (and may be posted while the FIFO is empty: pre-posting, §3.2).
  (v.entry >= 0 ? rx_continuing_ : rx_new_).push_back(vnic);
  note_vnic(vnic, static_cast<std::uint32_t>(VnicRx::Posted), v.entry >= 0 ? v.packet.id : 0, len);
  kick_rx();
  return Status::ok();
}

RxDoneReg SinicDevice::read_rx_done(std::int64_t vnic) const {
  RxDoneReg r;
  r.packets = static_cast<std::uint32_t>(unbound_);
  r.empty = rx_occupancy_ == 0;
  r.not_high = not_high_;
  if (vnic >= 0 && vnic < vnics()) {
    const RxVnic& v = rx_[static_cast<std::size_t>(vnic)];
    r.busy = v.busy;
    r.complete = v.complete;
    r.more = v.more;
    r.copy_len = v.copy_len;
    r.packet = v.packet;
    r.ip = r.tcp = v.complete;  // the comparators classify every TCP/IP frame (§3.1)
  }
  return r;
}

void SinicDevice::rx_wait(std::int64_t vnic, std::function<void(const RxDoneReg&)> done) {
  if (vnic < 0 || vnic >= vnics()) return;
  RxVnic& v = rx_[static_cast<std::size_t>(vnic)];
  if (!v.busy) {
    done(read_rx_done(vnic));
    return;
  }
  v.waiters.push_back(std::move(done));
}

void SinicDevice::kick_rx() {
  if (rx_engine_busy_) return;
  std::int64_t vnic = -1;
  // nic_facts §1.4 step 2: continuing VNICs are served first.
  if (!rx_continuing_.empty()) {
    vnic = rx_continuing_.front();
    rx_continuing_.pop_front();
  } else {
    // Step 3: a VNIC wanting a new packet binds the oldest unbound one.
    while (next_unbound_ < fifo_base_ + static_cast<std::int64_t>(fifo_.size()) &&
           entry(next_unbound_)->vnic >= 0)
      ++next_unbound_;
    if (rx_new_.empty() || next_unbound_ >= fifo_base_ + static_cast<std::int64_t>(fifo_.size()))
      return;
    vnic = rx_new_.front();
    rx_new_.pop_front();
    RxVnic& v = rx_[static_cast<std::size_t>(vnic)];
    v.entry = next_unbound_++;
    RxEntry* e = entry(v.entry);
    e->vnic = vnic;
    --unbound_;
    v.packet = e->packet;
  }
  RxVnic& v = rx_[static_cast<std::size_t>(vnic)];
  RxEntry* e = entry(v.entry);
  std::int64_t len = std::min(v.request, e->left);  // §3.1: copies at most one packet
  const bool first = e->left == e->frame;
  // §3.3 / nic_facts §1.4 step 4: with zero copy on, a first copy longer than the mark is cut
  // to the header and the payload stays in the FIFO bound to this VNIC. The conservative
  // policy (§6 Fig 11) does so only while the FIFO is below its marks.
  const bool allowed = cfg_.zero_copy == ZeroCopyPolicy::Aggressive ||
                       (cfg_.zero_copy == ZeroCopyPolicy::Conservative && not_high_);
  if (first && allowed && !v.no_delay && len > kZeroCopyMark) {
    len = cfg_.zero_copy_bytes;
    ++zero_copy_cuts;
  } else if (first) {
    ++full_copies;
  }
  rx_engine_busy_ = true;
  rx_engine_vnic_ = vnic;
  note_vnic(vnic, static_cast<std::uint32_t>(VnicRx::Copying), e->packet.id, len);
  port_->request(copy_time(len), [this, vnic, len] { rx_copy_done(vnic, len); });
}

void SinicDevice::rx_copy_done(std::int64_t vnic, std::int64_t len) {
  rx_engine_busy_ = false;
  RxVnic& v = rx_[static_cast<std::size_t>(vnic)];
  RxEntry* e = entry(v.entry);
  e->left -= len;
  v.busy = false;
  v.complete = true;
  v.more = e->left > 0;
  // nic_facts §1.3: CopyLen is the bytes copied, or the bytes left when More is set.
  v.copy_len = static_cast<std::uint32_t>(v.more ? e->left : len);
  const bool last = !v.more;
  if (last) {
    e->done = true;
    v.entry = -1;
    // The packet's space is free once its last byte is copied, even behind the head: a
    // deferred packet holds its own 1.5 KB slot (§6: "each VNIC can point to a 1514 byte
    // packet"). gem5's circular FIFO frees only at the head (nic_facts §1.4 step 6).
    rx_occupancy_ -= e->frame;
    while (!fifo_.empty() && fifo_.front().done) {
      fifo_.pop_front();
      ++fifo_base_;
    }
    update_marks();
  }
  note_vnic(vnic, static_cast<std::uint32_t>(last ? VnicRx::Done : VnicRx::Deferred), v.packet.id,
            last ? len : e->left);
  if (on_rx_copy) on_rx_copy(vnic, len, last);
  std::vector<std::function<void(const RxDoneReg&)>> waiters;
  waiters.swap(v.waiters);
  const RxDoneReg r = read_rx_done(vnic);
  kick_rx();
  for (auto& w : waiters) w(r);
}

void SinicDevice::note_vnic(std::int64_t vnic, std::uint32_t state, std::uint32_t packet,
                            std::int64_t bytes) {
  ctx_->record(Component::Nic, rec::VnicState()
                                   .vnic(static_cast<std::uint32_t>(vnic))
                                   .state(state)
                                   .packet(packet)
                                   .bytes(static_cast<std::uint32_t>(bytes))
                                   .fifo_bytes(static_cast<std::uint32_t>(rx_occupancy_)));
}

void SinicDevice::trace_snapshot() {
  for (std::int64_t i = 0; i < vnics(); ++i) {
    const RxVnic& v = rx_[static_cast<std::size_t>(i)];
    const RxEntry* e = v.entry >= 0 ? entry(v.entry) : nullptr;
    const std::uint32_t packet = e ? e->packet.id : 0;
    if (rx_engine_busy_ && rx_engine_vnic_ == i) {
      note_vnic(i, static_cast<std::uint32_t>(VnicRx::Copying), packet, e ? e->left : 0);
    } else if (v.busy) {
      note_vnic(i, static_cast<std::uint32_t>(VnicRx::Posted), packet, v.request);
    } else if (e) {
      note_vnic(i, static_cast<std::uint32_t>(VnicRx::Deferred), packet, e->left);
    } else if (v.complete) {
      note_vnic(i, static_cast<std::uint32_t>(VnicRx::Done), v.packet.id, v.copy_len);
    }
  }
}

Status SinicDevice::write_tx_data(std::int64_t vnic, std::int64_t len, bool more, bool csum,
                                  const NetPacket& packet) {
  (void)csum;  // §3.1: the adders compute the checksum during the copy, at no extra time
  if (vnic < 0 || vnic >= vnics()) return Status::fail("TxData: no VNIC " + std::to_string(vnic));
  TxVnic& v = tx_[static_cast<std::size_t>(vnic)];
  if (v.busy)
    return Status::fail("TxData: VNIC " + std::to_string(vnic) + " has a copy outstanding");
  v.busy = true;
  v.complete = false;
  v.len = len;
  v.more = more;
  v.packet = packet;
  if (!v.queued) {
    v.queued = true;
    tx_list_.push_back(vnic);
  }
  kick_tx();
  return Status::ok();
}

TxDoneReg SinicDevice::read_tx_done(std::int64_t vnic) const {
  TxDoneReg r;
  r.packets = static_cast<std::uint32_t>(tx_fifo_.size());
  // A FIFO smaller than two maximal copies reports Full below half its size instead, so a
  // small FIFO still drains into a stopped queue (chosen).
  r.full = cfg_.tx_fifo_bytes - tx_occupancy_ - assembling_ <
           std::min(kTxMaxCopy, cfg_.tx_fifo_bytes / 2);
  if (vnic >= 0 && vnic < vnics()) {
    const TxVnic& v = tx_[static_cast<std::size_t>(vnic)];
    r.busy = v.busy;
    r.complete = v.complete;
    r.copy_len = v.copy_len;
  }
  return r;
}

void SinicDevice::tx_wait(std::int64_t vnic, std::function<void(const TxDoneReg&)> done) {
  if (vnic < 0 || vnic >= vnics()) return;
  TxVnic& v = tx_[static_cast<std::size_t>(vnic)];
  if (!v.busy) {
    done(read_tx_done(vnic));
    return;
  }
  v.waiters.push_back(std::move(done));
}

void SinicDevice::kick_tx() {
  if (tx_engine_busy_ || tx_list_.empty()) return;
  const std::int64_t vnic = tx_list_.front();
  TxVnic& v = tx_[static_cast<std::size_t>(vnic)];
  if (!v.busy) return;  // the owner has not written its next piece yet: the engine stays its
  // nic_facts §1.5 step 2: wait for FIFO space for this piece.
  if (cfg_.tx_fifo_bytes - tx_occupancy_ - assembling_ < v.len) return;
  tx_engine_busy_ = true;
  port_->request(copy_time(v.len), [this, vnic] { tx_copy_done(vnic); });
}

void SinicDevice::tx_copy_done(std::int64_t vnic) {
  tx_engine_busy_ = false;
  TxVnic& v = tx_[static_cast<std::size_t>(vnic)];
  v.busy = false;
  v.complete = true;
  v.copy_len = static_cast<std::uint32_t>(v.len);
  assembling_ += v.len;
  if (!v.more) {
    // The packet is complete: it enters the FIFO and the VNIC releases the engine (§3.2).
    tx_fifo_.push_back({v.packet, vnic});
    tx_occupancy_ += assembling_;
    assembling_ = 0;
    tx_list_.pop_front();
    v.queued = false;
    link_ready();
  }
  std::vector<std::function<void(const TxDoneReg&)>> waiters;
  waiters.swap(v.waiters);
  const TxDoneReg r = read_tx_done(vnic);
  kick_tx();
  for (auto& w : waiters) w(r);
}

void SinicDevice::link_ready() {
  if (tx_fifo_.empty() || (link_busy && link_busy())) return;
  const auto [p, vnic] = tx_fifo_.front();
  tx_fifo_.pop_front();
  tx_occupancy_ -= p.frame();
  if (on_wire) on_wire(p, vnic);
  if (link_send) link_send(p);
  if (on_tx_space) on_tx_space();
  kick_tx();
}

}  // namespace nicsim
