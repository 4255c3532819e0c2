package io.tetradb.bench.itemformat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.core.Items;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.UuidNode;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Stream;

/** The item sets measured: the core benchmark's 1 KiB items, the seed items of examples/, Mongo-style typed items. */
final class ItemSets {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ItemSets() {
    }

    /** The core benchmark's items as stored (with the system properties the core appends). */
    static List<ObjectNode> core1k(int n) {
        Items items = new Items(1, 1000);
        List<ObjectNode> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(withSystemProperties(items.item(Items.id("item", i), i % 1000, i), i));
        }
        return out;
    }

    /** Every item of the seed scenarios in examples/*.jsonl. */
    static List<ObjectNode> examples(Path dir) throws IOException {
        List<ObjectNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (!line.isBlank()) {
                        out.add(withSystemProperties((ObjectNode) MAPPER.readTree(line), out.size()));
                    }
                }
            }
        }
        return out;
    }

    /** Orders as the Mongo face would store them: ObjectIds, dates, Decimal128 money, Int32/Int64, a UUID, sub-documents. */
    static List<ObjectNode> mongoTyped(int n) {
        SplittableRandom r = new SplittableRandom(17);
        List<ObjectNode> out = new ArrayList<>(n);
        String[] status = {"new", "paid", "shipped", "returned"};
        for (int i = 0; i < n; i++) {
            ObjectNode d = MAPPER.createObjectNode();
            d.set("_id", ObjectIdNode.of(oid(r)));
            d.put("orderNo", i);
            d.put("customerId", 1_000_000_000_000L + r.nextInt(100_000));
            d.set("createdAt", DateTimeNode.ofEpochMillis(1_700_000_000_000L + r.nextInt(1_000_000_000)));
            d.set("updatedAt", DateTimeNode.ofEpochMillis(1_760_000_000_000L + r.nextInt(1_000_000_000)));
            d.put("status", status[r.nextInt(status.length)]);
            d.set("total", Decimal128Node.of(BigDecimal.valueOf(r.nextInt(1_000_000), 2)));
            d.put("discount", r.nextInt(30) / 100.0);
            d.set("session", UuidNode.of(new UUID(r.nextLong(), r.nextLong())));
            ObjectNode ship = d.putObject("shipping");
            ship.put("name", "Customer " + r.nextInt(100_000));
            ship.put("street", r.nextInt(999) + " Main Street");
            ship.put("city", "City-" + r.nextInt(300));
            ship.put("zip", String.format("%05d", r.nextInt(100_000)));
            ship.put("country", "NL");
            var lines = d.putArray("lines");
            int k = 1 + r.nextInt(4);
            for (int j = 0; j < k; j++) {
                ObjectNode line = lines.addObject();
                line.set("sku", ObjectIdNode.of(oid(r)));
                line.put("qty", 1 + r.nextInt(5));
                line.set("price", Decimal128Node.of(BigDecimal.valueOf(r.nextInt(100_000), 2)));
            }
            d.putArray("tags").add("t" + r.nextInt(20)).add("t" + r.nextInt(20));
            byte[] sig = new byte[32];
            for (int j = 0; j < sig.length; j++) {
                sig[j] = (byte) r.nextInt(256);
            }
            d.set("signature", BinaryDataNode.of(0, sig));
            out.add(d);
        }
        return out;
    }

    private static byte[] oid(SplittableRandom r) {
        byte[] b = new byte[12];
        for (int i = 0; i < 12; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        return b;
    }

    private static ObjectNode withSystemProperties(ObjectNode item, long n) {
        String rid = "AAAAAQAAAAF" + String.format("%08d", n) + "AAA==";
        item.put("_rid", rid);
        item.put("_self", "dbs/AAAAAQ==/colls/AAAAAQAAAAE=/docs/" + rid + "/");
        item.put("_etag", String.format("\"%08x-0000-0000-0000-%012x\"", 1, n));
        item.put("_attachments", "attachments/");
        item.put("_ts", 1_763_000_000L);
        return item;
    }

    /** The middle top-level field of an item (the field-access probe). */
    static String middleField(ObjectNode item) {
        List<String> names = new ArrayList<>();
        item.fieldNames().forEachRemaining(names::add);
        return names.get(names.size() / 2);
    }

    /** {@code {outer, inner}}: the first object-valued field and its last field, or null. */
    static String[] nestedPath(ObjectNode item) {
        for (var it = item.fields(); it.hasNext(); ) {
            var f = it.next();
            JsonNode v = f.getValue();
            if (v.isObject() && v.size() > 0) {
                List<String> names = new ArrayList<>();
                v.fieldNames().forEachRemaining(names::add);
                return new String[]{f.getKey(), names.get(names.size() - 1)};
            }
        }
        return null;
    }
}
