// Statistics kept by components: busy-time utilisation, time-weighted level histograms
// (e.g. ring occupancy) and time series sampled at a fixed interval.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.hpp"

namespace nicsim {

// Cumulative busy time of a resource; utilisation over a window is a difference of two reads.
class BusyTime {
 public:
  void set_busy(Time now, bool busy) {
    if (busy == busy_) return;
    if (busy_) total_ += now - since_;
    busy_ = busy;
    since_ = now;
  }
  void add(Time duration) { total_ += duration; }  // for resources that know their durations
  Time total(Time now) const { return total_ + (busy_ ? now - since_ : 0); }
  bool busy() const { return busy_; }

 private:
  bool busy_ = false;
  Time since_ = 0;
  Time total_ = 0;
};

// Time-weighted histogram of an integer level (how long the level was at each value),
// counting only time after `from`.
class LevelHistogram {
 public:
  LevelHistogram(std::string name, std::string unit, std::int64_t max_level, Time from);
  // Inline: the rings call it on every index move (about one model event in six).
  void set(Time now, std::int64_t level) {
    const Time start = since_ > from_ ? since_ : from_;
    if (now > start) add(now - start);
    level_ = level;
    since_ = now;
  }
  void finish(Time now) { set(now, level_); }
  std::int64_t level() const { return level_; }
  const std::string& name() const { return name_; }
  const std::string& unit() const { return unit_; }
  std::int64_t bin_width() const { return bin_width_; }
  const std::vector<Time>& weights() const { return weights_; }
  double mean() const;

 private:
  void add(Time duration);  // the time at level_ (out of line: the bin and the mean's sum)
  std::string name_, unit_;
  std::int64_t bin_width_;
  int bin_shift_ = -1;  // log2(bin_width_) when it is a power of two (a shift, not a division)
  Time from_;
  std::int64_t level_ = 0;
  Time since_ = 0;
  std::vector<Time> weights_;
  double level_time_ = 0;  // Σ level × duration, for an exact mean
  Time total_time_ = 0;
};

struct TimeSeries {
  std::string name;
  std::string unit;
  Time interval_ps = 0;
  std::vector<double> values;
};

}  // namespace nicsim
