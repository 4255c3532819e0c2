package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.mongo.bson.DocumentMapper;
import org.bson.BsonDocument;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The core indexing policy of a collection, from its Mongo indexes. As in MongoDB (and Cosmos DB's API for MongoDB
 * since 3.6), only {@code _id} and the fields of the collection's own indexes are indexed, so a write costs index
 * entries for what the user asked to index, not for every path of the document; a filter on any other field scans.
 * A field {@code a.b.c} is included as {@code /a/b/c/*} and with every array step between its segments
 * ({@code /a/[]/b/c/*}, ...), which is what MongoDB's multikey flattening of the dotted path reaches; a wildcard
 * index ({@code $**}) or a name a policy path cannot spell includes everything. System collections index everything
 * (they are small and queried by several fields). Nor does the core index its own {@code id} and {@code _ts} here
 * ({@code systemPathsIndexed: false}, document-core's {@code CompiledIndexingPolicy.SYSTEM_PATHS}): no Mongo query
 * reads them ({@code _id} equalities, {@code $in} and prefixes are item key reads, ranges seek {@code /_id}), and they
 * were two of an insert's four index keys.
 */
public final class IndexPolicies {
    /** Beyond this many segments a dotted field is included from its first segment down (2^(n-1) patterns). */
    private static final int MAX_SPELLED_SEGMENTS = 4;

    private IndexPolicies() {
    }

    /** Every path indexed: Cosmos DB's default, for system collections and wildcard indexes. */
    public static ObjectNode everything() {
        ObjectNode p = JsonNodeFactory.instance.objectNode();
        p.put("indexingMode", "consistent").put("automatic", true);
        p.putArray("includedPaths").addObject().put("path", "/*");
        p.putArray("excludedPaths").addObject().put("path", "/\"_etag\"/?");
        return p;
    }

    /** {@code _id} and the key fields of {@code specs} (index specs as listIndexes gives them). */
    public static ObjectNode of(List<BsonDocument> specs) {
        Set<String> included = new LinkedHashSet<>(patterns("_id"));
        for (BsonDocument spec : specs) {
            BsonDocument key = spec.getDocument("key", new BsonDocument());
            for (String field : key.keySet()) {
                List<String> p = patterns(field);
                if (p == null) {
                    return everything();
                }
                included.addAll(p);
            }
        }
        ObjectNode policy = JsonNodeFactory.instance.objectNode();
        policy.put("indexingMode", "consistent").put("automatic", true);
        ArrayNode in = policy.putArray("includedPaths");
        included.forEach(path -> in.addObject().put("path", path));
        policy.putArray("excludedPaths").addObject().put("path", "/*");
        policy.put(io.tetradb.core.index.CompiledIndexingPolicy.SYSTEM_PATHS, false);
        return policy;
    }

    /** The policy paths that cover a dotted field, or null when only "everything" does. */
    static List<String> patterns(String field) {
        if (field.equals("$**") || field.endsWith(".$**")) {
            return null;
        }
        String[] segs = field.split("\\.", -1);
        for (String s : segs) {
            if (s.isEmpty() || s.indexOf('"') >= 0 || s.startsWith("$")) {
                return null;
            }
        }
        segs[0] = DocumentMapper.storedName(segs[0]);
        int spelled = Math.min(segs.length, MAX_SPELLED_SEGMENTS);
        Set<String> out = new LinkedHashSet<>();
        for (int mask = 0; mask < 1 << (spelled - 1); mask++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < spelled; i++) {
                sb.append("/\"").append(segs[i]).append('"');
                if (i < spelled - 1 && (mask & 1 << i) != 0) {
                    sb.append("/[]");
                }
            }
            out.add(sb.append("/*").toString());
        }
        return List.copyOf(out);
    }
}
