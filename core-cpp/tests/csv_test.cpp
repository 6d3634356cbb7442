// The CLI's CSV (api::to_csv) follows RFC 4180: fields holding a comma, a quote, CR or LF are
// quoted with their quotes doubled, every row has the header's number of fields, lines end
// with LF. csv_test.py reads the presets' CSV back with Python's csv module.
#include <gtest/gtest.h>

#include "api/api.hpp"

namespace nicsim {
namespace {

TEST(Csv, QuotesWhatNeedsIt) {
  const std::string out = R"({"results": {
    "plain": {"value": 1.5, "unit": "MB/s"},
    "web_bottleneck": {"value": 2, "unit": "0 bus, 1 CPU, 2 disk"},
    "say \"hi\"": {"value": "a\"b", "unit": ""},
    "two\nlines": {"value": null, "unit": "x\ry"}
  }})";
  EXPECT_EQ(api::to_csv(out),
            "metric,value,unit\n"
            "plain,1.5,MB/s\n"
            "\"say \"\"hi\"\"\",\"a\"\"b\",\n"
            "\"two\nlines\",,\"x\ry\"\n"
            "web_bottleneck,2,\"0 bus, 1 CPU, 2 disk\"\n");
}

TEST(Csv, SweepHasEveryPointsMetricsInEveryRow) {
  // The second point has a metric the first lacks, and lacks one the first has.
  const std::string out = R"({
    "sweep_spec": {"parameter": "workload.trace", "series_parameter": "system.nics"},
    "sweep": [
      {"value": "nasa", "series": 1, "results": {"a": {"value": 1, "unit": "x, y"}}},
      {"value": "rice", "series": 2, "results": {"b": {"value": 2, "unit": ""}}}
    ]})";
  EXPECT_EQ(api::to_csv(out),
            "workload.trace,system.nics,\"a (x, y)\",b\n"
            "nasa,1,1,\n"
            "rice,2,,2\n");
}

TEST(Csv, MalformedOutputGivesNoRowsRatherThanACrash) {
  EXPECT_EQ(api::to_csv("not json"), "");
  EXPECT_EQ(api::to_csv("{}"), "metric,value,unit\n");
  EXPECT_EQ(api::to_csv(R"({"sweep": [{"value": 1}], "sweep_spec": {}})"), "\n1\n");
  EXPECT_EQ(api::to_csv(R"({"results": {"a": 3}})"), "metric,value,unit\na,,\n");
}

}  // namespace
}  // namespace nicsim
