// The models compose (the thesis Table 3.6): the full-system web server runs over the fixed NIC,
// the Tigon with each firmware and SINIC through the same rings, mailboxes and interrupt line;
// the IP router forwards between two NICs. Each run completes (the clients check every
// response's content bytes on arrival) and the NIC that carried it did the work.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "scenario/scenario.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::metric;

std::string main_run(const std::string& id) {
  Json doc = Json::parse(testing::preset(id), nullptr, false);
  keep_main_run_only(&doc);
  return dump_json(doc);
}

TEST(Compose, TheWebServerRunsOverEveryNicModel) {
  const std::string s = main_run("tigon-thttpd");
  for (const char* model : {"fixed", "tigon", "sinic"}) {
    for (const char* fw : {"release", "bsd", "parallel"}) {
      if (std::string(model) != "tigon" && std::string(fw) != "release") continue;
      SCOPED_TRACE(std::string(model) + " " + fw);
      const Json out = testing::run_ok(
          s,
          {{"system.nic.model", model}, {"system.tigon.firmware", fw}, {"run.duration_us", 30000}});
      EXPECT_GT(metric(out, "web_requests"), 10);
      EXPECT_GT(metric(out, "content_throughput"), 200);
      if (std::string(model) == "sinic") {
        // SINIC sits on die: the PCI bus carries only the driver's mailbox writes.
        EXPECT_LT(metric(out, "bus_utilization"), 0.05);
      }
    }
  }
}

TEST(Compose, TheTigonLimitsThttpdAndParallelRaisesIt) {
  const std::string s = main_run("tigon-thttpd");
  auto at = [&](const char* fw) {
    return testing::run_ok(s, {{"system.tigon.firmware", fw}, {"run.duration_us", 60000}});
  };
  const Json bsd = at("bsd"), parallel = at("parallel");
  EXPECT_GT(metric(bsd, "tigon_cpu_a_utilization"), 0.95);  // the send path on CPU A
  EXPECT_GT(metric(parallel, "tigon_cpu_b_utilization"), 0.95);
  EXPECT_GT(metric(parallel, "content_throughput"), 1.2 * metric(bsd, "content_throughput"));
}

TEST(Compose, TheRouterForwardsWhatItReceives) {
  const std::string s = main_run("tigon-ip-router");
  for (const char* model : {"fixed", "tigon"}) {
    SCOPED_TRACE(model);
    const Json out = testing::run_ok(
        s, {{"system.nic.model", model}, {"run.duration_us", 20000}, {"run.warmup_us", 5000}});
    EXPECT_GT(metric(out, "router_packet_rate"), 50);
    EXPECT_LE(metric(out, "router_packet_rate"), metric(out, "router_offered_rate"));
    EXPECT_GT(metric(out, "router_loss"), 0);  // line rate in, more than the NICs forward
  }
}

TEST(Compose, BadCombinationsNameTheField) {
  const std::string s = main_run("tigon-thttpd");
  api::RunResult r = api::run(s, dump_json(Json{{"system.nic_cache.kbytes", 4096}}));
  EXPECT_TRUE(r.input_error);
  EXPECT_NE(r.json.find("system.nic_cache.kbytes"), std::string::npos) << r.json;
  r = api::run(main_run("tigon-ip-router"), dump_json(Json{{"system.nics", 1}}));
  EXPECT_TRUE(r.input_error);
  EXPECT_NE(r.json.find("system.nics"), std::string::npos) << r.json;
}

}  // namespace
}  // namespace nicsim
