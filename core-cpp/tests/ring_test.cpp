#include "nic/ring.hpp"

#include <gtest/gtest.h>

#include "sim/rng.hpp"

namespace nicsim {
namespace {

SimContext make_ctx() { return SimContext(1, 0, 0, 0); }

// Drives the legal protocol of thesis §2.3 in a random interleaving: the producer creates
// descriptors and (sometimes) notifies; the consumer fetches what was notified, consumes, and
// (sometimes) writes its consumer index back. Every update is checked by the ring itself.
void random_protocol(Copy producer, std::int64_t size, std::uint64_t seed, int steps) {
  SimContext ctx(seed, 0, 0, 0);
  DescriptorRing ring(&ctx, RingId::Send, size, producer, 0);
  const Copy consumer = producer == Copy::Host ? Copy::Nic : Copy::Host;
  Rng rng(seed);
  std::uint64_t notified = 0;  // what the consumer has been told of the producer index
  for (int i = 0; i < steps && !ctx.failed(); ++i) {
    switch (rng.below(5)) {
      case 0: {  // produce up to the free slots
        const std::int64_t free = ring.free_slots();
        if (free > 0) {
          ring.set_prod(producer,
                        ring.prod(producer) + 1 + rng.below(static_cast<std::uint64_t>(free)));
        }
        break;
      }
      case 1:  // notify (mailbox write / index DMA)
        notified = ring.prod(producer);
        break;
      case 2: {  // consumer fetches some notified descriptors
        const std::uint64_t avail = notified - ring.prod(consumer);
        if (avail > 0) ring.set_prod(consumer, ring.prod(consumer) + 1 + rng.below(avail));
        break;
      }
      case 3: {  // consumer processes some
        const std::uint64_t avail = ring.prod(consumer) - ring.cons(consumer);
        if (avail > 0) ring.set_cons(consumer, ring.cons(consumer) + 1 + rng.below(avail));
        break;
      }
      case 4:  // consumer reports its consumer index back (possibly a stale earlier one)
        if (ring.cons(consumer) > ring.cons(producer)) {
          ring.set_cons(producer, ring.cons(producer) + 1 +
                                      rng.below(ring.cons(consumer) - ring.cons(producer)));
        }
        break;
    }
    ASSERT_EQ(ring.check(), "") << "step " << i;
  }
  EXPECT_FALSE(ctx.failed()) << ctx.fault();
}

TEST(DescriptorRing, RandomLegalSequencesNeverViolateTheFourConditions) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    random_protocol(Copy::Host, 4 + static_cast<std::int64_t>(seed % 29), seed, 2000);
    random_protocol(Copy::Nic, 4 + static_cast<std::int64_t>(seed % 17), seed * 7919, 2000);
  }
}

TEST(DescriptorRing, EachConditionIsDetected) {
  {  // 1: the producer laps its own consumer index
    SimContext ctx = make_ctx();
    DescriptorRing r(&ctx, RingId::Send, 8, Copy::Host, 0);
    r.set_prod(Copy::Host, 8);  // 8 pending in a ring that holds 7
    EXPECT_TRUE(ctx.failed());
    EXPECT_NE(ctx.fault().find("condition 1"), std::string::npos) << ctx.fault();
  }
  {  // 3: the consumer fetches descriptors that were never produced
    SimContext ctx = make_ctx();
    DescriptorRing r(&ctx, RingId::Send, 8, Copy::Host, 0);
    r.set_prod(Copy::Nic, 1);
    EXPECT_NE(ctx.fault().find("condition 3"), std::string::npos) << ctx.fault();
  }
  {  // 2: the consumer consumes beyond what it fetched
    SimContext ctx = make_ctx();
    DescriptorRing r(&ctx, RingId::Send, 8, Copy::Host, 0);
    r.set_prod(Copy::Host, 3);
    r.set_cons(Copy::Nic, 1);
    EXPECT_NE(ctx.fault().find("condition 2"), std::string::npos) << ctx.fault();
  }
  {  // 4: the producer's copy claims more consumed than the consumer did
    SimContext ctx = make_ctx();
    DescriptorRing r(&ctx, RingId::Return, 8, Copy::Nic, 0);
    r.set_prod(Copy::Nic, 3);
    r.set_prod(Copy::Host, 2);
    r.set_cons(Copy::Nic, 1);
    EXPECT_NE(ctx.fault().find("condition 4"), std::string::npos) << ctx.fault();
  }
}

TEST(DescriptorRing, UnwrapRebuildsIndicesFromModularValues) {
  SimContext ctx = make_ctx();
  DescriptorRing r(&ctx, RingId::Send, 16, Copy::Host, 0);
  EXPECT_EQ(r.unwrap(0, 5), 5u);
  EXPECT_EQ(r.unwrap(14, 3), 19u);
  EXPECT_EQ(r.unwrap(32, 0), 32u);
  EXPECT_EQ(r.slot(19), 3);
}

}  // namespace
}  // namespace nicsim
