package io.tetradb.core.item;

import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.index.PathPattern;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Issue 17's one pass over a caller's tree: {@link BinaryItemWriter} reports every field, array and scalar it writes,
 * and this recorder keeps, for the scalars the policy indexes, their flat path, whether they were reached through an
 * array, and where their TB1 value starts in the written bytes. The entry keys are then made from those bytes
 * ({@link BinaryIndexTerms#encodeEntry}), so the item is not walked a second time for its terms. The paths, their
 * order and the keys are those of {@link BinaryIndexTerms#walk} over the written bytes (which
 * {@code BinaryIndexTermsPropertyTest} holds equal to the tree walk); {@code OnePassTermsPropertyTest} compares them.
 * One recorder per write; its arrays are the only allocation per term list, not one object per term.
 */
public final class ItemTermRecorder {
    /** Stored system properties never indexed from the item itself ({@code _ts} is added by the caller). */
    private static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");

    private final CompiledIndexingPolicy policy;
    /** The concrete segments of the value being written ({@code []} for array elements), as the policy reads them. */
    private final List<String> concrete = new ArrayList<>(8);
    /** Per open level: the flat path, and whether anything under it may be indexed (0: no, 1: yes). */
    private String[] flats = new String[8];
    private boolean[] live = new boolean[8];
    private int depth;
    private int arrays;
    /** The recorded terms: flat path, reached through an array, value offset in the written bytes. */
    private String[] paths = new String[32];
    private boolean[] underArray = new boolean[32];
    private int[] offsets = new int[32];
    private int count;

    public ItemTermRecorder(CompiledIndexingPolicy policy) {
        this.policy = policy;
        flats[0] = "";
        live[0] = policy.enabled();
    }

    /** The policy the terms were recorded under (the writer of the entries checks it is still the item's). */
    public CompiledIndexingPolicy policy() {
        return policy;
    }

    /** The writer enters the value of field {@code name}; {@code root}: a field of the item itself. */
    void enterField(String name, boolean root) {
        boolean parentLive = live[depth];
        push();
        if (!parentLive || root && SYSTEM.contains(name)) {
            live[depth] = false;
            concrete.add(name); // kept in step with the levels; never read while not live
            return;
        }
        concrete.add(name);
        boolean may = policy.mayIndexUnder(concrete);
        live[depth] = may;
        flats[depth] = may ? IndexTerms.childPath(flats[depth - 1], name) : null;
    }

    /** The writer enters an array's elements. */
    void enterArray() {
        boolean parentLive = live[depth];
        String flat = flats[depth];
        push();
        live[depth] = parentLive;
        flats[depth] = flat;
        concrete.add(PathPattern.ARRAY);
        arrays++;
    }

    void leaveArray() {
        arrays--;
        leave();
    }

    void leaveField() {
        leave();
    }

    /** The writer wrote a scalar whose TB1 value starts at {@code at}. */
    void scalar(int at) {
        if (!live[depth] || depth == 0 || !policy.indexes(concrete)) {
            return;
        }
        if (count == offsets.length) {
            int n = count * 2;
            paths = Arrays.copyOf(paths, n);
            underArray = Arrays.copyOf(underArray, n);
            offsets = Arrays.copyOf(offsets, n);
        }
        paths[count] = flats[depth];
        underArray[count] = arrays > 0;
        offsets[count] = at;
        count++;
    }

    private void push() {
        depth++;
        if (depth == live.length) {
            live = Arrays.copyOf(live, depth * 2);
            flats = Arrays.copyOf(flats, depth * 2);
        }
    }

    private void leave() {
        concrete.remove(concrete.size() - 1);
        depth--;
    }

    /** Moves the offsets of the terms recorded from {@code from} on by {@code delta} (their bytes were moved). */
    void shift(int from, int delta) {
        for (int i = from; i < count; i++) {
            offsets[i] += delta;
        }
    }

    public int count() {
        return count;
    }

    public String path(int i) {
        return paths[i];
    }

    public boolean underArray(int i) {
        return underArray[i];
    }

    /** Where term {@code i}'s TB1 value starts in the bytes the writer returned. */
    public int offset(int i) {
        return offsets[i];
    }
}
