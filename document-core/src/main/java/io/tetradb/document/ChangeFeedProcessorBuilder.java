package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.function.Consumer;

/** Builds a {@link ChangeFeedProcessor}, as azure-cosmos' {@code ChangeFeedProcessorBuilder}. */
public final class ChangeFeedProcessorBuilder {
    private String hostName;
    private CosmosContainer feedContainer;
    private CosmosContainer leaseContainer;
    private Consumer<List<JsonNode>> jsonHandler;
    private Consumer<List<ChangeFeedProcessorItem>> itemHandler;
    private boolean allVersionsAndDeletes;
    private ChangeFeedProcessorOptions options = new ChangeFeedProcessorOptions();

    /** This processor's name in the leases it owns; unique per running processor. */
    public ChangeFeedProcessorBuilder hostName(String hostName) {
        this.hostName = hostName;
        return this;
    }

    public ChangeFeedProcessorBuilder feedContainer(CosmosContainer feedContainer) {
        this.feedContainer = feedContainer;
        return this;
    }

    /** Where the leases live: a container whose partition key is {@code /id}, as Cosmos DB requires. */
    public ChangeFeedProcessorBuilder leaseContainer(CosmosContainer leaseContainer) {
        this.leaseContainer = leaseContainer;
        return this;
    }

    /** Latest-version changes as the items themselves. */
    public ChangeFeedProcessorBuilder handleChanges(Consumer<List<JsonNode>> consumer) {
        this.jsonHandler = consumer;
        this.itemHandler = null;
        this.allVersionsAndDeletes = false;
        return this;
    }

    /** Latest-version changes as {@link ChangeFeedProcessorItem}s (the item is {@code getCurrent()}). */
    public ChangeFeedProcessorBuilder handleLatestVersionChanges(Consumer<List<ChangeFeedProcessorItem>> consumer) {
        this.itemHandler = consumer;
        this.jsonHandler = null;
        this.allVersionsAndDeletes = false;
        return this;
    }

    /** Every create, replace and delete (the container needs an all-versions-and-deletes change feed policy). */
    public ChangeFeedProcessorBuilder handleAllVersionsAndDeletesChanges(
            Consumer<List<ChangeFeedProcessorItem>> consumer) {
        this.itemHandler = consumer;
        this.jsonHandler = null;
        this.allVersionsAndDeletes = true;
        return this;
    }

    public ChangeFeedProcessorBuilder options(ChangeFeedProcessorOptions options) {
        this.options = options == null ? new ChangeFeedProcessorOptions() : options;
        return this;
    }

    public ChangeFeedProcessor buildChangeFeedProcessor() {
        if (hostName == null || hostName.isEmpty()) {
            throw new IllegalArgumentException("Host name was not specified");
        }
        if (feedContainer == null) {
            throw new IllegalArgumentException("Feed container was not specified");
        }
        if (leaseContainer == null) {
            throw new IllegalArgumentException("Lease container was not specified");
        }
        if (jsonHandler == null && itemHandler == null) {
            throw new IllegalArgumentException("Change feed handler was not specified");
        }
        Consumer<List<JsonNode>> handler = jsonHandler != null ? jsonHandler : changes -> itemHandler.accept(
                changes.stream().map(n -> allVersionsAndDeletes ? new ChangeFeedProcessorItem(n)
                        : ChangeFeedProcessorItem.latest(n)).toList());
        return new LeasedChangeFeedProcessor(hostName, feedContainer, leaseContainer, handler, allVersionsAndDeletes,
                options);
    }
}
