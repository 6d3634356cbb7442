// The trace recorder's window: records made before, inside and after it, now and in the future
// (a planned bus tenure's phases), keep their ids and their time order, and nothing outside the
// window is kept.
#include <gtest/gtest.h>

#include <vector>

#include "trace/gen/trace_kinds.gen.hpp"
#include "trace/trace.hpp"

namespace nicsim {
namespace {

rec::BusPhase phase(std::uint32_t cycles) { return rec::BusPhase().cycles(cycles); }

std::vector<std::uint32_t> kept_cycles(const TraceRecorder& t) {
  std::vector<std::uint32_t> out;
  for (const TraceRecord& r : t.records()) out.push_back(r.c);
  return out;
}

TEST(TraceRecorder, KeepsOnlyTheWindowInTimeOrder) {
  TraceRecorder t(100, 200, 1000);
  EXPECT_EQ(t.record(50, 1, phase(1)), 1u);          // before the window
  EXPECT_EQ(t.record_future(150, 1, phase(2)), 2u);  // inside, due later
  EXPECT_EQ(t.record_future(250, 1, phase(3)), 3u);  // after the window: never kept
  EXPECT_EQ(t.record(120, 1, phase(4)), 4u);         // inside, before the future one
  EXPECT_EQ(t.record(260, 1, phase(5)), 5u);         // after: flushes the future record first
  EXPECT_EQ(t.record(270, 1, phase(6)), 6u);         // after, nothing left to flush
  t.flush(1000);
  EXPECT_EQ(kept_cycles(t), (std::vector<std::uint32_t>{4, 2}));
  EXPECT_EQ(t.records()[1].id, 2u);
  EXPECT_EQ(t.dropped(), 0u);
}

TEST(TraceRecorder, AFutureRecordStillDueAfterTheWindowEntersAtTheEnd) {
  // No record is made after the window: the final flush still brings the future one in.
  TraceRecorder t(100, 200, 1000);
  t.record_future(180, 1, phase(1));
  t.record(110, 1, phase(2));
  t.flush(1000);
  EXPECT_EQ(kept_cycles(t), (std::vector<std::uint32_t>{2, 1}));
}

TEST(TraceRecorder, KeepsSaysWhetherARecordWouldBeKept) {
  TraceRecorder on(100, 200, 10);
  EXPECT_FALSE(on.keeps(99));
  EXPECT_TRUE(on.keeps(100));
  EXPECT_TRUE(on.keeps(200));
  EXPECT_FALSE(on.keeps(201));
  TraceRecorder off(100, 200, 0);
  EXPECT_FALSE(off.keeps(150));
  // Ids count every record, kept or not.
  EXPECT_EQ(off.record(150, 1, phase(1)), 1u);
  EXPECT_EQ(off.skip_future(), 2u);
  EXPECT_EQ(off.dropped(), 1u);
}

TEST(TraceRecorder, OverTheCapRecordsAreCountedAsDropped) {
  TraceRecorder t(0, 1000, 2);
  for (std::uint32_t i = 1; i <= 5; ++i) t.record(i * 10, 1, phase(i));
  EXPECT_EQ(kept_cycles(t), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(t.dropped(), 3u);
}

}  // namespace
}  // namespace nicsim
