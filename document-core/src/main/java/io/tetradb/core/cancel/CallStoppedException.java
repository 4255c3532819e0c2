package io.tetradb.core.cancel;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

/**
 * A core call stopped inside its loop because its request's {@link StopSignal} or a thread interrupt said so. A
 * 408 for faces that only know statuses (the Cosmos convention: RequestTimeout); the Mongo face answers by
 * {@link #reason()} (50 MaxTimeMSExpired, 11601 Interrupted), Gremlin's server has already answered its timeout.
 * Only reads stop this way: nothing the call did is written, so there is nothing to undo.
 */
public final class CallStoppedException extends StoreException {
    private final StopReason reason;

    public CallStoppedException(StopReason reason) {
        super(Status.REQUEST_TIMEOUT, messageOf(reason));
        this.reason = reason;
    }

    public StopReason reason() {
        return reason;
    }

    private static String messageOf(StopReason reason) {
        return switch (reason) {
            case TIME_LIMIT -> "The request exceeded its time limit and was stopped.";
            case KILLED -> "The request was killed and stopped.";
            case INTERRUPTED -> "The request was interrupted and stopped.";
        };
    }
}
