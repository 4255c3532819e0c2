package io.tetradb.document;

/** The answer to a container operation. */
public final class CosmosContainerResponse {
    private final int statusCode;
    private final CosmosContainerProperties properties;
    private final long indexTransformationProgress;

    CosmosContainerResponse(int statusCode, CosmosContainerProperties properties) {
        this(statusCode, properties, 100);
    }

    CosmosContainerResponse(int statusCode, CosmosContainerProperties properties, long indexTransformationProgress) {
        this.statusCode = statusCode;
        this.properties = properties;
        this.indexTransformationProgress = indexTransformationProgress;
    }

    public int getStatusCode() {
        return statusCode;
    }

    public CosmosContainerProperties getProperties() {
        return properties;
    }

    /**
     * How far the index transformation after an indexing-policy change has got, in percent: 100 when none runs
     * (Cosmos DB's {@code x-ms-documentdb-collection-index-transformation-progress} header).
     */
    public long getIndexTransformationProgress() {
        return indexTransformationProgress;
    }

    public double getRequestCharge() {
        return 1;
    }
}
