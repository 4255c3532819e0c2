package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.index.CompositeTerms;
import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A composite entry's values read from a TB1 item's bytes ({@link BinaryIndexEntries#compositeValues}) equal, byte
 * for byte, what {@link CompositeTerms#ofVersion} encodes from the decoded item (what the load path computed before
 * and {@code checkIndexes} recomputes): random typed values (every type of the model, long strings cut at 256 units)
 * or none at top-level fields, ascending and descending components, {@code _ts}, never-indexed system names; and the
 * bytes decline (null) exactly where a component is nested or not a common scalar.
 */
class CompositeValuesFromBytesPropertyTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String COMPOSITES = "[[{\"path\":\"/a\"},{\"path\":\"/b\",\"order\":\"descending\"}],"
            + "[{\"path\":\"/_isEdge\"},{\"path\":\"/label\"}],"
            + "[{\"path\":\"/_ts\",\"order\":\"descending\"},{\"path\":\"/a\"},{\"path\":\"/_rid\"}],"
            + "[{\"path\":\"/b\",\"order\":\"descending\"},{\"path\":\"/_ts/x\"}],"
            + "[{\"path\":\"/a\"},{\"path\":\"/c/d\"}]]";

    @Test
    void compositeValuesFromBytesEqualTheDecodedItems() throws Exception {
        CompiledIndexingPolicy policy = CompiledIndexingPolicy.of(M.readTree("{\"indexingMode\":\"consistent\","
                + "\"includedPaths\":[{\"path\":\"/*\"}],\"compositeIndexes\":" + COMPOSITES + "}"));
        List<CompositeIndex> composites = policy.composites();
        long seed = Long.getLong("value.seed", 0x18C0L);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        int[] fromBytes = new int[composites.size()];
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = g.document();
            for (String field : new String[]{"a", "b", "label", "_rid", "c"}) {
                int k = rnd.nextInt(4);
                if (k == 1) {
                    doc.set(field, g.value(1));
                } else if (k == 2) {
                    doc.put(field, longString(rnd, g));
                } else if (k == 3) {
                    doc.putObject(field).set("d", g.value(2));
                }
            }
            if (rnd.nextBoolean()) {
                doc.set("_isEdge", BooleanNode.TRUE);
            }
            byte[] b = writer.write(doc);
            long ts = rnd.nextInt(2_000_000_000);
            List<CompositeTerms.CompositeTerm> expected = CompositeTerms.ofVersion(BinaryItemReader.readObject(b, 0),
                    policy, ts);
            for (int c = 0; c < composites.size(); c++) {
                byte[] values = BinaryIndexEntries.compositeValues(b, 0, composites.get(c), ts);
                try {
                    if (values != null) {
                        fromBytes[c]++;
                        assertEquals(HexFormat.of().formatHex(expected.get(c).encoded()),
                                HexFormat.of().formatHex(values));
                    } else {
                        assertTrue(declines(composites.get(c), b), "declined without a nested or uncommon value");
                    }
                } catch (AssertionError | RuntimeException e) {
                    fail("seed " + seed + ", document " + i + ", " + composites.get(c).name() + ": " + doc + ": " + e, e);
                }
            }
        }
        // the common shapes are read from the bytes: (/_isEdge, /label) always but for an object label
        assertTrue(fromBytes[1] > 12_000, "bytes path taken " + fromBytes[1] + " times for (/_isEdge, /label)");
        assertTrue(fromBytes[0] > 5_000 && fromBytes[2] > 10_000 && fromBytes[3] > 10_000,
                java.util.Arrays.toString(fromBytes));
        assertEquals(0, fromBytes[4], "a nested component is decoded");
    }

    /** Whether a composite must be decoded: a nested component, or a top-level value that is no common scalar. */
    private static boolean declines(CompositeIndex index, byte[] b) {
        for (int i = 0; i < index.size(); i++) {
            List<String> path = index.paths().get(i);
            if (path.get(0).equals("_ts") || !index.readsItem(i)) {
                continue;
            }
            if (path.size() > 1) {
                return true;
            }
            int at = BinaryItemReader.find(b, 0, path.get(0));
            if (at >= 0 && !io.tetradb.core.item.BinaryIndexTerms.commonScalar(b, at)) {
                return true;
            }
        }
        return false;
    }

    /** A string of 250–262 units with some non-ASCII ones, so the 256-unit cut applies. */
    private static String longString(Random rnd, TypedValueGenerator g) {
        StringBuilder sb = new StringBuilder();
        int n = 250 + rnd.nextInt(13);
        while (sb.length() < n) {
            sb.append(rnd.nextInt(8) != 0 ? "x" : rnd.nextBoolean() ? "\u00e9\u0000" : "\uD83D\uDE00");
        }
        return sb.toString();
    }
}
