package io.tetradb.table;

/** A transaction whose action at {@link #getFailedTransactionActionIndex()} failed; nothing was applied. */
public final class TableTransactionFailedException extends TableServiceException {
    private final int failedIndex;

    public TableTransactionFailedException(int statusCode, String errorCode, String message, int failedIndex) {
        super(statusCode, errorCode, message);
        this.failedIndex = failedIndex;
    }

    public int getFailedTransactionActionIndex() {
        return failedIndex;
    }
}
