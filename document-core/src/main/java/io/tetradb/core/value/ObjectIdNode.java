package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.Arrays;
import java.util.HexFormat;

/** A MongoDB ObjectId: 12 bytes, ordered as unsigned bytes (as MongoDB does). JSON view: 24 lower-case hex digits. */
public final class ObjectIdNode extends TypedNode {
    private static final long serialVersionUID = 1L;
    private final byte[] bytes;

    private ObjectIdNode(byte[] bytes) {
        if (bytes.length != 12) {
            throw new IllegalArgumentException("an ObjectId has 12 bytes, not " + bytes.length);
        }
        this.bytes = bytes;
    }

    public static ObjectIdNode of(byte[] bytes) {
        return new ObjectIdNode(bytes.clone());
    }

    public static ObjectIdNode ofHex(String hex) {
        if (hex.length() != 24) {
            throw new IllegalArgumentException("an ObjectId is 24 hex digits: " + hex);
        }
        return new ObjectIdNode(HexFormat.of().parseHex(hex));
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    public String hex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public ValueType valueType() {
        return ValueType.OBJECT_ID;
    }

    @Override
    public int typeRank() {
        return ValueOrder.RANK_OBJECT_ID;
    }

    @Override
    public JsonNode jsonView() {
        return TextNode.valueOf(hex());
    }

    @Override
    int compareSameRank(TypedNode other) {
        return compareUnsigned(bytes, ((ObjectIdNode) other).bytes);
    }

    @Override
    byte[] keyBody() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObjectIdNode n && Arrays.equals(n.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }
}
