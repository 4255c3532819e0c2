package io.tetradb.core.item;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.IndexTerm;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.TypedValueGenerator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * What the index-term property tests share: random typed documents with long strings cut on every kind of unit,
 * arrays of objects and arrays and written-back system properties; and each way of computing an item's terms as one
 * comparable list ({@code path underArray hex(encoded value)}, {@code _ts} first when the policy indexes it).
 */
final class IndexTermSamples {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String[] NEAR_CUT = {"a", "\u0000", "\u00e9", "\u20ac", "\uD800", "\uDC00", "\uD83D\uDE00",
            "\uDBFF\uDFFF", "\uFFFF"};

    private IndexTermSamples() {
    }

    /** The policies of these JSON texts ({@code null}: the default policy). */
    static List<CompiledIndexingPolicy> policies(String... json) throws IOException {
        List<CompiledIndexingPolicy> policies = new ArrayList<>();
        for (String p : json) {
            policies.add(CompiledIndexingPolicy.of(p == null ? null : M.readTree(p)));
        }
        return policies;
    }

    /** A random typed document, sometimes with a {@code long} string, an {@code arr} array, {@code _ts} and {@code _rid}. */
    static ObjectNode document(TypedValueGenerator g, Random rnd) {
        ObjectNode doc = g.document();
        if (rnd.nextInt(3) == 0) {
            doc.put("long", longString(rnd));
        }
        if (rnd.nextInt(4) == 0) {
            ArrayNode arr = doc.putArray("arr");
            for (int k = rnd.nextInt(4); k > 0; k--) {
                ObjectNode e = arr.addObject();
                e.set("f5", rnd.nextBoolean() ? g.value(2) : JsonNodeFactory.instance.textNode(longString(rnd)));
                e.set("f6", g.value(2));
                arr.add(g.value(1));
            }
            arr.addArray().add(longString(rnd)).addArray().add(g.value(3));
        }
        if (rnd.nextInt(5) == 0) {
            doc.set("_ts", g.value(1)); // a written-back system property is never indexed from the item
            doc.put("_rid", "x");
        }
        return doc;
    }

    /** 250–262 units, the ones around the cut drawn from every kind of unit. */
    static String longString(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = 250 + rnd.nextInt(13);
        while (sb.length() < n) {
            sb.append(sb.length() < 240 && rnd.nextInt(8) != 0 ? "x" : NEAR_CUT[rnd.nextInt(NEAR_CUT.length)]);
        }
        return sb.toString();
    }

    /** The tree walk's terms: {@link IndexTerms#ofVersion} then {@link IndexKeyEncoding}. */
    static List<String> fromTree(ObjectNode doc, CompiledIndexingPolicy policy, long ts) {
        List<String> out = new ArrayList<>();
        for (IndexTerm t : IndexTerms.ofVersion(doc, policy, ts)) {
            out.add(t.path() + " " + t.underArray() + " " + HexFormat.of().formatHex(IndexKeyEncoding.encode(t.value())));
        }
        return out;
    }

    /** The terms of the walk over the written bytes ({@link BinaryIndexTerms}). */
    static List<String> fromBytes(byte[] b, CompiledIndexingPolicy policy, long ts) {
        return recorded(b, BinaryIndexTerms.terms(b, 0, policy), policy, ts);
    }

    /** The terms {@code r} recorded over the item {@code b}. */
    static List<String> recorded(byte[] b, ItemTermRecorder r, CompiledIndexingPolicy policy, long ts) {
        List<String> out = new ArrayList<>();
        if (policy.indexes(List.of("_ts"))) {
            out.add("/_ts false " + HexFormat.of().formatHex(IndexKeyEncoding.encode(LongNode.valueOf(ts))));
        }
        for (int i = 0; i < r.count(); i++) {
            out.add(r.path(i) + " " + r.underArray(i) + " " + HexFormat.of().formatHex(
                    BinaryIndexTerms.encodeEntry(new byte[0], b, r.offset(i), new byte[0], 0)));
        }
        return out;
    }
}
