// dump_json writes results documents itself: byte for byte what nlohmann's serializer writes
// (every result is compared across versions as bytes).
#include "scenario/json.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace nicsim {
namespace {

std::string nlohmann_dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

TEST(DumpJson, WholeNumbersAsNlohmannWritesThem) {
  for (double v : {0.0, -0.0, 1.0, -1.0, 219.0, 15000.0, 1266667.0, 999999999999999.0,
                   -999999999999999.0, 1e15, -1e15, 1e15 + 2, 9007199254740992.0, 1e16, 1e300})
    EXPECT_EQ(dump_json(Json(v)), nlohmann_dump(Json(v))) << v;
  for (int e = 0; e <= 22; ++e) {
    const double p = std::pow(10.0, e);
    for (double v : {p - 1, p, p + 1, -p})
      EXPECT_EQ(dump_json(Json(v)), nlohmann_dump(Json(v))) << v;
  }
}

TEST(DumpJson, OtherNumbersAsNlohmannWritesThem) {
  for (double v :
       {0.5, -0.5, 0.1, 1e-5, 1e-300, 5e-324, 214.28571428571428,
        std::numeric_limits<double>::max(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()})
    EXPECT_EQ(dump_json(Json(v)), nlohmann_dump(Json(v))) << v;
  std::mt19937_64 bits(1);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t b = bits();
    double v;
    std::memcpy(&v, &b, sizeof v);
    ASSERT_EQ(dump_json(Json(v)), nlohmann_dump(Json(v))) << b;
    const double whole = std::trunc(std::ldexp(static_cast<double>(b >> 11), -53) * 1e15);
    ASSERT_EQ(dump_json(Json(whole)), nlohmann_dump(Json(whole))) << whole;
  }
  for (const Json& j : {Json(std::numeric_limits<std::int64_t>::min()),
                        Json(std::numeric_limits<std::int64_t>::max()),
                        Json(std::numeric_limits<std::uint64_t>::max()), Json(-7), Json(0)})
    EXPECT_EQ(dump_json(j), nlohmann_dump(j));
}

TEST(DumpJson, StringsObjectsAndArraysAsNlohmannWritesThem) {
  const Json doc = {{"plain", "Mb/s"},
                    {"escapes", "tab\tquote\"backslash\\newline\n\x01\x1f"},
                    {"utf8", "µs → ok"},
                    {"invalid utf8", std::string("a\xff\xfe b \xc3")},
                    {"delete", std::string("a\x7f")},
                    {"key \"quoted\"", Json::array({1, 2.5, nullptr, true, false, "x"})},
                    {"empty object", Json::object()},
                    {"empty array", Json::array()},
                    {"nested", {{"a", {{"b", Json::array({Json::object(), Json::array()})}}}}}};
  EXPECT_EQ(dump_json(doc), nlohmann_dump(doc));
  // An indented dump is nlohmann's own.
  EXPECT_EQ(dump_json(doc, 2), doc.dump(2, ' ', false, Json::error_handler_t::replace));
}

}  // namespace
}  // namespace nicsim
