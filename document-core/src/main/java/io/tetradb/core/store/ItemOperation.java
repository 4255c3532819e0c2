package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.patch.PatchOperation;

import java.util.List;

/**
 * One item operation inside a logical partition. A single-item call is a transaction of one operation; a
 * transactional batch is a list of them, applied all or nothing.
 */
public record ItemOperation(Type type, String id, ObjectNode item, List<PatchOperation> patch, String ifMatchETag,
                            String ifNoneMatchETag, EncodedItem encoded) {
    /** An operation with its item as a tree (or none). */
    public ItemOperation(Type type, String id, ObjectNode item, List<PatchOperation> patch, String ifMatchETag,
                         String ifNoneMatchETag) {
        this(type, id, item, patch, ifMatchETag, ifNoneMatchETag, null);
    }

    /** A create of an item already encoded in TB1 (see {@link EncodedItem}): {@link #item()} is null. */
    public static ItemOperation create(EncodedItem item) {
        return new ItemOperation(Type.CREATE, null, null, null, null, null, item);
    }

    /** An upsert of an item already encoded in TB1. */
    public static ItemOperation upsert(EncodedItem item, String ifMatch) {
        return new ItemOperation(Type.UPSERT, null, null, null, ifMatch, null, item);
    }

    /** A replace by an item already encoded in TB1. */
    public static ItemOperation replace(String id, EncodedItem item, String ifMatch) {
        return new ItemOperation(Type.REPLACE, id, null, null, ifMatch, null, item);
    }

    /** This operation with its item as a tree (an encoded item decoded): for callers that need one (triggers). */
    public ItemOperation withTree() {
        return encoded == null || item != null ? this
                : new ItemOperation(type, id, encoded.tree(), patch, ifMatchETag, ifNoneMatchETag, null);
    }

    public enum Type {
        CREATE, UPSERT, REPLACE, DELETE, READ, PATCH;

        boolean writes() {
            return this != READ;
        }
    }

    public static ItemOperation create(ObjectNode item) {
        return new ItemOperation(Type.CREATE, null, item, null, null, null);
    }

    public static ItemOperation upsert(ObjectNode item, String ifMatch) {
        return new ItemOperation(Type.UPSERT, null, item, null, ifMatch, null);
    }

    public static ItemOperation replace(String id, ObjectNode item, String ifMatch) {
        return new ItemOperation(Type.REPLACE, id, item, null, ifMatch, null);
    }

    public static ItemOperation delete(String id, String ifMatch) {
        return new ItemOperation(Type.DELETE, id, null, null, ifMatch, null);
    }

    public static ItemOperation read(String id, String ifNoneMatch) {
        return new ItemOperation(Type.READ, id, null, null, null, ifNoneMatch);
    }

    public static ItemOperation patch(String id, List<PatchOperation> ops, String ifMatch) {
        return new ItemOperation(Type.PATCH, id, null, List.copyOf(ops), ifMatch, null);
    }
}
