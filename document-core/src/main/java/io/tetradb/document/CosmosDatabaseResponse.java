package io.tetradb.document;

/** The answer to a database operation. */
public final class CosmosDatabaseResponse {
    private final int statusCode;
    private final CosmosDatabaseProperties properties;

    CosmosDatabaseResponse(int statusCode, CosmosDatabaseProperties properties) {
        this.statusCode = statusCode;
        this.properties = properties;
    }

    public int getStatusCode() {
        return statusCode;
    }

    public CosmosDatabaseProperties getProperties() {
        return properties;
    }

    public double getRequestCharge() {
        return 1;
    }
}
