// The guided tour block: every bad field is refused with its path and the allowed
// values or range; a valid tour, and every preset's, passes; overrides never invalidate a tour.
#include "scenario/tour.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::errors_of;
using testing::has_error;
using testing::minimal;

// A scenario with a trace window of 1000-1100 µs, a sweep and the given tour.
std::string with_tour_json(const Json& tour) {
  return minimal(
      {{"run", {{"duration_us", 2000}, {"trace", {{"start_us", 1000}, {"end_us", 1100}}}}},
       {"views", {"diagram", "rings", "chart"}},
       {"sweep", {{"parameter", "workload.datagram_bytes"}, {"values", {18, 512, 1472}}}},
       {"tour", tour}});
}

// A list of steps (a braced list of one object would otherwise be that object, not an array).
std::string with_tour(const std::vector<Json>& steps) { return with_tour_json(Json(steps)); }

Json step(const Json& extra = Json::object()) {
  Json s = {{"title", "A step"}, {"text", "What to look at."}};
  for (auto it = extra.begin(); it != extra.end(); ++it) s[it.key()] = it.value();
  return s;
}

TEST(Tour, AValidTourPasses) {
  const std::vector<Json> tour = {
      step({{"at_us", 1000}, {"highlight", {"mailbox", "dma_read", "send_ring"}}}),
      step({{"at_us", 1100},
            {"view", "rings"},
            {"pause", false},
            {"metrics", {"udp_tx_throughput"}}}),
      step({{"predict",
             {{"question", "What if the receive ring is halved?"},
              {"choices", {"less", "the same", "more"}},
              {"set",
               {{"system.driver.receive_ring_size", 128},
                {"system.driver.receive_buffers_posted", 100}}},
              {"reveal", "See the live value."},
              {"metrics",
               {"udp_tx_throughput",
                {{"metric", "udp_tx_throughput"}, {"at", {{"workload.datagram_bytes", 18}}}}}}}}})};
  EXPECT_EQ(errors_of(with_tour(tour)), Json::array());
}

TEST(Tour, MustBeANonEmptyArrayOfSteps) {
  EXPECT_TRUE(has_error(errors_of(with_tour_json("walk")), "tour", "array of 1 to 20 steps"));
  EXPECT_TRUE(
      has_error(errors_of(with_tour_json(Json::array())), "tour", "array of 1 to 20 steps"));
  EXPECT_TRUE(
      has_error(errors_of(with_tour_json(Json::array({42}))), "tour[0]", "must be an object"));
}

TEST(Tour, TitleAndTextAreRequiredAndUnknownFieldsNamed) {
  const Json e = errors_of(with_tour({Json{{"text", "x"}, {"colour", "red"}}}));
  EXPECT_TRUE(has_error(e, "tour[0].title", "is required")) << e.dump();
  EXPECT_TRUE(has_error(e, "tour[0].colour", "allowed: at_us, highlight, metrics, pause, predict"))
      << e.dump();
  const Json long_title = errors_of(with_tour({step({{"title", std::string(81, 'x')}})}));
  EXPECT_TRUE(has_error(long_title, "tour[0].title", "1 to 80 characters")) << long_title.dump();
}

TEST(Tour, CursorTimeMustLieInTheTraceWindow) {
  const Json e = errors_of(with_tour({step(), step(), step({{"at_us", 1200}})}));
  EXPECT_TRUE(
      has_error(e, "tour[2].at_us", "must be within the trace window 1000–1100 µs, got 1200"))
      << e.dump();
  const Json neg = errors_of(with_tour({step({{"at_us", -1}})}));
  EXPECT_TRUE(has_error(neg, "tour[0].at_us", "trace window 1000–1100 µs")) << neg.dump();
  const Json str = errors_of(with_tour({step({{"at_us", "soon"}})}));
  EXPECT_TRUE(has_error(str, "tour[0].at_us", "must be a number")) << str.dump();
}

TEST(Tour, TheWindowIsTheScenariosOwnNotAnOverrides) {
  // An override that moves the trace window never makes the scenario's tour invalid.
  const std::string s = with_tour({step({{"at_us", 1050}})});
  EXPECT_EQ(errors_of(s, R"({"run.trace.start_us": 0, "run.trace.end_us": 10})"), Json::array());
  // Without run.trace the registry's default window (0–100 µs) applies.
  const Json d = errors_of(minimal({{"tour", Json::array({step({{"at_us", 150}})})}}));
  EXPECT_TRUE(has_error(d, "tour[0].at_us", "0–100 µs")) << d.dump();
}

TEST(Tour, UnknownHighlightPartsAreRefusedWithTheList) {
  const Json e = errors_of(with_tour({step({{"highlight", {"dma_read", "flux_capacitor"}}})}));
  EXPECT_TRUE(has_error(e, "tour[0].highlight[1]", "unknown part 'flux_capacitor'; allowed:"))
      << e.dump();
  EXPECT_TRUE(has_error(e, "tour[0].highlight[1]", "dma_read, dma_write, driver")) << e.dump();
  EXPECT_EQ(tour_parts().count("host_cpu"), 1u);  // the trace's component names
  EXPECT_EQ(tour_parts().count("mailbox"), 1u);   // and the diagram's own parts
}

TEST(Tour, ViewMustBeOneTheScenarioOpens) {
  const Json e = errors_of(with_tour({step({{"view", "firmware"}})}));
  EXPECT_TRUE(has_error(e, "tour[0].view",
                        "must be one of the views the scenario opens: diagram, "
                        "rings, chart"))
      << e.dump();
}

TEST(Tour, PauseIsABoolean) {
  EXPECT_TRUE(has_error(errors_of(with_tour({step({{"pause", "yes"}})})), "tour[0].pause",
                        "true or false"));
}

TEST(Tour, MetricsMustBeKnownAndSweepPointsTheSweeps) {
  const Json e = errors_of(with_tour(
      {step({{"metrics",
              {"speed_of_light",
               {{"metric", "udp_tx_throughput"}, {"at", {{"workload.datagram_bytes", 19}}}},
               {{"metric", "udp_tx_throughput"}, {"at", {{"system.bus.clock_mhz", 66}}}}}}})}));
  EXPECT_TRUE(has_error(e, "tour[0].metrics[0]", "unknown metric 'speed_of_light'; allowed:"))
      << e.dump();
  EXPECT_TRUE(
      has_error(e, "tour[0].metrics[1].at.workload.datagram_bytes", "not among the sweep's values"))
      << e.dump();
  EXPECT_TRUE(has_error(e, "tour[0].metrics[2].at.system.bus.clock_mhz",
                        "must be the sweep parameter 'workload.datagram_bytes'"))
      << e.dump();
}

TEST(Tour, PredictNeedsAQuestionAndARevealAndAValidVariant) {
  const Json e = errors_of(with_tour(
      {step({{"predict", {{"choices", {"only one"}}, {"set", {{"system.bus.clock", 66}}}}}}),
       step({{"predict",
              {{"question", "q"}, {"reveal", "r"}, {"set", {{"system.bus.clock_mhz", 50}}}}}}),
       step({{"predict",
              {{"question", "q"},
               {"reveal", "r"},
               {"set", {{"system.driver.receive_buffers_posted", 4000}}}}}})}));
  EXPECT_TRUE(has_error(e, "tour[0].predict.question", "is required")) << e.dump();
  EXPECT_TRUE(has_error(e, "tour[0].predict.reveal", "is required")) << e.dump();
  EXPECT_TRUE(has_error(e, "tour[0].predict.choices", "2 to 6 non-empty strings")) << e.dump();
  EXPECT_TRUE(has_error(e, "tour[0].predict.set.system.bus.clock", "unknown parameter"))
      << e.dump();
  EXPECT_TRUE(has_error(e, "tour[1].predict.set.system.bus.clock_mhz", "must be one of 33, 66"))
      << e.dump();
  // Allowed on its own, but not with the scenario's receive ring: the cross-field rule names it.
  EXPECT_TRUE(has_error(e, "tour[2].predict.set",
                        "the variant is not a valid run: system.driver.receive_buffers_posted"))
      << e.dump();
}

TEST(Tour, SchemaDescribesTheSteps) {
  const Json schema = Json::parse(api::scenario_schema(), nullptr, false);
  const Json& items = schema["properties"]["tour"]["items"];
  EXPECT_EQ(items["required"], Json({"title", "text"}));
  const Json& parts = items["properties"]["highlight"]["items"]["enum"];
  EXPECT_NE(std::find(parts.begin(), parts.end(), "send_ring"), parts.end());
  EXPECT_EQ(items["properties"]["predict"]["required"], Json({"question", "reveal"}));
}

}  // namespace
}  // namespace nicsim
