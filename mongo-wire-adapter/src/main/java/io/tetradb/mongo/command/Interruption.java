package io.tetradb.mongo.command;

/**
 * Where a running command notices that it was killed ({@code killOp}, or {@code killSessions}/{@code
 * killAllSessions}/{@code killAllSessionsByPattern} of its session): the places that read on — each page the core
 * reads for a query, each document a batch takes — call {@link #check()}, which throws Interrupted (11601,
 * "operation was interrupted", mongod's answer to a killed operation) once the command's operation is marked. A kill
 * therefore stops a command between two documents or pages, never inside a write: what it wrote stays whole, and a
 * transaction's writes, buffered until its commit, are dropped with the transaction the kill aborts.
 * <p>The operation is found through the thread running it, set by the dispatcher around each command: the check is a
 * thread-local read and a volatile read, no allocation.
 */
public final class Interruption {
    private static final ThreadLocal<Operations.Op> RUNNING = new ThreadLocal<>();

    private Interruption() {
    }

    /** This thread runs {@code op} until {@link #leave}; answers the operation it ran before (null normally). */
    static Operations.Op enter(Operations.Op op) {
        Operations.Op previous = RUNNING.get();
        RUNNING.set(op);
        stopCoreCallsOf(op);
        return previous;
    }

    static void leave(Operations.Op previous) {
        RUNNING.set(previous);
        stopCoreCallsOf(previous);
    }

    /**
     * The core polls the same kill and deadline inside each of its calls (every few dozen rows of a scan, an index
     * read or a JOIN), so one page of a query that filters out most of a big collection stops there too; its
     * {@link io.tetradb.core.cancel.CallStoppedException} becomes 11601 or 50 ({@link MongoErrors#of}).
     */
    private static void stopCoreCallsOf(Operations.Op op) {
        io.tetradb.core.cancel.CallStop.install(op == null ? null : op::stopReason);
    }

    /** The operation this thread runs, or null outside commands. */
    static Operations.Op current() {
        return RUNNING.get();
    }

    /**
     * Throws {@code e} again when it is an interruption (a kill, or maxTimeMS run out): a write command answers one as a whole (mongod: "these have
     * always failed the whole batch"), never as one statement's {@code writeErrors} entry.
     */
    static void rethrow(RuntimeException e) {
        if (e instanceof MongoError m && MaxTime.stopsTheCommand(m)) {
            throw m;
        }
    }

    /**
     * Interrupted (11601) when the command this thread runs has been killed, MaxTimeMSExpired (50) when its maxTimeMS
     * has run out; nothing otherwise.
     */
    public static void check() {
        Operations.Op op = RUNNING.get();
        if (op != null) {
            op.checkInterrupt();
        }
    }
}
