#include "nic/tigon/sram.hpp"

#include <algorithm>

namespace nicsim {

Sram::Sram(std::int64_t bandwidth_mbs, std::int64_t burst_bytes, Time window)
    : bandwidth_mbs_(std::max<std::int64_t>(1, bandwidth_mbs)),
      burst_bytes_(std::max<std::int64_t>(8, burst_bytes)),
      bucket_(std::max<Time>(1, window / kBuckets)) {}

Time Sram::occupancy(std::int64_t bytes) const {
  // bytes / (MB/s) in ps = bytes · 10^6 / MB/s.
  return bytes * 1000000 / bandwidth_mbs_;
}

Sram::Bucket& Sram::bucket_at(Time now) {
  const std::int64_t index = now / bucket_;
  Bucket& b = buckets_[static_cast<std::size_t>(index % kBuckets)];
  if (b.index != index) {
    b = Bucket{};
    b.index = index;
  }
  return b;
}

void Sram::add(SramClient who, std::int64_t count, Time each, Time now) {
  if (count <= 0) return;
  Bucket& b = bucket_at(now);
  const auto c = static_cast<std::size_t>(who);
  b.busy[c] += count * each;
  const std::int64_t ns = each / 1000;
  b.busy_sq_ns[c] += count * ns * ns;
  busy_total_ += count * each;
  free_at_ = std::max(free_at_, now) + count * each;
}

Time Sram::bulk(SramClient who, std::int64_t bytes, Time now) {
  const std::int64_t full = bytes / burst_bytes_;
  add(who, full, occupancy(burst_bytes_), now);
  add(who, 1, occupancy(bytes - full * burst_bytes_), now);
  return free_at_;
}

void Sram::accesses(SramClient who, std::int64_t count, std::int64_t bytes, Time now) {
  add(who, count, occupancy(bytes), now);
}

Sram::Load Sram::load_seen_by(SramClient who, Time now) {
  const std::int64_t current = now / bucket_;
  std::int64_t busy = 0, sq = 0;
  for (const Bucket& b : buckets_) {
    if (b.index < 0 || b.index > current || b.index <= current - kBuckets) continue;
    for (std::size_t c = 0; c < b.busy.size(); ++c) {
      if (c == static_cast<std::size_t>(who)) continue;
      busy += b.busy[c];
      sq += b.busy_sq_ns[c];
    }
  }
  const double window = static_cast<double>(bucket_ * kBuckets);
  Load l;
  l.utilization = std::min(1.0, static_cast<double>(busy) / window);
  // The mean residual in ps: Σ S² (ns² → ps² is ×10^6) / (2 · window ps).
  l.wait = static_cast<Time>(static_cast<double>(sq) * 1e6 / (2.0 * window));
  return l;
}

double Sram::utilization(Time now) {
  const std::int64_t current = now / bucket_;
  std::int64_t busy = 0;
  for (const Bucket& b : buckets_) {
    if (b.index < 0 || b.index > current || b.index <= current - kBuckets) continue;
    for (std::int64_t v : b.busy) busy += v;
  }
  return std::min(1.0, static_cast<double>(busy) / static_cast<double>(bucket_ * kBuckets));
}

}  // namespace nicsim
