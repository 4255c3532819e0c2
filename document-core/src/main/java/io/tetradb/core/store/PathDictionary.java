package io.tetradb.core.store;

import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Numbers the indexed paths of one container, so that an index key carries 4 bytes instead of the path. A new path
 * is made durable in its own write before any index entry uses it; new paths are rare, lookups are a map read.
 * <p>It also remembers which paths are <em>multikey</em>: ever indexed with a value reached through an array (so one
 * item may have several entries under the path). The mark is stored (key {@code 06 · collId · "!" · path}; paths
 * themselves start with {@code /}) before the first such entry is written and never cleared, so a path without the
 * mark has had at most one entry per item in every version ever written — what lets the planner seek both bounds of
 * a face's multikey range hints at once.
 */
final class PathDictionary {
    private final StorageEngine engine;
    private final int collId;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    /** Entry key prefixes by path, so that writers build no prefix per entry (never changed once numbered). */
    private final Map<String, byte[]> prefixes = new ConcurrentHashMap<>();
    private final java.util.Set<String> multikey = ConcurrentHashMap.newKeySet();
    private static final String MULTIKEY_MARK = "!";

    PathDictionary(StorageEngine engine, int collId) {
        this.engine = engine;
        this.collId = collId;
        byte[] prefix = Keys.pathPrefix(collId);
        engine.scan(Space.META, prefix, Keys.prefixEnd(prefix), kv -> {
            String path = new String(kv.key(), prefix.length, kv.key().length - prefix.length, StandardCharsets.UTF_8);
            if (path.startsWith(MULTIKEY_MARK)) {
                multikey.add(path.substring(MULTIKEY_MARK.length()));
            } else {
                ids.put(path, (int) Keys.readInt(kv.value(), 0));
            }
            return true;
        });
    }

    int id(String path) {
        Integer id = ids.get(path);
        if (id != null) {
            return id;
        }
        synchronized (this) {
            id = ids.get(path);
            if (id == null) {
                id = ids.size() + 1;
                engine.apply(new WriteSet().put(Space.META, Keys.concat(Keys.pathPrefix(collId), Keys.utf8(path)),
                        Keys.collId(id)));
                ids.put(path, id);
            }
            return id;
        }
    }

    /** {@code collId · id(path)}, the key prefix of the path's index entries; numbered on first use like {@link #id}. */
    byte[] entryPrefix(String path) {
        byte[] prefix = prefixes.get(path);
        if (prefix == null) {
            prefix = Keys.concat(Keys.collId(collId), Keys.collId(id(path)));
            prefixes.put(path, prefix);
        }
        return prefix;
    }

    /** Marks {@code path} multikey (durably, once) before an entry reached through an array is written under it. */
    void markMultikey(String path) {
        if (multikey.contains(path)) {
            return;
        }
        synchronized (this) {
            if (!multikey.contains(path)) {
                engine.apply(new WriteSet().put(Space.META,
                        Keys.concat(Keys.pathPrefix(collId), Keys.utf8(MULTIKEY_MARK + path)), new byte[0]));
                multikey.add(path);
            }
        }
    }

    /** True if some item ever had a value indexed under {@code path} through an array. */
    boolean isMultikey(String path) {
        return multikey.contains(path);
    }

    /** The id of {@code path} if any item ever had it indexed, else null. */
    Integer find(String path) {
        return ids.get(path);
    }

    /** The path numbered {@code id}, or null. */
    String path(int id) {
        for (Map.Entry<String, Integer> e : ids.entrySet()) {
            if (e.getValue() == id) {
                return e.getKey();
            }
        }
        return null;
    }
}
