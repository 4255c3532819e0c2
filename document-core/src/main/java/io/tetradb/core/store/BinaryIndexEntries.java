package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.item.BinaryIndexTerms;
import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.ItemTermRecorder;
import io.tetradb.core.value.IndexKeyEncoding;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The index entry keys of a TB1 item computed from its bytes (issue 17's tree-free write): the same keys, in the same
 * order, as {@code ContainerStore.indexEntries} over the item's tree. Only composite indexes still decode the item
 * (their components are whole values at a few paths).
 */
final class BinaryIndexEntries {
    private static final List<String> TS = List.of("_ts");
    private static final byte[] NONE = new byte[0];
    /** An undefined component's encoding. */
    private static final byte[] UNDEFINED = IndexKeyEncoding.encode(MissingNode.getInstance());
    /** {@code -Dtetradb.write.treeTerms=true} computes terms from the tree as before (for A/B measurements). */
    static final boolean ON = !Boolean.getBoolean("tetradb.write.treeTerms");

    private BinaryIndexEntries() {
    }

    /**
     * The entries of the version whose TB1 object starts at {@code b[off]}, stored under {@code docKey}, with
     * {@code _ts} = {@code versionTs}; {@code address} is where the doc key's {@code EPK · pk · id} starts.
     */
    static List<ByteBuffer> of(PathDictionary paths, byte[] docKey, int address, byte[] b, int off, long versionTs,
                               CompiledIndexingPolicy policy) {
        if (!policy.enabled()) {
            return List.of();
        }
        ItemTermRecorder terms = BinaryIndexTerms.reusedTerms(b, off, policy); // consumed below, before any other call
        IndexEntryKeys out = new IndexEntryKeys(terms.count() + 1 + policy.composites().size()); // index-write
        if (policy.indexes(TS)) {
            out.addKey(IndexKeyEncoding.encodeLongEntry(paths.entryPrefix("/_ts"), versionTs, docKey, address));
        }
        OnePassTerms.addTermEntries(out, paths, docKey, address, b, terms); // graph-load5: keyed outside the walk
        if (!policy.composites().isEmpty()) {
            addCompositeEntries(out, paths, docKey, address, b, off, versionTs, policy, null);
        }
        return out;
    }

    /**
     * One entry per composite index, in the policy's order. Graph-jit (issue 18): keyed from the item's bytes when
     * every component is {@code _ts}, undefined or a common scalar at a top-level field (the graph's {@code
     * (/_isEdge, /label)} on every element); otherwise from a tree of the fields they name, as before — {@code tree}
     * when the caller has the item's tree (index-write: the one-pass writer), else one decoded from the bytes. The
     * tree path's node types change between a load's vertices (no {@code _isEdge}) and its edges, and deoptimised its
     * type-profiled encoder in each of a JVM's first loads.
     */
    static void addCompositeEntries(IndexEntryKeys out, PathDictionary paths, byte[] docKey, int address, byte[] b,
                                    int off, long versionTs, CompiledIndexingPolicy policy, ObjectNode tree) {
        List<CompositeIndex> composites = policy.composites();
        if (composites.size() == 1) { // the common case (the query benchmark's): no array of keys
            CompositeIndex index = composites.get(0);
            byte[] values = compositeValues(b, off, index, versionTs);
            if (values != null) {
                out.addKey(OnePassTerms.compositeKey(paths.entryPrefix(index.name()), values, docKey, address));
                return;
            }
        } else {
            byte[][] keys = new byte[composites.size()][];
            for (int i = 0; i < keys.length; i++) {
                CompositeIndex index = composites.get(i);
                byte[] values = compositeValues(b, off, index, versionTs);
                if (values == null) {
                    keys = null;
                    break;
                }
                keys[i] = OnePassTerms.compositeKey(paths.entryPrefix(index.name()), values, docKey, address);
            }
            if (keys != null) {
                for (byte[] key : keys) {
                    out.addKey(key);
                }
                return;
            }
        }
        ObjectNode item = tree != null ? tree : compositeFields(b, off, policy); // graph-load: not the whole item
        OnePassTerms.addTreeCompositeEntries(out, paths, docKey, address, item, versionTs, policy);
    }

    /**
     * {@code CompositeTerms.ofVersion}'s encoded values for {@code index} read from the TB1 object at {@code b[off]},
     * or null when a component is below the top level or not a common scalar (objects, arrays, rare types: the
     * caller decodes those).
     */
    static byte[] compositeValues(byte[] b, int off, CompositeIndex index, long versionTs) {
        byte[][] parts = new byte[index.size()][];
        int length = 0;
        for (int i = 0; i < parts.length; i++) {
            List<String> path = index.paths().get(i);
            byte[] part;
            if (path.get(0).equals("_ts")) { // the version's own timestamp; anything below a number is undefined
                part = path.size() == 1 ? IndexKeyEncoding.encodeLongEntry(NONE, versionTs, NONE, 0) : UNDEFINED;
            } else if (!index.readsItem(i)) {
                part = UNDEFINED;
            } else if (path.size() != 1) {
                return null;
            } else {
                int at = BinaryItemReader.find(b, off, path.get(0));
                if (at < 0) {
                    part = UNDEFINED;
                } else if (BinaryIndexTerms.commonScalar(b, at)) {
                    part = BinaryIndexTerms.encodeEntry(NONE, b, at, NONE, 0);
                } else {
                    return null;
                }
            }
            parts[i] = part;
            length += part.length;
        }
        byte[] values = new byte[length];
        int o = 0;
        for (int i = 0; i < parts.length; i++) {
            System.arraycopy(parts[i], 0, values, o, parts[i].length);
            if (index.descending(i)) {
                for (int j = o; j < o + parts[i].length; j++) {
                    values[j] = (byte) ~values[j];
                }
            }
            o += parts[i].length;
        }
        return values;
    }

    /**
     * graph-load (issue 18): the top-level fields the composite indexes' paths start in, decoded, and nothing else:
     * a composite component is the value at its path from the item's root, so it reads the same from this partial
     * object as from the whole item (decoding every item whole cost a tree per write).
     */
    private static ObjectNode compositeFields(byte[] b, int off, CompiledIndexingPolicy policy) {
        ObjectNode item = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (CompositeIndex index : policy.composites()) {
            for (List<String> path : index.paths()) {
                String top = path.get(0);
                if (!item.has(top)) {
                    int at = BinaryItemReader.find(b, off, top);
                    if (at >= 0) {
                        item.set(top, BinaryItemReader.read(b, at));
                    }
                }
            }
        }
        return item;
    }
}
