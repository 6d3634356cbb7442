// Simulated time is an integer number of picoseconds (brief: "Time is an integer number of
// picoseconds"), so native and wasm builds agree to the last tick.
#pragma once
#include <cstdint>

namespace nicsim {

using Time = std::int64_t;  // picoseconds

constexpr Time kPs = 1;
constexpr Time kNs = 1000;
constexpr Time kUs = 1000 * kNs;
constexpr Time kMs = 1000 * kUs;
constexpr Time kSec = 1000 * kMs;

constexpr Time ns(std::int64_t v) { return v * kNs; }
constexpr Time us(std::int64_t v) { return v * kUs; }

}  // namespace nicsim
