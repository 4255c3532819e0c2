package io.tetradb.table;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;

import java.nio.file.Path;

/**
 * Builds a {@link TableServiceClient}: over a data directory (the client opens the store and closes it with itself)
 * or over a running {@link CosmosClient} (shared with the other faces; left open). The account (default
 * {@code devstoreaccount1}) names the core database that holds the tables — the one the REST endpoint serves.
 */
public final class TableServiceClientBuilder {
    private Path dataDirectory;
    private CosmosClient cosmosClient;
    private String accountName = "devstoreaccount1";

    public TableServiceClientBuilder dataDirectory(Path dataDirectory) {
        this.dataDirectory = dataDirectory;
        return this;
    }

    public TableServiceClientBuilder cosmosClient(CosmosClient client) {
        this.cosmosClient = client;
        return this;
    }

    public TableServiceClientBuilder accountName(String accountName) {
        this.accountName = accountName;
        return this;
    }

    public TableServiceClient buildClient() {
        if ((dataDirectory == null) == (cosmosClient == null)) {
            throw new IllegalArgumentException("give exactly one of dataDirectory and cosmosClient");
        }
        if (cosmosClient != null) {
            return new TableServiceClient(cosmosClient, false, accountName);
        }
        return new TableServiceClient(new CosmosClientBuilder().dataDirectory(dataDirectory).buildClient(), true,
                accountName);
    }
}
