package io.tetradb.document;

/** The answer to a user-defined function request. */
public final class CosmosUserDefinedFunctionResponse {
    private final int statusCode;
    private final CosmosUserDefinedFunctionProperties properties;

    CosmosUserDefinedFunctionResponse(int statusCode, CosmosUserDefinedFunctionProperties properties) {
        this.statusCode = statusCode;
        this.properties = properties;
    }

    public int getStatusCode() {
        return statusCode;
    }

    public CosmosUserDefinedFunctionProperties getProperties() {
        return properties;
    }

    public double getRequestCharge() {
        return 1;
    }
}
