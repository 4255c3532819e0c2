package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a container's server-side scripts: META {@code 08 · collId · kind · id} → the script's JSON
 * resource ({@code id}, {@code body}, {@code _rid}, {@code _etag}, {@code _ts}, and for triggers {@code triggerType}
 * and {@code triggerOperation}). Deleting the container deletes the range; the rules (limits, etags) live in
 * {@code io.tetradb.core.script.ContainerScripts}.
 */
public final class ScriptDefinitions {
    /** The three kinds of script, with the byte that separates them in the key. */
    public enum Kind {
        STORED_PROCEDURE(1, "sprocs"), TRIGGER(2, "triggers"), USER_DEFINED_FUNCTION(3, "udfs");

        final byte tag;
        private final String path;

        Kind(int tag, String path) {
            this.tag = (byte) tag;
            this.path = path;
        }

        /** The resource path segment Cosmos DB uses for the kind (sprocs, triggers, udfs). */
        public String path() {
            return path;
        }
    }

    private final ContainerStore container;

    ScriptDefinitions(ContainerStore container) {
        this.container = container;
    }

    private byte[] prefix(Kind kind) {
        return Keys.concat(Keys.scriptPrefix(container.collId()), new byte[]{kind.tag});
    }

    private byte[] key(Kind kind, String id) {
        return Keys.concat(prefix(kind), Keys.utf8(id));
    }

    /** The stored script, or null. */
    public ObjectNode get(Kind kind, String id) {
        io.tetradb.core.storage.meta.MetaEntry e = container.core().metadata().get(key(kind, id));
        return e == null ? null : parse(e.value());
    }

    /** Every stored script of a kind, in id order. */
    public List<ObjectNode> list(Kind kind) {
        List<ObjectNode> out = new ArrayList<>();
        byte[] p = prefix(kind);
        for (io.tetradb.core.storage.meta.MetaEntry e : container.core().metadata().list(p)) {
            out.add(parse(e.value()));
        }
        return out;
    }

    /** Writes (creates or replaces) a script, durably. */
    public void put(Kind kind, String id, ObjectNode resource) {
        try {
            byte[] v = container.codec().mapper().writeValueAsBytes(resource);
            container.core().applyMeta(new WriteSet().put(Space.META, key(kind, id), v), false);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public void delete(Kind kind, String id) {
        container.core().applyMeta(new WriteSet().delete(Space.META, key(kind, id)), false);
    }

    private ObjectNode parse(byte[] v) {
        try {
            return (ObjectNode) container.codec().mapper().readTree(v);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored script is unreadable", e);
        }
    }
}
