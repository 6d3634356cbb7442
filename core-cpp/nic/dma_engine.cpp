#include "nic/dma_engine.hpp"

#include <algorithm>

namespace nicsim {

namespace {
Component channel_kind(DmaChannel ch) {
  return ch == DmaChannel::Read ? Component::DmaRead : Component::DmaWrite;
}
}  // namespace

DmaEngine::DmaEngine(SimContext* ctx, IoBus* bus, std::int64_t depth, std::int64_t max_burst,
                     unsigned instance, DmaClient* client)
    : ctx_(ctx),
      bus_(bus),
      depth_(static_cast<std::size_t>(depth)),
      max_burst_(static_cast<std::uint32_t>(max_burst)),
      instance_(instance),
      client_(client) {}

void DmaEngine::refuse(DmaChannel ch, const DmaRequest& req) {
  ++refusals_;
  space_wanted_[static_cast<int>(ch)] = true;
  const RecordId full = ctx_->record(component_id(channel_kind(ch), instance_),
                                     rec::DmaQueueFull().purpose(req.purpose), req.cause);
  if (refused_[static_cast<int>(ch)] == 0) refused_[static_cast<int>(ch)] = full;
}

void DmaEngine::take(DmaChannel ch, const DmaRequest& req, RecordId* queued) {
  auto& q = queue(ch);
  q.push_back(req);
  q.back().id = ctx_->new_dma();
  RecordId& refused = refused_[static_cast<int>(ch)];
  const RecordId cause = refused != 0 ? refused : req.cause;
  refused = 0;
  q.back().queued = ctx_->record(component_id(channel_kind(ch), instance_),
                                 rec::DmaQueued()
                                     .dma(q.back().id)
                                     .purpose(req.purpose)
                                     .bytes(req.bytes)
                                     .packet(req.packet)
                                     .queue_depth(static_cast<std::uint32_t>(q.size())),
                                 cause);
  if (queued != nullptr) *queued = q.back().queued;
  pump();
}

inline void DmaEngine::pump() {
  if (active_) return;
  // A DMA split into bursts keeps the bus master on it until its last burst.
  DmaChannel ch = last_;
  if (offset_ == 0) {
    // Alternate between the channels when both have work (one DMA master, two queues).
    ch = last_ == DmaChannel::Read ? DmaChannel::Write : DmaChannel::Read;
    if (queue(ch).empty()) ch = ch == DmaChannel::Read ? DmaChannel::Write : DmaChannel::Read;
    if (queue(ch).empty()) return;
  }
  const DmaRequest& req = queue(ch).front();
  const std::uint32_t left = req.bytes - offset_;
  BusTransaction txn;
  txn.master = channel_kind(ch);
  txn.instance = instance_;
  txn.purpose = req.purpose;
  txn.bytes = max_burst_ > 0 ? std::min(left, max_burst_) : left;
  txn.header_bytes = req.header_bytes > offset_ ? req.header_bytes - offset_ : 0;
  const std::uint32_t headers = req.header_bytes + req.app_header_bytes;
  txn.app_header_bytes = (headers > offset_ ? headers - offset_ : 0) - txn.header_bytes;
  txn.packet = req.packet;
  txn.read = ch == DmaChannel::Read;
  txn.cookie = static_cast<std::uint64_t>(ch);
  txn.cause = req.queued;
  if (bus_->try_start(txn, this)) {
    active_ = true;
    last_ = ch;
  }
}

void DmaEngine::bus_retry() { pump(); }

void DmaEngine::bus_done(const BusTransaction& txn) {
  const DmaChannel ch = static_cast<DmaChannel>(txn.cookie);
  auto& q = queue(ch);
  active_ = false;
  offset_ += txn.bytes;
  if (offset_ < q.front().bytes) {  // more bursts of this DMA
    pump();
    return;
  }
  offset_ = 0;
  DmaRequest req = q.front();
  q.pop_front();
  req.done = ctx_->record(
      component_id(channel_kind(ch), instance_),
      rec::DmaDone().dma(req.id).purpose(req.purpose).bytes(req.bytes).packet(req.packet), txn.end);
  client_->dma_done(ch, req);
  if (space_wanted_[static_cast<int>(ch)] && q.size() < depth_) {
    space_wanted_[static_cast<int>(ch)] = false;
    client_->dma_space(ch);
  }
  pump();
}

}  // namespace nicsim
