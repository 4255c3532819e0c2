package io.tetradb.core.item;

import io.tetradb.core.index.CompiledIndexingPolicy;

import java.util.Arrays;
import java.util.Set;

/**
 * Issue 17's one pass over a caller's tree: {@link BinaryItemWriter} reports every field, array and scalar it writes,
 * and this recorder keeps, for the scalars the policy indexes, their flat path, whether they were reached through an
 * array, and where their TB1 value starts in the written bytes. The entry keys are then made from those bytes
 * ({@link BinaryIndexTerms#encodeEntry}), so the item is not walked a second time for its terms. The paths, their
 * order and the keys are those of {@link BinaryIndexTerms#terms} over the written bytes (which
 * {@code BinaryIndexTermsPropertyTest} holds equal to the tree walk); {@code OnePassTermsPropertyTest} compares them.
 * One recorder per write; its arrays are the only allocation per term list, not one object per term. Graph-load5:
 * {@link BinaryIndexTerms#terms} records a stored item's terms in one too ({@link #term}), walking its bytes.
 */
public final class ItemTermRecorder {
    /** Stored system properties never indexed from the item itself ({@code _ts} is added by the caller). */
    private static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");

    private CompiledIndexingPolicy policy;
    /** Per open level, the policy's node of its path, or null where nothing below can be indexed. */
    private IndexPathTrie.Node[] nodes = new IndexPathTrie.Node[8];
    private int depth;
    private int arrays;
    /**
     * The recorded terms: flat path, and the value's offset in the written bytes with {@link #UNDER_ARRAY} set when it
     * was reached through an array (index-write, session 23: one array less per write).
     */
    private String[] paths = new String[32];
    private int[] offsets = new int[32];
    private static final int UNDER_ARRAY = 0x8000_0000;
    private int count;

    public ItemTermRecorder(CompiledIndexingPolicy policy) {
        this.policy = policy;
        nodes[0] = policy.enabled() ? IndexPathTrie.root(policy) : null;
    }

    /**
     * graph-warm (issue 18): this recorder emptied for another item under {@code policy}, its arrays kept. For a
     * recorder one thread reuses where the terms are consumed before its next item ({@link BinaryIndexTerms#reusedTerms}):
     * a bulk load made five arrays (≈ 0.4 KB) per element for it.
     */
    void reset(CompiledIndexingPolicy policy) {
        this.policy = policy;
        Arrays.fill(nodes, 1, depth + 1, null);
        nodes[0] = policy.enabled() ? IndexPathTrie.root(policy) : null;
        Arrays.fill(paths, 0, count, null);
        depth = 0;
        arrays = 0;
        count = 0;
    }

    /** The policy the terms were recorded under (the writer of the entries checks it is still the item's). */
    public CompiledIndexingPolicy policy() {
        return policy;
    }

    /** The writer enters the value of field {@code name}; {@code root}: a field of the item itself. */
    void enterField(String name, boolean root) {
        IndexPathTrie.Node parent = nodes[depth];
        IndexPathTrie.Node n = parent == null || root && SYSTEM.contains(name) ? null : parent.field(name);
        push(n != null && n.may ? n : null);
    }

    /** The writer enters an array's elements. */
    void enterArray() {
        IndexPathTrie.Node parent = nodes[depth];
        push(parent == null ? null : parent.elements());
        arrays++;
    }

    void leaveArray() {
        arrays--;
        depth--;
    }

    void leaveField() {
        depth--;
    }

    /** The writer wrote a scalar whose TB1 value starts at {@code at}. */
    void scalar(int at) {
        IndexPathTrie.Node n = nodes[depth];
        if (n == null || !n.indexes) {
            return;
        }
        term(n.flat, arrays > 0, at);
    }

    /** Records an indexed scalar: its flat path, whether it was reached through an array, where its value starts. */
    void term(String flat, boolean throughArray, int at) {
        if (count == offsets.length) {
            int size = count * 2;
            paths = Arrays.copyOf(paths, size);
            offsets = Arrays.copyOf(offsets, size);
        }
        paths[count] = flat;
        offsets[count] = throughArray ? at | UNDER_ARRAY : at;
        count++;
    }

    private void push(IndexPathTrie.Node n) {
        depth++;
        if (depth == nodes.length) {
            nodes = Arrays.copyOf(nodes, depth * 2);
        }
        nodes[depth] = n;
    }

    /** Moves the offsets of the terms recorded from {@code from} on by {@code delta} (their bytes were moved). */
    void shift(int from, int delta) {
        for (int i = from; i < count; i++) {
            offsets[i] += delta; // the flag bit stays: an offset and its move stay below 2^31
        }
    }

    public int count() {
        return count;
    }

    public String path(int i) {
        return paths[i];
    }

    public boolean underArray(int i) {
        return offsets[i] < 0;
    }

    /** Where term {@code i}'s TB1 value starts in the bytes the writer returned. */
    public int offset(int i) {
        return offsets[i] & ~UNDER_ARRAY;
    }
}
