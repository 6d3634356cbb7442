// The Tigon's external SRAM as a shared server (the thesis §3.1.1, §3.4.1, §3.4.2): both CPUs,
// the DMA engine and the MAC all move bytes through it. Its bandwidth is a hard limit on the
// bulk traffic (a DMA is complete only when its bytes have passed the SRAM). A CPU access that
// finds the SRAM busy waits for the transfer in progress to finish, and the arbiter then serves
// it first, so its mean wait is the mean residual work of everyone else's transfers:
//     W = Σ others' S² / (2 · window)      (= ρ · E[S²] / 2E[S])
// counted in 1 µs buckets over a sliding window. Large DMA and MAC bursts make W large, which
// is the thesis's explanation of why handler times rise above about 1 Gb/s (Fig 3.12). Integer
// sums and plain arithmetic only, so native and wasm runs agree to the bit.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>

#include "sim/divider.hpp"
#include "sim/time.hpp"

namespace nicsim {

enum class SramClient : std::uint8_t { CpuA = 0, CpuB = 1, Dma = 2, Mac = 3, Count };

class Sram {
 public:
  Sram(std::int64_t bandwidth_mbs, std::int64_t burst_bytes, Time window);

  // Time `bytes` occupy the SRAM at its full bandwidth.
  Time occupancy(std::int64_t bytes) const;
  // A bulk transfer (DMA or MAC) of `bytes`, moved in bursts of burst_bytes. The SRAM is one
  // server: the MAC (the wire cannot wait) and the CPUs take it first, and a DMA transfer is
  // complete only once its bytes have passed it. Returns when this transfer's bytes are done.
  Time bulk(SramClient who, std::int64_t bytes, Time now);
  // `count` CPU accesses of `bytes` each (4-byte data words, 64-byte instruction lines).
  void accesses(SramClient who, std::int64_t count, std::int64_t bytes, Time now);

  // What `count` transfers of `bytes` each add to the sums, and several such added together:
  // a handler's accesses are the same on every run of its path, so they are worked out once
  // and booked in one step (integer sums: the same as booking each part in turn).
  struct Traffic {
    std::int64_t busy = 0;        // ps
    std::int64_t busy_sq_ns = 0;  // Σ S² in ns²
    bool any = false;             // a part with count > 0 (none: the buckets are not touched)
  };
  Traffic traffic(std::int64_t count, std::int64_t bytes) const {
    return traffic_of(count, occupancy(bytes));
  }
  static Traffic combined(const Traffic& a, const Traffic& b) {
    return {a.busy + b.busy, a.busy_sq_ns + b.busy_sq_ns, a.any || b.any};
  }
  void book(SramClient who, const Traffic& t, Time now);

  struct Load {
    double utilization = 0;  // others' share of the window (ρ)
    Time wait = 0;           // mean extra wait of one access
  };
  Load load_seen_by(SramClient who, Time now);
  // Everyone's occupancy over the window, for the contention meter.
  double utilization(Time now);
  Time busy_total() const { return busy_total_; }
  // What it has served by `now`: the booked work less the backlog still ahead of it (booked
  // work runs past now; a window's utilisation counts only what it served).
  Time busy_at(Time now) const { return busy_total_ - std::max<Time>(0, free_at_ - now); }

 private:
  static constexpr int kBuckets = 16;
  static constexpr int kClients = static_cast<int>(SramClient::Count);
  struct Bucket {
    std::int64_t index = -1;  // which µs (now / bucket) this bucket holds
    std::array<std::int64_t, kClients> busy{};
    std::array<std::int64_t, kClients> busy_sq_ns{};  // Σ S² in ns²
  };
  Bucket& bucket_at(Time now);
  static Traffic traffic_of(std::int64_t count, Time each) {
    if (count <= 0) return {};
    const std::int64_t ns = each / 1000;
    return {count * each, count * ns * ns, true};
  }
  // Every handler asks for the load, so the window's sums are kept as buckets fill and age
  // rather than added up per question. A bucket leaves the window for good once it is kBuckets
  // old (time only moves on): it is emptied then and its sums taken off. Integer sums, so the
  // same values as adding up the buckets. False once a time went back: the buckets are added up.
  bool in_order(std::int64_t index);
  void retire(std::int64_t index);
  void drop(Bucket& b);
  std::array<std::int64_t, kClients> sum_busy_{}, sum_sq_{};  // over the buckets held
  std::int64_t latest_ = -1;  // the latest bucket index asked about or added to
  bool sums_ = true;

  Divider per_bandwidth_;  // by the bandwidth in MB/s (a multiply, not a divide: sim/divider.hpp)
  std::int64_t burst_bytes_;
  Divider per_burst_;  // by burst_bytes_
  Time bucket_;
  Divider per_bucket_;    // by bucket_: every handler's load and booking finds its bucket
  Time burst_occupancy_;  // occupancy(burst_bytes_), a bulk transfer's full bursts
  std::array<Bucket, kBuckets> buckets_{};
  Time busy_total_ = 0;
  Time free_at_ = 0;  // when the SRAM has served everything booked so far
};

}  // namespace nicsim
