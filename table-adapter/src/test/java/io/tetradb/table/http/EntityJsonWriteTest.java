package io.tetradb.table.http;

import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.Entity;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Entities written straight to a generator come out byte for byte as the JSON tree writes them. */
class EntityJsonWriteTest {
    private static EdmValue randomValue(Random r) {
        return switch (r.nextInt(9)) {
            case 0 -> EdmValue.string("s\"\u00e9\ud83d\ude00<" + r.nextInt());
            case 1 -> EdmValue.int32(r.nextInt());
            case 2 -> EdmValue.int64(r.nextLong());
            case 3 -> EdmValue.dbl(r.nextGaussian() * 1e6);
            case 4 -> EdmValue.dbl(new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                    -0.0, 5.0, 1e300}[r.nextInt(6)]);
            case 5 -> EdmValue.bool(r.nextBoolean());
            case 6 -> EdmValue.dateTime(Instant.ofEpochSecond(r.nextInt(2_000_000_000), r.nextInt(10_000_000) * 100L));
            case 7 -> EdmValue.guid(new UUID(r.nextLong(), r.nextLong()));
            default -> {
                byte[] b = new byte[r.nextInt(8)];
                r.nextBytes(b);
                yield EdmValue.binary(b);
            }
        };
    }

    @Test
    void streamedEntitiesEqualTheTreeForEveryTypeLevelAndSelect() {
        Random r = new Random(11);
        String base = "http://127.0.0.1:10002/devstoreaccount1";
        for (int i = 0; i < 2000; i++) {
            Map<String, EdmValue> props = new LinkedHashMap<>();
            int n = r.nextInt(8);
            for (int k = 0; k < n; k++) {
                props.put("P" + r.nextInt(10), randomValue(r));
            }
            if (i % 50 == 0) {
                // names only other faces store: the tree's replacement rules apply
                props.put(r.nextBoolean() ? "odata.etag" : "P1@odata.type", EdmValue.string("x"));
            }
            Entity e = new Entity("p'k " + i, i % 7 == 0 ? "" : "r/ k" + i, Instant.ofEpochSecond(1_700_000_000L + i,
                    r.nextInt(10_000_000) * 100L), "W/\"" + i + "\"", props);
            MetadataLevel level = MetadataLevel.values()[r.nextInt(3)];
            Set<String> select = r.nextInt(3) == 0 ? Set.of("P1", "RowKey", "Timestamp", "P3") : null;
            boolean single = r.nextBoolean();
            byte[] tree = TableApi.bytes(EntityJson.write(e, level, select, base, "people", single));
            byte[] streamed = TableApi.written(g -> EntityJson.write(g, e, level, select, base, "people", single));
            assertArrayEquals(tree, streamed, () -> new String(tree) + "\n" + new String(streamed));
        }
        assertArrayEquals(new byte[] {'{', '}'}, Arrays.copyOf(TableApi.written(g -> {
            g.writeStartObject();
            g.writeEndObject();
        }), 2));
    }
}
