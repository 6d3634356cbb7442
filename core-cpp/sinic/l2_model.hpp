// The L2 cache shared by the CPU and the NIC's data placement (the SINIC paper Table 1, §6),
// modelled only as far as the paper's result needs: is a network buffer still in the cache when it
// is copied? The kernel, netperf and their buffers keep `hot_bytes` resident; network buffers
// stream through the rest in LRU order, so a buffer is still resident while fewer than
// (L2 − hot) bytes of later network data have been placed after it. Buffers that fit give
// cache-to-cache copies; buffers that spill give DRAM-to-cache copies (§6, Fig 8).
#pragma once
#include <algorithm>
#include <cstdint>

#include "sinic/sinic_config.hpp"

namespace nicsim {

class L2Model {
 public:
  explicit L2Model(const L2Config& cfg)
      : line_(cfg.line_bytes), stream_(std::max<std::int64_t>(0, cfg.bytes - cfg.hot_bytes)) {}

  // Stamp of a buffer never placed in the cache (DMA to DRAM, §6: the off-chip CNIC).
  static constexpr std::int64_t kNotCached = -1;

  // Places `bytes` of network data in the L2; returns the buffer's stamp.
  std::int64_t place(std::int64_t bytes) {
    placed_ += lines(bytes) * line_;
    return placed_;
  }
  // Lines of a `bytes` buffer placed at `stamp` that would miss if read now.
  std::int64_t missing_lines(std::int64_t stamp, std::int64_t bytes) const {
    const std::int64_t n = lines(bytes);
    if (stamp == kNotCached) return n;
    // Bytes placed after this buffer; the buffer's own oldest lines go first.
    const std::int64_t after = placed_ - stamp;
    const std::int64_t room = stream_ - after;  // bytes of this buffer that can still be held
    const std::int64_t kept = std::clamp<std::int64_t>(room / line_, 0, n);
    return n - kept;
  }
  std::int64_t lines(std::int64_t bytes) const { return (bytes + line_ - 1) / line_; }
  std::int64_t line_bytes() const { return line_; }
  std::int64_t stream_bytes() const { return stream_; }

 private:
  std::int64_t line_;
  std::int64_t stream_;
  std::int64_t placed_ = 0;
};

}  // namespace nicsim
