package io.tetradb.core.feed;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * pw-next: the sequencer keeps its batches in flight in a ring instead of a tree map. Against a model (the tree map
 * it replaced), over random takes and out-of-order releases — with many batches in flight at once (the ring grows and
 * wraps), releases of unknown numbers and second releases — the stable position is the model's after every step, and
 * each batch's release action runs exactly once, with its outcome, at its first release.
 */
class FeedSequencerTest {
    @Test
    void stableIsBelowTheSmallestBatchInFlightWhateverOrderBatchesAreReleasedIn() {
        Random r = new Random(41);
        for (int round = 0; round < 200; round++) {
            long start = r.nextInt(1000);
            FeedSequencer s = new FeedSequencer(start);
            TreeMap<Long, Integer> model = new TreeMap<>(); // first → count
            long last = start;
            Map<Long, List<Boolean>> ran = new HashMap<>();
            List<Long> taken = new ArrayList<>();
            int maxInFlight = 1 + r.nextInt(round % 4 == 0 ? 80 : 6);
            for (int step = 0; step < 400; step++) {
                if (model.size() < maxInFlight && (model.isEmpty() || r.nextBoolean())) {
                    int count = 1 + r.nextInt(5);
                    long[] first = new long[1];
                    first[0] = s.allocate(count, applied -> ran.computeIfAbsent(first[0], k -> new ArrayList<>())
                            .add(applied));
                    assertEquals(last + 1, first[0]);
                    last += count;
                    model.put(first[0], count);
                    taken.add(first[0]);
                } else {
                    long first = r.nextInt(10) == 0 ? taken.get(r.nextInt(taken.size())) + (r.nextBoolean() ? 0 : 1)
                            : new ArrayList<>(model.keySet()).get(r.nextInt(model.size()));
                    boolean applied = r.nextBoolean();
                    boolean inFlight = model.remove(first) != null;
                    int before = ran.getOrDefault(first, List.of()).size();
                    s.release(first, applied);
                    List<Boolean> runs = ran.getOrDefault(first, List.of());
                    assertEquals(inFlight ? before + 1 : before, runs.size(), "round " + round + " step " + step);
                    if (inFlight) {
                        assertEquals(applied, runs.get(runs.size() - 1));
                    }
                }
                assertEquals(model.isEmpty() ? last : model.firstKey() - 1, s.stable(),
                        "round " + round + " step " + step);
                assertEquals(last, s.last());
            }
        }
    }

    /**
     * A long batch (a bulk chunk) held while 100,000 point writes come and go grows the ring to hold them all; once
     * it and they are released the ring goes back to its first size, and a steady few writers never shrink it.
     */
    @Test
    void aRingGrownBehindALongBatchShrinksWhenItEmpties() {
        FeedSequencer s = new FeedSequencer(0);
        long chunk = s.allocate(10_000);
        List<Long> points = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            points.add(s.allocate(1));
        }
        for (long p : points) {
            s.release(p);
        }
        assertEquals(true, s.capacity() > 100_000, "grew to " + s.capacity());
        assertEquals(chunk - 1, s.stable());
        s.release(chunk);
        assertEquals(s.last(), s.stable());
        assertEquals(FeedSequencer.INITIAL_CAPACITY, s.capacity());

        for (int i = 0; i < 500; i++) { // a few in flight at a time: the ring stays as it is
            long a = s.allocate(1);
            long b = s.allocate(2);
            s.release(b);
            s.release(a);
        }
        assertEquals(FeedSequencer.INITIAL_CAPACITY, s.capacity());
        assertEquals(s.last(), s.stable());
        long c = s.allocate(3); // numbers still follow on after the shrink
        assertEquals(s.last() - 2, c);
    }
}
