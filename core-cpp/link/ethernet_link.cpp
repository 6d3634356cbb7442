#include "link/ethernet_link.hpp"

namespace nicsim {

LinkDirection::LinkDirection(SimContext* ctx, const LinkConfig& cfg, LinkEndpoint* sender,
                             LinkEndpoint* receiver)
    : ctx_(ctx),
      byte_time_(8 * 1000000 / cfg.rate_mbps),  // ps per byte: 8000 at 1 Gb/s, 800 at 10 Gb/s
      preamble_(cfg.preamble_bytes),
      ifg_(cfg.ifg_bytes),
      propagation_(cfg.propagation),
      sender_(sender),
      receiver_(receiver) {}

Time LinkDirection::frame_time(std::uint32_t frame_bytes) const {
  return (preamble_ + static_cast<std::int64_t>(frame_bytes)) * byte_time_;
}

Time LinkDirection::slot_time(std::uint32_t frame_bytes) const {
  return frame_time(frame_bytes) + ifg_ * byte_time_;
}

void LinkDirection::send(const Frame& f) {
  busy_ = true;
  in_flight_ = f;
  const Time now = ctx_->now();
  carried_.begin_slot(now, now + slot_time(f.frame_bytes), f.payload_bytes);
  // Arrival is ordered before the wire frees at the same instant (a zero gap).
  ctx_->after(frame_time(f.frame_bytes), this, kArrive, kPriorityFirst);
  ctx_->after(slot_time(f.frame_bytes), this, kFree);
}

void LinkDirection::fire(std::uint32_t tag) {
  if (tag == kArrive) {
    sender_->link_sent(in_flight_);
    if (propagation_ == 0) {
      receiver_->frame_arrived(in_flight_);
    } else {
      propagating_.push_back(in_flight_);
      ctx_->after(propagation_, this, kPropagated, kPriorityFirst);
    }
    return;
  }
  if (tag == kPropagated) {
    const Frame f = propagating_.front();
    propagating_.pop_front();
    receiver_->frame_arrived(f);
    return;
  }
  busy_ = false;
  if (waiting_) {
    waiting_ = false;
    sender_->link_ready();
  }
}

double ethernet_limit_mbps(const LinkConfig& link, std::int64_t d) {
  const double wire = static_cast<double>(frame_bytes(d) + link.preamble_bytes + link.ifg_bytes);
  return static_cast<double>(link.rate_mbps) * static_cast<double>(d) / wire;
}

}  // namespace nicsim
