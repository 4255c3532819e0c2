package io.tetradb.testing.fuzz;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where a fuzz connection to one server port goes, so that the client's ephemeral ports last a long run. A
 * connection the client half-closes before the server closes it leaves the client's end in TIME_WAIT, holding its
 * 4-tuple for 60 s (SO_LINGER 0 cannot undo it: the kernel moves the socket to TIME_WAIT when the server's FIN
 * arrives, before the client's close). A long run half-closes hundreds of connections a second, more than
 * {@code ip_local_port_range} (28,232 ports) lasts for a minute to one destination. Linux picks an unbound
 * {@code connect()}'s port per destination (the 4-tuple must be unique, not the port), so each destination address
 * of the server's port gives the whole range again: the budget rotates the connections over its destinations, counts
 * the ones that may hold a port ({@link #held}), and when every destination has used {@link #PER_DESTINATION_SHARE}
 * of the range in the last minute it waits for the oldest to expire (counted: {@link #summary()}) rather than let a
 * {@code connect} fail with "Cannot assign requested address". No sysctl needed.
 */
public final class EphemeralPortBudget {
    /** Linux's TCP_TIMEWAIT_LEN, and a second of margin. */
    private static final long TIME_WAIT_NANOS = TimeUnit.SECONDS.toNanos(61);
    /** The share of the range one destination may hold: the rest is for everything else on the machine. */
    private static final double PER_DESTINATION_SHARE = 0.8;

    private final long holdNanos;
    private final InetSocketAddress[] destinations;
    private final long[][] heldAt;
    private final int[] head;
    private final int[] size;
    private final int capacity;
    private int cursor;
    private long waits;
    private long waitedNanos;
    private long heldTotal;

    /** A budget for {@code port} on each of {@code addresses} (the server must listen on all of them). */
    public EphemeralPortBudget(List<InetAddress> addresses, int port) {
        this(addresses, port, (int) (ephemeralPorts() * PER_DESTINATION_SHARE));
    }

    /** As above with an explicit number of ports per destination and minute (a test's small budget). */
    public EphemeralPortBudget(List<InetAddress> addresses, int port, int perDestination) {
        this(addresses, port, perDestination, TIME_WAIT_NANOS);
    }

    EphemeralPortBudget(List<InetAddress> addresses, int port, int perDestination, long holdNanos) {
        this.holdNanos = holdNanos;
        if (addresses.isEmpty() || perDestination < 1) {
            throw new IllegalArgumentException("a budget needs a destination and a port for it");
        }
        destinations = addresses.stream().map(a -> new InetSocketAddress(a, port)).toArray(InetSocketAddress[]::new);
        capacity = perDestination;
        heldAt = new long[destinations.length][capacity];
        head = new int[destinations.length];
        size = new int[destinations.length];
    }

    /** One destination: the old behaviour, paced instead of failing. */
    public static EphemeralPortBudget single(InetSocketAddress target) {
        return new EphemeralPortBudget(List.of(target.getAddress()), target.getPort());
    }

    /** How many ports {@code /proc/sys/net/ipv4/ip_local_port_range} spans (Linux's default 28,232 elsewhere). */
    public static int ephemeralPorts() {
        try {
            String[] range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
            return Integer.parseInt(range[1]) - Integer.parseInt(range[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return 60999 - 32768 + 1;
        }
    }

    /** The destination for the next connection; waits while every destination's ports are spent. */
    public synchronized InetSocketAddress next() throws InterruptedException {
        long began = 0;
        while (true) {
            long now = System.nanoTime();
            long earliestFree = Long.MAX_VALUE;
            for (int i = 0; i < destinations.length; i++) {
                int d = (cursor + i) % destinations.length;
                expire(d, now);
                if (size[d] < capacity) {
                    cursor = d + 1;
                    if (began != 0) {
                        waitedNanos += now - began;
                    }
                    return destinations[d];
                }
                earliestFree = Math.min(earliestFree, heldAt[d][head[d]] + holdNanos);
            }
            if (began == 0) {
                began = now;
                waits++;
            }
            TimeUnit.NANOSECONDS.timedWait(this, Math.max(1_000_000, earliestFree - now));
        }
    }

    /** A connection to {@code destination} ended in a way that may keep its port for a minute (a half-close). */
    public synchronized void held(InetSocketAddress destination) {
        for (int d = 0; d < destinations.length; d++) {
            if (destinations[d].equals(destination)) {
                expire(d, System.nanoTime());
                if (size[d] == capacity) { // over budget (connections in flight): forget the oldest
                    head[d] = (head[d] + 1) % capacity;
                    size[d]--;
                }
                heldAt[d][(head[d] + size[d]) % capacity] = System.nanoTime();
                size[d]++;
                heldTotal++;
                return;
            }
        }
    }

    private void expire(int d, long now) {
        while (size[d] > 0 && now - heldAt[d][head[d]] > holdNanos) {
            head[d] = (head[d] + 1) % capacity;
            size[d]--;
        }
    }

    public synchronized long waits() {
        return waits;
    }

    /** Destinations, connections that held a port, and the pacing it took. */
    public synchronized String summary() {
        return "destinations=" + destinations.length + " ports_per_destination_minute=" + capacity
                + " held=" + heldTotal + " paced_waits=" + waits + " paced_ms=" + waitedNanos / 1_000_000;
    }
}
