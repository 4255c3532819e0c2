package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.UUID;

/**
 * A UUID / Guid (BSON binary subtype 4, Edm.Guid, Gremlin UUID). Orders as the 16-byte binary of subtype 4 (its
 * big-endian bytes). JSON view: the canonical 36-character lower-case string.
 */
public final class UuidNode extends TypedNode {
    private static final long serialVersionUID = 1L;
    private final UUID uuid;

    private UuidNode(UUID uuid) {
        this.uuid = uuid;
    }

    public static UuidNode of(UUID uuid) {
        return new UuidNode(uuid);
    }

    public static UuidNode of(byte[] sixteen) {
        if (sixteen.length != 16) {
            throw new IllegalArgumentException("a UUID has 16 bytes, not " + sixteen.length);
        }
        return new UuidNode(new UUID(KeyBytes.getLong(sixteen, 0), KeyBytes.getLong(sixteen, 8)));
    }

    public UUID uuid() {
        return uuid;
    }

    /** The 16 bytes, most significant first (BSON subtype 4's layout). */
    byte[] rawBytes() {
        byte[] b = new byte[16];
        KeyBytes.putLong(b, 0, uuid.getMostSignificantBits());
        KeyBytes.putLong(b, 8, uuid.getLeastSignificantBits());
        return b;
    }

    @Override
    public ValueType valueType() {
        return ValueType.UUID;
    }

    @Override
    public int typeRank() {
        return ValueOrder.RANK_BINARY;
    }

    @Override
    public JsonNode jsonView() {
        return TextNode.valueOf(uuid.toString());
    }

    @Override
    int compareSameRank(TypedNode other) {
        return BinaryDataNode.compareBinary(BinaryDataNode.SUBTYPE_UUID, rawBytes(), other);
    }

    @Override
    byte[] keyBody() {
        return BinaryDataNode.keyBody(BinaryDataNode.SUBTYPE_UUID, rawBytes());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UuidNode n && n.uuid.equals(uuid);
    }

    @Override
    public int hashCode() {
        return uuid.hashCode();
    }
}
