package io.tetradb.graph.store;

/**
 * The sum of the core's request charges (RU) of the work done on this thread since the last {@link #reset()}.
 * A traversal runs on one thread, so reset before and read after it gives the traversal's charge (what Gremlin
 * Server reports as {@code x-ms-request-charge}).
 */
public final class RequestCharges {
    private final ThreadLocal<double[]> sum = ThreadLocal.withInitial(() -> new double[1]);

    public void add(double charge) {
        sum.get()[0] += charge;
    }

    /** The charge accumulated on this thread. */
    public double current() {
        return sum.get()[0];
    }

    /** Returns the charge accumulated on this thread and starts again from zero. */
    public double reset() {
        double[] s = sum.get();
        double v = s[0];
        s[0] = 0;
        return v;
    }
}
