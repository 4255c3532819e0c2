package io.tetradb.core.store;

import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.meta.MetadataStore;

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
 * <p>Through the metadata contract: a path is numbered by creating its entry if absent, and, when other servers
 * share the metadata, by claiming the number too ({@code 06 · collId · "#" · id}, created if absent in the same
 * write), so two servers never give one path two numbers or one number two paths; a lost race reads the numbers
 * again. A server that shares the metadata re-reads the dictionary when it misses a path another server may have
 * numbered, and treats every path as possibly multikey (another server may have marked it since it last read).
 */
final class PathDictionary {
    private final MetadataStore metadata;
    private final int collId;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    /** Entry key prefixes by path, so that writers build no prefix per entry (never changed once numbered). */
    private final Map<String, byte[]> prefixes = new ConcurrentHashMap<>();
    private final java.util.Set<String> multikey = ConcurrentHashMap.newKeySet();
    private static final String MULTIKEY_MARK = "!";
    private static final String CLAIM = "#";

    PathDictionary(MetadataStore metadata, int collId) {
        this.metadata = metadata;
        this.collId = collId;
        reload();
    }

    private void reload() {
        byte[] prefix = Keys.pathPrefix(collId);
        for (MetaEntry e : metadata.list(prefix)) {
            String path = new String(e.key(), prefix.length, e.key().length - prefix.length, StandardCharsets.UTF_8);
            if (path.startsWith(MULTIKEY_MARK)) {
                multikey.add(path.substring(MULTIKEY_MARK.length()));
            } else if (path.startsWith(CLAIM)) {
                // a number another server claimed: read from the key's bytes (the path it names may not be text
                // that survives UTF-8, e.g. a lone surrogate)
                maxClaimed = Math.max(maxClaimed, (int) Keys.readInt(e.key(), prefix.length + 1));
            } else {
                ids.put(path, (int) Keys.readInt(e.value(), 0));
            }
        }
    }

    /** The highest path number claimed in the store (shared metadata), known or not by its path. */
    private int maxClaimed;

    int id(String path) {
        Integer id = ids.get(path);
        if (id != null) {
            return id;
        }
        synchronized (this) {
            while (true) {
                id = ids.get(path);
                if (id != null) {
                    return id;
                }
                int next = Math.max(maxClaimed, ids.values().stream().mapToInt(Integer::intValue).max().orElse(0)) + 1;
                byte[] pathKey = Keys.concat(Keys.pathPrefix(collId), Keys.utf8(path));
                MetaWrite w = new MetaWrite().create(pathKey, Keys.collId(next));
                if (metadata.isShared()) {
                    w.create(Keys.concat(Keys.pathPrefix(collId), Keys.utf8(CLAIM), Keys.collId(next)),
                            Keys.utf8(path));
                }
                if (metadata.apply(w)) {
                    ids.put(path, next);
                    return next;
                }
                MetaEntry numbered = metadata.get(pathKey);
                if (numbered != null) { // the path's key is there (another server's, or a path whose UTF-8 form
                    // another path shares, which a reload cannot find by its text): use its number
                    int found = (int) Keys.readInt(numbered.value(), 0);
                    ids.put(path, found);
                    return found;
                }
                reload(); // another server took the number
            }
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
                metadata.apply(new MetaWrite().put(
                        Keys.concat(Keys.pathPrefix(collId), Keys.utf8(MULTIKEY_MARK + path)), new byte[0]));
                multikey.add(path);
            }
        }
    }

    /** True if some item ever had a value indexed under {@code path} through an array (shared metadata: maybe). */
    boolean isMultikey(String path) {
        return metadata.isShared() || multikey.contains(path);
    }

    /** The id of {@code path} if any item ever had it indexed, else null. */
    Integer find(String path) {
        Integer id = ids.get(path);
        if (id == null && metadata.isShared()) {
            synchronized (this) {
                reload();
            }
            id = ids.get(path);
        }
        return id;
    }

    /** The path numbered {@code id}, or null. */
    String path(int id) {
        for (int round = 0; round < 2; round++) {
            for (Map.Entry<String, Integer> e : ids.entrySet()) {
                if (e.getValue() == id) {
                    return e.getKey();
                }
            }
            if (!metadata.isShared()) {
                break;
            }
            synchronized (this) {
                reload();
            }
        }
        return null;
    }
}
