package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.patch.PatchOperation;

import java.util.List;

/**
 * One item operation inside a logical partition. A single-item call is a transaction of one operation; a
 * transactional batch is a list of them, applied all or nothing.
 */
public record ItemOperation(Type type, String id, ObjectNode item, List<PatchOperation> patch, String ifMatchETag,
                            String ifNoneMatchETag) {
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
