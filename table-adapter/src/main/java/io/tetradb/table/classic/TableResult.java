package io.tetradb.table.classic;

/** The outcome of a classic operation: the HTTP status the service would answer, the entity (for retrieve), the ETag. */
public final class TableResult {
    private final int httpStatusCode;
    private final Object result;
    private final String etag;

    TableResult(int httpStatusCode, Object result, String etag) {
        this.httpStatusCode = httpStatusCode;
        this.result = result;
        this.etag = etag;
    }

    public int getHttpStatusCode() {
        return httpStatusCode;
    }

    public Object getResult() {
        return result;
    }

    @SuppressWarnings("unchecked")
    public <T> T getResultAsType() {
        return (T) result;
    }

    public String getEtag() {
        return etag;
    }
}
