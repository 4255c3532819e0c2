package io.tetradb.core.unique;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

/**
 * A write (or an index build) that would give a key of a face-defined unique index to a second item: 409 with
 * Cosmos DB's text; the face reads {@link #index()}, {@link #key()} and {@link #item()} to answer in its own terms.
 */
public final class UniqueIndexViolation extends StoreException {
    private final String index;
    private final transient byte[] key;
    private final transient ObjectNode item;

    public UniqueIndexViolation(String index, byte[] key, ObjectNode item) {
        super(Status.CONFLICT, "Unique index constraint violation.");
        this.index = index;
        this.key = key;
        this.item = item;
    }

    /** The unique index's name. */
    public String index() {
        return index;
    }

    /** The key (as the index's {@link ItemUniqueIndex#keys} gave it) another item holds. */
    public byte[] key() {
        return key.clone();
    }

    /** The item version that was refused (as written, or as stored for an index build). */
    public ObjectNode item() {
        return item;
    }
}
