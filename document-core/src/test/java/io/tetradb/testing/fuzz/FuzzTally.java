package io.tetradb.testing.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * What one face's fuzz run saw: inputs sent, connections the server answered or closed, hangs (a whole input neither
 * answered nor closed within the bound), and memory before and after. {@link #report()} prints one
 * {@code FUZZ face ...} line, the figures the issue asks for.
 */
public final class FuzzTally {
    private final String face;
    private final long seed;
    private long inputs;
    private long answered;
    private long closedByServer;
    private final List<String> hangs = new ArrayList<>();
    private final long heapBefore;
    private final long rssBefore;
    private final long startNanos = System.nanoTime();

    public FuzzTally(String face, long seed) {
        this.face = face;
        this.seed = seed;
        this.heapBefore = MemoryProbe.heapUsedAfterGc();
        this.rssBefore = MemoryProbe.residentSetBytes();
    }

    public void input() {
        inputs++;
    }

    public void answered() {
        answered++;
    }

    public void closedByServer() {
        closedByServer++;
    }

    public void hang(String what) {
        if (hangs.size() < 20) {
            hangs.add(what);
        }
    }

    public long inputs() {
        return inputs;
    }

    public long answeredCount() {
        return answered;
    }

    public long closedCount() {
        return closedByServer;
    }

    public List<String> hangs() {
        return hangs;
    }

    public long heapBefore() {
        return heapBefore;
    }

    /** Prints the summary line and returns the heap in use after GC now. */
    public long report() {
        long heapAfter = MemoryProbe.heapUsedAfterGc();
        long rssAfter = MemoryProbe.residentSetBytes();
        System.out.printf("FUZZ %s seed=%d inputs=%d answered=%d closed=%d hangs=%d crashes=0 seconds=%d "
                        + "heapAfterGcMb=%d->%d rssMb=%d->%d%n", face, seed, inputs, answered, closedByServer,
                hangs.size(), (System.nanoTime() - startNanos) / 1_000_000_000L, MemoryProbe.mb(heapBefore),
                MemoryProbe.mb(heapAfter), MemoryProbe.mb(rssBefore), MemoryProbe.mb(rssAfter));
        return heapAfter;
    }
}
