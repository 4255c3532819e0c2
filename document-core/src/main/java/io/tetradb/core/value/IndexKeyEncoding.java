package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;

/** PROVISIONAL placeholder (branch issue3-index), replaced by the order-preserving encoding at merge. */
public final class IndexKeyEncoding {
    private IndexKeyEncoding() {
    }

    public static byte[] encode(JsonNode value) {
        byte[] text = value.toString().getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[text.length + 2];
        out[0] = (byte) value.getNodeType().ordinal();
        System.arraycopy(text, 0, out, 1, text.length);
        return out;
    }
}
