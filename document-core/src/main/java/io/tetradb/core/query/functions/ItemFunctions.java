package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Base64;

import static io.tetradb.core.query.functions.Args.UNDEFINED;
import static io.tetradb.core.query.functions.Args.integer;

/**
 * Item functions (Cosmos docs → "DocumentId"). {@code DocumentId(c)} returns the numeric document part of the item's
 * {@code _rid}: the last 8 of its 16 base64-decoded bytes, read little-endian as Cosmos does (so
 * {@code "36ZyAPW+uN8NAAAAAAAAAA=="} is 13). The {@code _rid} comes from the {@link FunctionContext} (the item being
 * evaluated) or, failing that, from the argument's own {@code _rid} property. TetraDB's rids end in a 64-bit hash,
 * so their document ids are arbitrary signed 64-bit integers, unique within a container.
 */
public final class ItemFunctions {
    private ItemFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        r.register("DocumentId", 1, 1, (a, c) -> {
            JsonNode item = a.get(0);
            if (!item.isObject()) {
                return UNDEFINED;
            }
            String rid = c.itemRid();
            if (rid == null && item.path("_rid").isTextual()) {
                rid = item.get("_rid").textValue();
            }
            Long id = documentId(rid);
            return id == null ? UNDEFINED : integer(id);
        });
    }

    /** The document part of a 16-byte item rid (TetraDB writes '-' for '/'); null when it is not one. */
    static Long documentId(String rid) {
        if (rid == null) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(rid.replace('-', '/'));
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (bytes.length < 16) {
            return null;
        }
        long id = 0;
        for (int i = 15; i >= 8; i--) {
            id = (id << 8) | (bytes[i] & 0xFF);
        }
        return id;
    }
}
