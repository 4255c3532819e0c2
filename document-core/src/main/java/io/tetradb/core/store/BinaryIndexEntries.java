package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeTerms;
import io.tetradb.core.item.BinaryIndexTerms;
import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.ItemTermRecorder;
import io.tetradb.core.value.IndexKeyEncoding;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The index entry keys of a TB1 item computed from its bytes (issue 17's tree-free write): the same keys, in the same
 * order, as {@code ContainerStore.indexEntries} over the item's tree. Only composite indexes still decode the item
 * (their components are whole values at a few paths).
 */
final class BinaryIndexEntries {
    private static final List<String> TS = List.of("_ts");
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
        ItemTermRecorder terms = BinaryIndexTerms.terms(b, off, policy);
        List<ByteBuffer> out = new ArrayList<>(terms.count() + 1 + policy.composites().size());
        if (policy.indexes(TS)) {
            out.add(ByteBuffer.wrap(IndexKeyEncoding.encodeLongEntry(paths.entryPrefix("/_ts"), versionTs,
                    docKey, address)));
        }
        OnePassTerms.addTermEntries(out, paths, docKey, address, b, terms); // graph-load5: keyed outside the walk
        if (!policy.composites().isEmpty()) {
            ObjectNode item = compositeFields(b, off, policy); // graph-load: not the whole item
            for (CompositeTerms.CompositeTerm t : CompositeTerms.ofVersion(item, policy, versionTs)) {
                byte[] prefix = paths.entryPrefix(t.index().name());
                out.add(ByteBuffer.wrap(OnePassTerms.compositeKey(prefix, t.encoded(), docKey, address)));
            }
        }
        return out;
    }

    /**
     * graph-load (issue 18): the top-level fields the composite indexes' paths start in, decoded, and nothing else:
     * a composite component is the value at its path from the item's root, so it reads the same from this partial
     * object as from the whole item (decoding every item whole cost a tree per write).
     */
    private static ObjectNode compositeFields(byte[] b, int off, CompiledIndexingPolicy policy) {
        ObjectNode item = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (io.tetradb.core.index.CompositeIndex index : policy.composites()) {
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
