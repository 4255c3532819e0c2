package io.tetradb.core.unique;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * A unique index whose keys a face computes (a MongoDB unique index: one key per array element, sparse, partial):
 * the core stores the keys beside the item in the item's own atomic write and refuses a write that would give a key
 * to a second item. Implementations must be pure functions of the item.
 */
public interface ItemUniqueIndex {
    /**
     * The distinct keys of one version of an item (stored or being written), each as bytes that are equal exactly
     * for the values the face holds equal; empty when the item is not in the index (sparse, partial). May throw a
     * {@link RuntimeException} to refuse an item the index cannot hold.
     */
    List<byte[]> keys(ObjectNode item);
}
