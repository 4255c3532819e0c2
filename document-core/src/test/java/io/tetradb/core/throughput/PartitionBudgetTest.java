package io.tetradb.core.throughput;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The token bucket's arithmetic, on a clock the test moves (nothing sleeps). */
class PartitionBudgetTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    @Test
    void startsWithOneSecondOfBudgetAndRefillsAtTheRate() {
        PartitionBudget b = new PartitionBudget("p", 100, 0);
        assertEquals(100, b.tokens(0), 1e-9);
        b.settle(100, null, 0);
        assertEquals(0, b.tokens(0), 1e-9);
        assertEquals(50, b.tokens(500 * MS), 1e-9, "half a second earns half the rate");
        assertEquals(100, b.tokens(10 * S), 1e-9, "never more than one second's budget (no burst capacity)");
    }

    @Test
    void admitsWhilePositiveAndLetsTheLastRequestRunIntoDebt() {
        PartitionBudget b = new PartitionBudget("p", 100, 0);
        assertEquals(0, b.admit(0));
        b.settle(99, null, 0);
        assertEquals(0, b.admit(0), "1 RU left: admitted");
        b.settle(21, null, 0); // its real charge is more than what was left
        assertEquals(-20, b.tokens(0), 1e-9);
        // 20 RU of debt at 100 RU/s: 200 ms until the bucket is positive again
        assertEquals(201, b.admit(0), 1, "retry-after from the debt and the rate");
        long retry = b.admit(0);
        assertTrue(b.admit(retry * MS) == 0, "admitted once the retry-after has passed");
    }

    @Test
    void retryAfterIsAtLeastOneMillisecond() {
        PartitionBudget b = new PartitionBudget("p", 10_000, 0);
        b.settle(10_000, null, 0);
        assertEquals(1, b.admit(0));
    }

    @Test
    void aLowerShareKeepsAtMostOneSecondOfItAndARaiseKeepsWhatWasEarned() {
        PartitionBudget b = new PartitionBudget("p", 1000, 0);
        b.setRuPerSecond(100, 0);
        assertEquals(100, b.tokens(0), 1e-9);
        b.settle(100, null, 0);
        b.setRuPerSecond(1000, 0);
        assertEquals(0, b.tokens(0), 1e-9);
        assertEquals(1000, b.tokens(S), 1e-9);
    }

    @Test
    void usageReportsPerSecondRuHottestSecondAndThrottles() {
        PartitionBudget b = new PartitionBudget("p", 100, 0);
        b.settle(30, "a", 0);
        b.settle(50, "b", 1 * S + 1);
        b.settle(60, "b", 1 * S + 2);
        assertTrue(b.admit(1 * S + 3) > 0, "-10 tokens then: throttled");
        b.settle(20, "a", 2 * S);
        PartitionBudget.Usage u = b.usage(3 * S, 3);
        assertEquals(160.0 / 3, u.averageRuPerSecond(), 1e-9);
        assertEquals(110, u.hottestSecondRu(), 1e-9);
        assertEquals(1.1, u.normalizedUtilization(), 1e-9);
        assertEquals(1, u.throttledInWindow());
        assertEquals("b", b.topLogicalPartitions(1).get(0).getKey());
        assertEquals(110, b.topLogicalPartitions(2).get(0).getValue(), 1e-9);
        // five minutes later the window holds none of it
        assertEquals(0, b.usage(400 * S, 60).hottestSecondRu(), 1e-9);
    }

    /** Admits and pays requests of {@code charge} RU at {@code now} until one is refused; the RU admitted. */
    private static double spendUntilRefused(PartitionBudget b, double charge, long now) {
        double spent = 0;
        while (b.admit(now) == 0) {
            b.settle(charge, null, now);
            spent += charge;
            if (spent > 1_000_000) {
                throw new AssertionError("never refused");
            }
        }
        return spent;
    }

    @Test
    void burstCapacityBanksIdleRuAndSpendsItAtUpToThreeThousandRuPerSecond() {
        PartitionBudget b = new PartitionBudget("p", 400, 0);
        b.setBurstCapacity(true, 0);
        assertEquals(4000, b.burstReserve(10 * S), 1e-6, "10 idle seconds at 400 RU/s banked");
        // the full bucket (400) and then the bank at the burst rate's room (3,000 - 400 = 2,600 in one second)
        assertEquals(3000, spendUntilRefused(b, 100, 10 * S), 1e-6);
        assertEquals(4000 - 2600, b.burstReserve(10 * S), 1e-6);
        long retry = b.admit(10 * S);
        assertTrue(retry >= 1 && retry <= 40, "the burst rate has room again within ~40 ms, not 1 s: " + retry);
        // one second later: another 400 + 2,600 would be allowed, but the bank holds only 1,400 + what it earned (0)
        assertEquals(400 + 1400, spendUntilRefused(b, 100, 11 * S), 1e-6);
        assertEquals(0, b.burstReserve(11 * S), 1e-6);
        // the bank is empty: the plain bucket's rate again
        assertEquals(400, spendUntilRefused(b, 100, 12 * S), 1e-6);
    }

    @Test
    void theBankHoldsAtMostFiveMinutesAndNothingWithoutBurstCapacity() {
        PartitionBudget on = new PartitionBudget("on", 100, 0);
        on.setBurstCapacity(true, 0);
        assertEquals(100 * PartitionBudget.BURST_RESERVE_SECONDS, on.burstReserve(3600 * S), 1e-6);
        PartitionBudget off = new PartitionBudget("off", 100, 0);
        assertEquals(0, off.burstReserve(3600 * S), 1e-9);
        assertEquals(100, spendUntilRefused(off, 10, 3600 * S), 1e-6, "one second of budget only");
        on.setBurstCapacity(false, 3600 * S);
        assertEquals(0, on.burstReserve(3600 * S), 1e-9, "turned off: the bank is gone");
    }

    @Test
    void partitionsAtOrAboveThreeThousandRuPerSecondGetNoBurst() {
        PartitionBudget b = new PartitionBudget("p", 5000, 0);
        b.setBurstCapacity(true, 0);
        assertEquals(0, b.burstReserve(60 * S), 1e-9);
        assertEquals(5000, spendUntilRefused(b, 500, 60 * S), 1e-6);
    }
}
