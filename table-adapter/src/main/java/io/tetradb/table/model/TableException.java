package io.tetradb.table.model;

/**
 * A failed table operation, in Azure Tables' terms: the HTTP status and the error code the service reports
 * ({@code x-ms-error-code}, {@code odata.error.code}), e.g. 404 {@code ResourceNotFound}.
 */
public class TableException extends RuntimeException {
    private final int status;
    private final String errorCode;

    public TableException(int status, String errorCode, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
    }

    public int status() {
        return status;
    }

    public String errorCode() {
        return errorCode;
    }

    public static TableException invalidInput(String message) {
        return new TableException(400, "InvalidInput", message);
    }

    public static TableException badValue(String message) {
        return new TableException(400, "InvalidInput", message);
    }
}
