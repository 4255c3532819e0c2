package io.tetradb.core.cancel;

/**
 * The core's cooperative cancellation: a face {@link #install installs} the {@link StopSignal} of the request a
 * thread runs, and the core's query and read loops call {@link #tick()} once per row (document read, index entry,
 * JOIN row); every {@link #EVERY_ROWS} ticks it polls the signal and the thread's interrupt flag and throws
 * {@link CallStoppedException} when either says stop. So one call (a full scan with a filter that matches nothing, a
 * JOIN over large arrays, an aggregate) stops within a few dozen rows of its deadline or kill instead of running to
 * its end while the face waits.
 * <p>Per tick: a thread-local read and a decrement; the poll is a volatile read or a clock read. No allocation (on a
 * quiet machine the checks cost nothing visible in the query benchmark, session 14).
 */
public final class CallStop {
    /** Rows between two polls. */
    public static final int EVERY_ROWS = 64;

    private static final ThreadLocal<CallStop> LOCAL = ThreadLocal.withInitial(CallStop::new);

    /** Called at every poll on the polling thread, before the signal (tests count or move clocks); null in service. */
    private static volatile Runnable pollHook;

    private StopSignal signal;
    private int left = EVERY_ROWS;

    private CallStop() {
    }

    /** The installed signal of this thread until {@link Scope#close()}, which restores the one before. */
    public static final class Scope implements AutoCloseable {
        private final CallStop state;
        private final StopSignal previous;

        private Scope(CallStop state, StopSignal previous) {
            this.state = state;
            this.previous = previous;
        }

        @Override
        public void close() {
            state.signal = previous;
        }
    }

    /** Core calls on this thread stop as {@code signal} says until the scope closes (null: only on interrupts). */
    public static Scope install(StopSignal signal) {
        CallStop state = LOCAL.get();
        StopSignal previous = state.signal;
        state.signal = signal;
        state.left = EVERY_ROWS;
        return new Scope(state, previous);
    }

    /** One row of a loop: every {@link #EVERY_ROWS} rows, {@link #checkNow()}. */
    public static void tick() {
        CallStop state = LOCAL.get();
        if (--state.left > 0) {
            return;
        }
        state.left = EVERY_ROWS;
        state.poll();
    }

    /** Throws {@link CallStoppedException} when this thread's request must stop now. */
    public static void checkNow() {
        LOCAL.get().poll();
    }

    /** Runs {@code hook} at every poll (tests: a row-count trigger instead of a timer); null removes it. */
    public static void pollHook(Runnable hook) {
        pollHook = hook;
    }

    private void poll() {
        Runnable hook = pollHook;
        if (hook != null) {
            hook.run();
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new CallStoppedException(StopReason.INTERRUPTED); // the flag stays set for the caller to see
        }
        StopSignal s = signal;
        if (s != null) {
            StopReason reason = s.poll();
            if (reason != null) {
                throw new CallStoppedException(reason);
            }
        }
    }
}
