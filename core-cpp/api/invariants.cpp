#include "api/invariants.hpp"

#include <cmath>
#include <cstdio>

namespace nicsim {

namespace {

// Floating-point slack: shares are ratios of integers, sums of a dozen of them.
constexpr double kEps = 1e-9;

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string with_unit(const Metric& m) {
  return number(m.value) + (m.unit.empty() ? "" : " " + m.unit);
}

}  // namespace

std::string check_invariants(const RunOutput& out) {
  double bus_shares = 0;
  double bus_cycles = 0;
  for (const Metric& m : out.metrics) {
    if (!std::isfinite(m.value))
      return "metric " + m.name + " is " + number(m.value) + ", not a finite number";
    if (m.value < -kEps)
      return "metric " + m.name + " = " + with_unit(m) +
             " is below 0: a count, time, rate or share cannot be negative";
    if (m.unit == "fraction" && m.value > 1 + kEps)
      return "metric " + m.name + " = " + number(m.value) +
             " is above its limit 1: a share of the window or of a whole cannot exceed 1";
    if (m.name.compare(0, 9, "bus_util_") == 0) bus_shares += m.value;
    if (m.name == "bus_cycles") bus_cycles = m.value;
    if (m.name == "tigon_work_lost" && m.value != 0)
      return "metric tigon_work_lost = " + number(m.value) +
             ": DMA completions or frames were raised but neither handled nor pending (limit 0)";
  }
  if (bus_cycles > 0 && std::fabs(bus_shares - 1.0) > 1e-6)
    return "the bus cycles by category (bus_util_*) sum to " + number(bus_shares) +
           " of the elapsed cycles, not 1";
  for (const Bound& b : out.bounds) {
    for (const Metric& m : out.metrics) {
      if (m.name != b.metric || m.value <= b.limit * (1 + kEps)) continue;
      return "metric " + m.name + " = " + with_unit(m) + " is above its physical limit " +
             number(b.limit) + (m.unit.empty() ? "" : " " + m.unit) + " (" + b.what + ")";
    }
  }
  for (const TimeSeries& s : out.series) {
    if (s.unit != "fraction") continue;
    for (std::size_t i = 0; i < s.values.size(); ++i) {
      if (s.values[i] > 1 + kEps)
        return "series " + s.name + " sample " + std::to_string(i) + " = " + number(s.values[i]) +
               " is above its limit 1: a share of the sample's time cannot exceed 1";
    }
  }
  for (const Ledger& l : out.ledgers) {
    if (l.left + l.dropped > l.entered)
      return l.what + ": " + std::to_string(l.left) + " left and " + std::to_string(l.dropped) +
             " dropped, more than the " + std::to_string(l.entered) + " that entered";
    const std::uint64_t held = l.entered - l.left - l.dropped;
    if (held > l.capacity)
      return l.what + ": " + std::to_string(held) + " held at the end (" +
             std::to_string(l.entered) + " entered, " + std::to_string(l.left) + " left, " +
             std::to_string(l.dropped) + " dropped), above the " + std::to_string(l.capacity) +
             " it can hold";
  }
  return "";
}

}  // namespace nicsim
