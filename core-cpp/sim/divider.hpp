// Exact integer division by a divisor fixed for a run (a bus's clock period), by a multiply and
// a shift instead of a hardware divide: a 64-bit divide costs tens of cycles, and the bus divides
// by its period several times a tenure. The quotient is always the one `/` gives.
//
// Granlund and Montgomery, "Division by Invariant Integers using Multiplication" (PLDI 1994),
// §4: with m = ceil(2^64 / d), floor(x * m / 2^64) = floor(x / d) for 0 <= x < 2^64 / d
// (the excess x * (m - 2^64 / d) / 2^64 stays below 1 / d). Larger or negative x divide.
#pragma once
#include <cstdint>
#include <limits>

namespace nicsim {

class Divider {
 public:
  // d > 0.
  explicit Divider(std::int64_t d)
      : d_(d),
        m_(std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(d) + 1),
        limit_(d > 1 ? std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(d)
                     : 0) {}
  // x / d, rounded toward zero as `/` does.
  std::int64_t quotient(std::int64_t x) const {
    const std::uint64_t u = static_cast<std::uint64_t>(x);
    if (u >= limit_) return x / d_;  // negative, or too large for the multiply (or d is 1)
    return static_cast<std::int64_t>(high_product(u, m_));
  }

  // The high 64 bits of a * b.
  static std::uint64_t high_product(std::uint64_t a, std::uint64_t b) {
#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#else
    return high_product_in_halves(a, b);
#endif
  }
  // The same from four 32 x 32 -> 64 products: wasm has no 64 x 64 -> 128 multiply (clang
  // would call a library routine).
  static std::uint64_t high_product_in_halves(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
    const std::uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo;
    const std::uint64_t lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
  }

 private:
  std::int64_t d_;
  std::uint64_t m_;
  std::uint64_t limit_;
};

}  // namespace nicsim
