package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import io.tetradb.core.patch.PatchOperation;

import java.util.ArrayList;
import java.util.List;

/** A list of patch operations, applied atomically; paths are JSON pointers such as {@code /address/city}. */
public final class CosmosPatchOperations {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final List<PatchOperation> operations = new ArrayList<>();

    private CosmosPatchOperations() {
    }

    public static CosmosPatchOperations create() {
        return new CosmosPatchOperations();
    }

    /** Adds a property, or inserts into an array ({@code /tags/-} appends). */
    public <T> CosmosPatchOperations add(String path, T value) {
        return op(PatchOperation.Type.ADD, path, null, tree(value));
    }

    /** Sets a property, or overwrites an array element. */
    public <T> CosmosPatchOperations set(String path, T value) {
        return op(PatchOperation.Type.SET, path, null, tree(value));
    }

    /** Replaces a value that must exist. */
    public <T> CosmosPatchOperations replace(String path, T value) {
        return op(PatchOperation.Type.REPLACE, path, null, tree(value));
    }

    public CosmosPatchOperations remove(String path) {
        return op(PatchOperation.Type.REMOVE, path, null, null);
    }

    public CosmosPatchOperations increment(String path, long value) {
        return op(PatchOperation.Type.INCREMENT, path, null, LongNode.valueOf(value));
    }

    public CosmosPatchOperations increment(String path, double value) {
        return op(PatchOperation.Type.INCREMENT, path, null, DoubleNode.valueOf(value));
    }

    public CosmosPatchOperations move(String fromPath, String toPath) {
        return op(PatchOperation.Type.MOVE, toPath, fromPath, null);
    }

    List<PatchOperation> operations() {
        return operations;
    }

    private CosmosPatchOperations op(PatchOperation.Type type, String path, String from, JsonNode value) {
        operations.add(new PatchOperation(type, path, from, value));
        return this;
    }

    private static JsonNode tree(Object value) {
        return value instanceof JsonNode n ? n : MAPPER.valueToTree(value);
    }
}
