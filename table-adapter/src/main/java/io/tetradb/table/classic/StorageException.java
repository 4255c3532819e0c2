package io.tetradb.table.classic;

/** A failed classic operation: HTTP status and Tables error code, as the classic SDK reports them. */
public class StorageException extends RuntimeException {
    private final int httpStatusCode;
    private final String errorCode;

    public StorageException(int httpStatusCode, String errorCode, String message) {
        super(message);
        this.httpStatusCode = httpStatusCode;
        this.errorCode = errorCode;
    }

    public int getHttpStatusCode() {
        return httpStatusCode;
    }

    public String getErrorCode() {
        return errorCode;
    }
}
