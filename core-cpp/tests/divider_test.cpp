#include "sim/divider.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "sim/rng.hpp"

namespace nicsim {
namespace {

// Every quotient is the one `/` gives: around multiples of the divisor, at the edge of the
// multiply's range, for negative and huge values, and at random.
TEST(Divider, QuotientIsExactlyIntegerDivision) {
  const std::vector<std::int64_t> divisors = {1,     2,     3,     7,      1024,    7500,
                                              10000, 15000, 30000, 142857, 1000000, 999999937};
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  Rng rng(7);
  for (const std::int64_t d : divisors) {
    const Divider div(d);
    std::vector<std::int64_t> xs = {0,
                                    1,
                                    d - 1,
                                    d,
                                    d + 1,
                                    kMax,
                                    kMax - 1,
                                    -1,
                                    -d,
                                    -d - 1,
                                    std::numeric_limits<std::int64_t>::min()};
    const std::int64_t limit = static_cast<std::int64_t>(std::min<std::uint64_t>(
        std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(d),
        static_cast<std::uint64_t>(kMax)));
    for (std::int64_t k = -3; k <= 3; ++k) {
      if (k <= kMax - limit) xs.push_back(limit + k);
    }
    const std::int64_t q_limit = limit / d, q_max = (kMax - 1) / d;  // q * d + 1 fits
    const std::int64_t q_hi = q_limit <= q_max - 2 ? q_limit + 2 : q_max;
    for (std::int64_t q = q_limit - 2; q <= q_hi; ++q) {
      for (std::int64_t r = -1; r <= 1; ++r) {
        const std::int64_t x = q * d + r;
        if (x >= 0) xs.push_back(x);
      }
    }
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t u = rng.next();
      xs.push_back(static_cast<std::int64_t>(u >> (i % 64)));
      xs.push_back(static_cast<std::int64_t>(u % 1000) * d + static_cast<std::int64_t>(u % 3) - 1);
    }
    for (const std::int64_t x : xs) {
      ASSERT_EQ(div.quotient(x), x / d) << x << " / " << d;
    }
  }
}

// The wasm build's high product (from 32-bit halves) agrees with the 128-bit one.
TEST(Divider, HighProductInHalvesMatchesTheWideMultiply) {
  Rng rng(11);
  std::vector<std::uint64_t> vs = {0, 1, 0xFFFFFFFFu, 0x100000000u,
                                   std::numeric_limits<std::uint64_t>::max()};
  for (int i = 0; i < 2000; ++i) vs.push_back(rng.next() >> (i % 64));
  for (const std::uint64_t a : vs) {
    for (const std::uint64_t b : vs) {
      const std::uint64_t wide =
          static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
      ASSERT_EQ(Divider::high_product_in_halves(a, b), wide) << a << " * " << b;
    }
  }
}

}  // namespace
}  // namespace nicsim
