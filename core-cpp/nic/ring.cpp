#include "nic/ring.hpp"

namespace nicsim {

const char* ring_name(RingId id) {
  switch (id) {
    case RingId::Send:
      return "send";
    case RingId::Receive:
      return "receive";
    case RingId::Return:
      return "receive return";
  }
  return "?";
}

DescriptorRing::DescriptorRing(SimContext* ctx, RingId id, std::int64_t size, Copy producer,
                               Time measure_from, unsigned instance)
    : ctx_(ctx),
      instance_(instance),
      id_(id),
      size_(size),
      mask_(size > 1 && (size & (size - 1)) == 0 ? static_cast<std::uint64_t>(size - 1) : 0),
      producer_(producer),
      occupancy_(std::string(ring_name(id)) + "_ring_occupancy", "descriptors", size - 1,
                 measure_from) {
  host_.slots.resize(static_cast<std::size_t>(size));
  nic_.slots.resize(static_cast<std::size_t>(size));
}

void DescriptorRing::post_receive_buffers(std::uint64_t count, std::uint32_t bytes) {
  const std::uint64_t p = prod(Copy::Host);
  for (std::uint64_t i = 0; i < count; ++i) {
    Descriptor d;
    d.bytes = bytes;
    d.buffer_slot = static_cast<std::uint32_t>(slot(p + i));
    desc(Copy::Host, p + i) = d;
  }
  set_prod(Copy::Host, p + count);
}

void DescriptorRing::trace_copy(Copy c) {
  if (!ctx_->trace.keeps(ctx_->now())) {
    ctx_->trace.skip(ctx_->now());
    return;
  }
  const RingCopy& k = copy(c);
  ctx_->record(component_id(c == Copy::Host ? Component::Driver : Component::Nic, instance_),
               rec::IndexUpdate()
                   .ring(static_cast<std::uint32_t>(id_))
                   .copy(static_cast<std::uint32_t>(c))
                   .producer(static_cast<std::uint32_t>(slot(k.prod)))
                   .consumer(static_cast<std::uint32_t>(slot(k.cons)))
                   .size(static_cast<std::uint32_t>(size_)));
}

void DescriptorRing::violated() {
  ctx_->fail(std::string(ring_name(id_)) + " ring: " + check() + " at " +
             std::to_string(ctx_->now()) + " ps");
}

std::string DescriptorRing::check() const {
  const Copy consumer = producer_ == Copy::Host ? Copy::Nic : Copy::Host;
  const RingCopy& p = copy(producer_);
  const RingCopy& q = copy(consumer);
  const std::uint64_t room = static_cast<std::uint64_t>(size_ - 1);
  auto show = [](const RingCopy& k) {
    return "(producer " + std::to_string(k.prod) + ", consumer " + std::to_string(k.cons) + ")";
  };
  // 1. The producer keeps its producer index ahead of its consumer index (and never laps it).
  if (p.prod < p.cons || p.prod - p.cons > room) {
    return "condition 1 violated: producer's copy " + show(p);
  }
  // 2. The consumer does likewise for its own copy.
  if (q.prod < q.cons || q.prod - q.cons > room) {
    return "condition 2 violated: consumer's copy " + show(q);
  }
  // 3. The producer's producer index is never behind the consumer's producer index.
  if (p.prod < q.prod) {
    return "condition 3 violated: producer's producer index is behind the consumer's " + show(p) +
           " vs " + show(q);
  }
  // 4. The consumer's consumer index is never behind the producer's consumer index.
  if (q.cons < p.cons) {
    return "condition 4 violated: consumer's consumer index is behind the producer's " + show(q) +
           " vs " + show(p);
  }
  return "";
}

}  // namespace nicsim
