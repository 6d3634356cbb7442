#include <gtest/gtest.h>

#include "api/api.hpp"

TEST(Smoke, NullLoopFires) { EXPECT_GE(nicsim::api::null_loop(1600), 1600u); }
