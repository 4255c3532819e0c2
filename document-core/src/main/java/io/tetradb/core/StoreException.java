package io.tetradb.core;

/**
 * A request the core refused or could not serve, with an HTTP-style status (and Cosmos-style sub-status) that each
 * face translates into its own convention.
 */
public class StoreException extends RuntimeException {
    private final int status;
    private final int subStatus;

    public StoreException(int status, String message) {
        this(status, 0, message);
    }

    public StoreException(int status, int subStatus, String message) {
        super(message);
        this.status = status;
        this.subStatus = subStatus;
    }

    public int status() {
        return status;
    }

    public int subStatus() {
        return subStatus;
    }
}
