package io.tetradb.document;

/** The answer to a trigger request. */
public final class CosmosTriggerResponse {
    private final int statusCode;
    private final CosmosTriggerProperties properties;

    CosmosTriggerResponse(int statusCode, CosmosTriggerProperties properties) {
        this.statusCode = statusCode;
        this.properties = properties;
    }

    public int getStatusCode() {
        return statusCode;
    }

    public CosmosTriggerProperties getProperties() {
        return properties;
    }

    public double getRequestCharge() {
        return 1;
    }
}
