#include "nic/tigon/sram.hpp"

#include <algorithm>

namespace nicsim {

Sram::Sram(std::int64_t bandwidth_mbs, std::int64_t burst_bytes, Time window)
    : per_bandwidth_(std::max<std::int64_t>(1, bandwidth_mbs)),
      burst_bytes_(std::max<std::int64_t>(8, burst_bytes)),
      per_burst_(burst_bytes_),
      bucket_(std::max<Time>(1, window / kBuckets)),
      per_bucket_(bucket_),
      burst_occupancy_(occupancy(burst_bytes_)) {}

Time Sram::occupancy(std::int64_t bytes) const {
  // bytes / (MB/s) in ps = bytes · 10^6 / MB/s.
  return per_bandwidth_.quotient(bytes * 1000000);
}

bool Sram::in_order(std::int64_t index) {
  if (index < latest_) sums_ = false;
  if (sums_) retire(index);
  return sums_;
}

void Sram::drop(Bucket& b) {
  if (b.index < 0) return;
  for (int c = 0; c < kClients; ++c) {
    sum_busy_[static_cast<std::size_t>(c)] -= b.busy[static_cast<std::size_t>(c)];
    sum_sq_[static_cast<std::size_t>(c)] -= b.busy_sq_ns[static_cast<std::size_t>(c)];
  }
  b = Bucket{};
}

void Sram::retire(std::int64_t index) {
  if (index <= latest_) return;
  // The buckets at or before index - kBuckets are out of the window; those before
  // latest_ - kBuckets went already.
  const std::int64_t last = index - kBuckets;
  const std::int64_t first = std::max<std::int64_t>(0, latest_ - kBuckets + 1);
  if (last - first + 1 >= kBuckets) {
    for (Bucket& b : buckets_)
      if (b.index >= 0 && b.index <= last) drop(b);
  } else {
    for (std::int64_t k = first; k <= last; ++k) {
      Bucket& b = buckets_[static_cast<std::size_t>(k % kBuckets)];
      if (b.index == k) drop(b);
    }
  }
  latest_ = index;
}

Sram::Bucket& Sram::bucket_at(Time now) {
  const std::int64_t index = per_bucket_.quotient(now);
  in_order(index);
  Bucket& b = buckets_[static_cast<std::size_t>(index % kBuckets)];
  if (b.index != index) {
    drop(b);
    b.index = index;
  }
  return b;
}

void Sram::book(SramClient who, const Traffic& t, Time now) {
  if (!t.any) return;
  Bucket& b = bucket_at(now);
  const auto c = static_cast<std::size_t>(who);
  b.busy[c] += t.busy;
  b.busy_sq_ns[c] += t.busy_sq_ns;
  sum_busy_[c] += t.busy;
  sum_sq_[c] += t.busy_sq_ns;
  busy_total_ += t.busy;
  free_at_ = std::max(free_at_, now) + t.busy;
}

Time Sram::bulk(SramClient who, std::int64_t bytes, Time now) {
  const std::int64_t full = per_burst_.quotient(bytes);
  book(who,
       combined(traffic_of(full, burst_occupancy_),
                traffic_of(1, occupancy(bytes - full * burst_bytes_))),
       now);
  return free_at_;
}

void Sram::accesses(SramClient who, std::int64_t count, std::int64_t bytes, Time now) {
  book(who, traffic(count, bytes), now);
}

Sram::Load Sram::load_seen_by(SramClient who, Time now) {
  const std::int64_t current = per_bucket_.quotient(now);
  std::int64_t busy = 0, sq = 0;
  if (in_order(current)) {
    // Every bucket held is in the window.
    for (std::size_t c = 0; c < sum_busy_.size(); ++c) {
      if (c == static_cast<std::size_t>(who)) continue;
      busy += sum_busy_[c];
      sq += sum_sq_[c];
    }
  } else {
    for (const Bucket& b : buckets_) {
      if (b.index < 0 || b.index > current || b.index <= current - kBuckets) continue;
      for (std::size_t c = 0; c < b.busy.size(); ++c) {
        if (c == static_cast<std::size_t>(who)) continue;
        busy += b.busy[c];
        sq += b.busy_sq_ns[c];
      }
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
  const std::int64_t current = per_bucket_.quotient(now);
  std::int64_t busy = 0;
  if (in_order(current)) {
    for (std::int64_t v : sum_busy_) busy += v;
  } else {
    for (const Bucket& b : buckets_) {
      if (b.index < 0 || b.index > current || b.index <= current - kBuckets) continue;
      for (std::int64_t v : b.busy) busy += v;
    }
  }
  return std::min(1.0, static_cast<double>(busy) / static_cast<double>(bucket_ * kBuckets));
}

}  // namespace nicsim
