package io.tetradb.testing.fuzz;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fuzz harness's spreading of connections over destinations, and its pacing once every one is spent. */
class EphemeralPortBudgetTest {
    private static final List<InetAddress> THREE = List.of(address(1), address(2), address(3));

    @Test
    void connectionsRotateOverTheDestinations() throws Exception {
        EphemeralPortBudget budget = new EphemeralPortBudget(THREE, 4000, 10);
        assertEquals(List.of(at(1), at(2), at(3), at(1)),
                List.of(budget.next(), budget.next(), budget.next(), budget.next()));
        assertEquals(0, budget.waits());
    }

    @Test
    void aDestinationWhosePortsAreHeldIsSkipped() throws Exception {
        EphemeralPortBudget budget = new EphemeralPortBudget(THREE, 4000, 2, TimeUnit.HOURS.toNanos(1));
        budget.held(at(2));
        budget.held(at(2));
        assertEquals(List.of(at(1), at(3), at(1), at(3)),
                List.of(budget.next(), budget.next(), budget.next(), budget.next()));
    }

    @Test
    void whenEveryDestinationIsSpentTheNextConnectionWaitsForTheOldestToExpire() throws Exception {
        EphemeralPortBudget budget = new EphemeralPortBudget(List.of(address(1)), 4000, 1,
                TimeUnit.MILLISECONDS.toNanos(300));
        budget.held(budget.next());
        long began = System.nanoTime();
        assertEquals(at(1), budget.next(), "the destination again, once its port is free");
        assertTrue(System.nanoTime() - began >= TimeUnit.MILLISECONDS.toNanos(300), "it waited for the hold to end");
        assertEquals(1, budget.waits());
        assertTrue(budget.summary().contains("paced_waits=1"), budget.summary());
    }

    @Test
    void theBudgetComesFromTheKernelsPortRange() {
        assertTrue(EphemeralPortBudget.ephemeralPorts() > 1000, "ip_local_port_range read: "
                + EphemeralPortBudget.ephemeralPorts());
    }

    private static InetSocketAddress at(int last) {
        return new InetSocketAddress(address(last), 4000);
    }

    private static InetAddress address(int last) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
