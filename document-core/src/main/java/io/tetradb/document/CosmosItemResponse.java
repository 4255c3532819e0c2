package io.tetradb.document;

import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemResult;

/** The answer to an item operation, as in azure-cosmos. The item is parsed on first {@link #getItem()}. */
public final class CosmosItemResponse<T> {
    private final ItemResult result;
    private final ItemCodec codec;
    private final Class<T> type;
    private final boolean withContent;
    private T item;

    CosmosItemResponse(ItemResult result, ItemCodec codec, Class<T> type, boolean withContent) {
        this.result = result;
        this.codec = codec;
        this.type = type;
        this.withContent = withContent;
    }

    /** The item, or null for deletes, 304s and writes without content response. */
    public T getItem() {
        if (item == null && withContent && result.stored() != null && type != null) {
            item = CosmosException.call(() -> codec.parseForCaller(result.stored(), type));
        }
        return item;
    }

    public double getRequestCharge() {
        return result.requestCharge();
    }

    /** The item's etag in quotes, as Cosmos DB returns it. */
    public String getETag() {
        return result.etag() == null ? null : "\"" + result.etag() + "\"";
    }

    public int getStatusCode() {
        return result.status();
    }
}
