// Fixed-size typed trace records, recorded only inside a requested time window and capped in
// count (both are run config), in the manner of Ripes' cachesim transaction records.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/time.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {

struct TraceRecord {
  std::int64_t time_ps;
  std::uint16_t kind;
  std::uint16_t component;
  std::uint32_t a, b, c, d, e;
};
static_assert(sizeof(TraceRecord) == 32, "trace records are 32 bytes on every build");

class TraceRecorder {
 public:
  TraceRecorder(Time start, Time end, std::uint64_t max_records)
      : start_(start), end_(end), max_(max_records) {}
  void record(Time t, TraceKind kind, Component comp, std::uint32_t a = 0, std::uint32_t b = 0,
              std::uint32_t c = 0, std::uint32_t d = 0, std::uint32_t e = 0) {
    if (t < start_ || t > end_) return;
    if (records_.size() >= max_) {
      ++dropped_;
      return;
    }
    records_.push_back(TraceRecord{t, static_cast<std::uint16_t>(kind),
                                   static_cast<std::uint16_t>(comp), a, b, c, d, e});
  }
  const std::vector<TraceRecord>& records() const { return records_; }
  std::vector<TraceRecord>&& take() { return std::move(records_); }
  std::uint64_t dropped() const { return dropped_; }
  Time start() const { return start_; }
  Time end() const { return end_; }

 private:
  Time start_, end_;
  std::uint64_t max_;
  std::uint64_t dropped_ = 0;
  std::vector<TraceRecord> records_;
};

}  // namespace nicsim
