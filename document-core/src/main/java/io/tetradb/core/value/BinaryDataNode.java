package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.Arrays;
import java.util.Base64;

/**
 * Binary data with a subtype (BSON's: 0 generic, 4 UUID, 0x80.. user defined; Edm.Binary is subtype 0). Ordered as
 * MongoDB orders BinData: by length, then subtype, then bytes. A {@link UuidNode} is binary subtype 4 of 16 bytes
 * and orders (and encodes in index keys) the same as that binary. JSON view: standard base64 of the bytes.
 */
public final class BinaryDataNode extends TypedNode {
    private static final long serialVersionUID = 1L;
    public static final int SUBTYPE_GENERIC = 0;
    public static final int SUBTYPE_UUID = 4;

    private final int subtype;
    private final byte[] bytes;

    private BinaryDataNode(int subtype, byte[] bytes) {
        if (subtype < 0 || subtype > 255) {
            throw new IllegalArgumentException("binary subtype out of range: " + subtype);
        }
        this.subtype = subtype;
        this.bytes = bytes;
    }

    public static BinaryDataNode of(int subtype, byte[] bytes) {
        return new BinaryDataNode(subtype, bytes.clone());
    }

    static BinaryDataNode wrap(int subtype, byte[] bytes) {
        return new BinaryDataNode(subtype, bytes);
    }

    public int subtype() {
        return subtype;
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    byte[] rawBytes() {
        return bytes;
    }

    public int length() {
        return bytes.length;
    }

    @Override
    public ValueType valueType() {
        return ValueType.BINARY;
    }

    @Override
    public int typeRank() {
        return ValueOrder.RANK_BINARY;
    }

    @Override
    public JsonNode jsonView() {
        return TextNode.valueOf(Base64.getEncoder().encodeToString(bytes));
    }

    @Override
    int compareSameRank(TypedNode other) {
        return compareBinary(subtype, bytes, other);
    }

    /** BinData order of {@code (subtype, bytes)} against a binary or UUID node. */
    static int compareBinary(int subtype, byte[] bytes, TypedNode other) {
        int os;
        byte[] ob;
        if (other instanceof BinaryDataNode b) {
            os = b.subtype;
            ob = b.bytes;
        } else {
            os = SUBTYPE_UUID;
            ob = ((UuidNode) other).rawBytes();
        }
        if (bytes.length != ob.length) {
            return bytes.length < ob.length ? -1 : 1;
        }
        if (subtype != os) {
            return subtype < os ? -1 : 1;
        }
        return compareUnsigned(bytes, ob);
    }

    /** length(4) · subtype(1) · bytes: fixed-size prefix, so self-delimiting and in BinData order. */
    static byte[] keyBody(int subtype, byte[] bytes) {
        byte[] k = new byte[5 + bytes.length];
        KeyBytes.putInt(k, 0, bytes.length);
        k[4] = (byte) subtype;
        System.arraycopy(bytes, 0, k, 5, bytes.length);
        return k;
    }

    @Override
    byte[] keyBody() {
        return keyBody(subtype, bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BinaryDataNode n && n.subtype == subtype && Arrays.equals(n.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes) * 31 + subtype;
    }
}
