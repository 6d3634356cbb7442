#include "sim/stats.hpp"

#include <algorithm>

namespace nicsim {

namespace {
constexpr std::int64_t kMaxBins = 32;
}

LevelHistogram::LevelHistogram(std::string name, std::string unit, std::int64_t max_level,
                               Time from)
    : name_(std::move(name)), unit_(std::move(unit)), from_(from) {
  const std::int64_t levels = std::max<std::int64_t>(1, max_level + 1);
  bin_width_ = (levels + kMaxBins - 1) / kMaxBins;
  weights_.assign(static_cast<std::size_t>((levels + bin_width_ - 1) / bin_width_), 0);
  if ((bin_width_ & (bin_width_ - 1)) == 0) {
    bin_shift_ = 0;
    while ((std::int64_t{1} << bin_shift_) < bin_width_) ++bin_shift_;
  }
}

void LevelHistogram::add(Time duration) {
  const std::int64_t level = std::max<std::int64_t>(0, level_);
  std::size_t bin =
      static_cast<std::size_t>(bin_shift_ >= 0 ? level >> bin_shift_ : level / bin_width_);
  bin = std::min(bin, weights_.size() - 1);
  weights_[bin] += duration;
  level_time_ += static_cast<double>(level_) * static_cast<double>(duration);
  total_time_ += duration;
}

double LevelHistogram::mean() const {
  return total_time_ > 0 ? level_time_ / static_cast<double>(total_time_) : 0.0;
}

}  // namespace nicsim
