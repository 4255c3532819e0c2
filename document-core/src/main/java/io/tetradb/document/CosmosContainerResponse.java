package io.tetradb.document;

/** The answer to a container operation. */
public final class CosmosContainerResponse {
    private final int statusCode;
    private final CosmosContainerProperties properties;

    CosmosContainerResponse(int statusCode, CosmosContainerProperties properties) {
        this.statusCode = statusCode;
        this.properties = properties;
    }

    public int getStatusCode() {
        return statusCode;
    }

    public CosmosContainerProperties getProperties() {
        return properties;
    }

    public double getRequestCharge() {
        return 1;
    }
}
