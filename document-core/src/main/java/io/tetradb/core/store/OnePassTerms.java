package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeTerms;
import io.tetradb.core.item.BinaryIndexTerms;
import io.tetradb.core.item.ItemTermRecorder;
import io.tetradb.core.value.IndexKeyEncoding;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Issue 17, write-cost: the index entries of a caller's tree from the one pass that encodes it. While the tree is
 * written as TB1 (outside the partition lock) an {@link ItemTermRecorder} notes where each indexed scalar's bytes
 * start; under the lock the entry keys are made from those bytes ({@link BinaryIndexTerms#encodeEntry}: strings
 * copied as UTF-8, no {@code IndexTerm}, no second walk). The keys and their order are what
 * {@code ContainerStore.indexEntries} gives for the tree and {@link BinaryIndexEntries} for the stored bytes
 * ({@code OnePassTermsPropertyTest}). Used only when the policy the terms were recorded under is still the item's
 * (no rebuild began meanwhile); otherwise the tree is walked as before. {@code -Dtetradb.write.onePass=false} turns it
 * off (A/B measurements).
 */
final class OnePassTerms {
    static final boolean ON = Boolean.parseBoolean(System.getProperty("tetradb.write.onePass", "true"));
    private static final List<String> TS = List.of("_ts");

    private OnePassTerms() {
    }

    /** A recorder for a write under {@code state}, or null: off, indexing off, or a rebuild running. */
    static ItemTermRecorder recorder(IndexingState state) {
        if (!ON || state.rebuilding() || !state.current().enabled()) {
            return null;
        }
        return new ItemTermRecorder(state.current());
    }

    /**
     * The entries of the version whose TB1 {@code body} was written with {@code recorded}, stored under
     * {@code docKey} with {@code _ts} = {@code versionTs}: {@code _ts}, the recorded terms in document order, then
     * one per composite index. Session 23 (index-write): the keys in one {@link IndexEntryKeys} (no {@code ByteBuffer}
     * or list per entry), the composites' values read from the body's bytes where {@link
     * BinaryIndexEntries#compositeValues} can (the same bytes as from the caller's {@code item}, which is read for the
     * others as before).
     */
    static List<ByteBuffer> entries(PathDictionary paths, byte[] docKey, int address, byte[] body,
                                    ItemTermRecorder recorded, long versionTs, ObjectNode item) {
        CompiledIndexingPolicy policy = recorded.policy();
        IndexEntryKeys out = new IndexEntryKeys(recorded.count() + 1 + policy.composites().size());
        if (policy.indexes(TS)) {
            out.addKey(IndexKeyEncoding.encodeLongEntry(paths.entryPrefix("/_ts"), versionTs, docKey, address));
        }
        addTermEntries(out, paths, docKey, address, body, recorded);
        if (!policy.composites().isEmpty()) {
            int off = io.tetradb.core.item.StoredItems.isFrame(body) ? io.tetradb.core.item.StoredItems.HEADER
                    : io.tetradb.core.item.StoredItems.isBinaryBody(body) ? 0 : -1;
            if (off < 0) {
                addTreeCompositeEntries(out, paths, docKey, address, item, versionTs, policy);
            } else {
                BinaryIndexEntries.addCompositeEntries(out, paths, docKey, address, body, off, versionTs, policy, item);
            }
        }
        return out;
    }

    /** One entry per composite index, from the tree {@code item} (its top-level fields the indexes read, at least). */
    static void addTreeCompositeEntries(IndexEntryKeys out, PathDictionary paths, byte[] docKey, int address,
                                        ObjectNode item, long versionTs, CompiledIndexingPolicy policy) {
        for (CompositeTerms.CompositeTerm t : CompositeTerms.ofVersion(item, policy, versionTs)) {
            out.addKey(compositeKey(paths.entryPrefix(t.index().name()), t.encoded(), docKey, address));
        }
    }

    /**
     * The entries of the recorded terms, in their order, keyed from the TB1 bytes they were recorded in (shared by
     * the one-pass writer and {@link BinaryIndexEntries}' walk over stored bytes).
     */
    static void addTermEntries(IndexEntryKeys out, PathDictionary paths, byte[] docKey, int address, byte[] body,
                               ItemTermRecorder terms) {
        for (int i = 0; i < terms.count(); i++) {
            String path = terms.path(i);
            if (terms.underArray(i)) {
                paths.markMultikey(path);
            }
            out.addKey(BinaryIndexTerms.encodeEntry(paths.entryPrefix(path), body, terms.offset(i), docKey, address));
        }
    }

    /** {@code prefix · values · docKey[address..]}, a composite entry's key, in one array (index-cost). */
    static byte[] compositeKey(byte[] prefix, byte[] values, byte[] docKey, int address) {
        byte[] out = new byte[prefix.length + values.length + docKey.length - address];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(values, 0, out, prefix.length, values.length);
        System.arraycopy(docKey, address, out, prefix.length + values.length, docKey.length - address);
        return out;
    }
}
