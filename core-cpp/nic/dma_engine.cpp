#include "nic/dma_engine.hpp"

namespace nicsim {

namespace {
Component channel_component(DmaChannel ch) {
  return ch == DmaChannel::Read ? Component::DmaRead : Component::DmaWrite;
}
}  // namespace

DmaEngine::DmaEngine(SimContext* ctx, IoBus* bus, std::int64_t depth, DmaClient* client)
    : ctx_(ctx), bus_(bus), depth_(static_cast<std::size_t>(depth)), client_(client) {}

bool DmaEngine::has_space(DmaChannel ch, std::size_t n) const {
  return queue(ch).size() + n <= depth_;
}

bool DmaEngine::enqueue(DmaChannel ch, const DmaRequest& req) {
  auto& q = queue(ch);
  if (q.size() >= depth_) {
    ++refusals_;
    space_wanted_[static_cast<int>(ch)] = true;
    ctx_->record(TraceKind::DmaQueueFull, channel_component(ch),
                 static_cast<std::uint32_t>(req.purpose));
    return false;
  }
  q.push_back(req);
  q.back().id = next_id_++;
  ctx_->record(TraceKind::DmaQueued, channel_component(ch), q.back().id,
               static_cast<std::uint32_t>(req.purpose), req.bytes, req.packet,
               static_cast<std::uint32_t>(q.size()));
  pump();
  return true;
}

void DmaEngine::pump() {
  if (active_) return;
  // Alternate between the channels when both have work (one DMA master, two queues).
  DmaChannel ch = last_ == DmaChannel::Read ? DmaChannel::Write : DmaChannel::Read;
  if (queue(ch).empty()) ch = ch == DmaChannel::Read ? DmaChannel::Write : DmaChannel::Read;
  if (queue(ch).empty()) return;
  const DmaRequest& req = queue(ch).front();
  BusTransaction txn;
  txn.master = channel_component(ch);
  txn.purpose = req.purpose;
  txn.bytes = req.bytes;
  txn.packet = req.packet;
  txn.read = ch == DmaChannel::Read;
  txn.cookie = static_cast<std::uint64_t>(ch);
  if (bus_->try_start(txn, this)) {
    active_ = true;
    last_ = ch;
  }
}

void DmaEngine::bus_done(const BusTransaction& txn) {
  const DmaChannel ch = static_cast<DmaChannel>(txn.cookie);
  auto& q = queue(ch);
  const DmaRequest req = q.front();
  q.pop_front();
  active_ = false;
  ctx_->record(TraceKind::DmaDone, channel_component(ch), req.id,
               static_cast<std::uint32_t>(req.purpose), req.bytes, req.packet);
  client_->dma_done(ch, req);
  if (space_wanted_[static_cast<int>(ch)] && q.size() < depth_) {
    space_wanted_[static_cast<int>(ch)] = false;
    client_->dma_space(ch);
  }
  pump();
}

}  // namespace nicsim
