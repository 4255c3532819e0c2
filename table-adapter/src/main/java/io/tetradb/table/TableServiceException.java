package io.tetradb.table;

import io.tetradb.table.model.TableException;

/** A failed table operation: the HTTP status the service would answer and its Tables error code. */
public class TableServiceException extends RuntimeException {
    private final int statusCode;
    private final String errorCode;

    public TableServiceException(int statusCode, String errorCode, String message) {
        super(message);
        this.statusCode = statusCode;
        this.errorCode = errorCode;
    }

    static TableServiceException of(TableException e) {
        return new TableServiceException(e.status(), e.errorCode(), e.getMessage());
    }

    public int getStatusCode() {
        return statusCode;
    }

    /** The Tables error code, e.g. {@code EntityAlreadyExists}, {@code UpdateConditionNotSatisfied}. */
    public String getErrorCode() {
        return errorCode;
    }
}
