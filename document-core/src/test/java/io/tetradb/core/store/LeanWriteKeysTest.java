package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.partition.PartitionKeyDefinition;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.tetradb.core.store.CreateCheckTest.pk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * pw-lean (issue 17): a write builds its item key once and derives the rest from it — the key of an id in one array
 * ({@link Keys#concatUtf8}) and the item's {@code _rid} from the key's id bytes. Both must give exactly what the
 * separate encodings gave, for every id a container accepts.
 */
class LeanWriteKeysTest {
    private static final ObjectMapper M = new ObjectMapper();
    /** ASCII, the 0x7F/0x80 edge, Latin-1, CJK, a surrogate pair (4 UTF-8 bytes), an unpaired surrogate, empty. */
    private static final List<String> IDS = List.of("w000000001", "a\u007F", "\u0080", "caf\u00e9", "\u65e5\u672c",
            "x\uD83D\uDE00y", "lone\uD800", "");

    @TempDir
    Path dir;

    @Test
    void anIdsKeyInOneArrayIsThePrefixAndItsUtf8() {
        byte[] prefix = {0, 0, 0, 7, 1, 2, 3};
        for (String id : IDS) {
            assertArrayEquals(Keys.concat(prefix, Keys.utf8(id)), Keys.concatUtf8(prefix, id), id);
        }
        assertArrayEquals(Keys.concat(new byte[0], Keys.utf8("caf\u00e9")), Keys.concatUtf8(new byte[0], "caf\u00e9"));
    }

    /** The rid is the container's prefix and the hash of {@code collId · id}: equal for one id in any partition. */
    @Test
    void anItemsRidIsTheHashOfItsContainerAndIdWhateverItsPartition() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
            byte[] collId = Keys.collId(c.definition().collId());
            Set<String> rids = new HashSet<>();
            for (String id : IDS.subList(0, IDS.size() - 2)) { // the ids a container accepts
                byte[] first = null;
                for (String p : List.of("P", "a much longer partition key value \u00fc")) {
                    ObjectNode item = M.createObjectNode().put("id", id).put("pk", p);
                    assertEquals(Status.CREATED, c.execute(pk(p), ItemOperation.create(item)).status(), id);
                    byte[] stored = c.execute(pk(p), ItemOperation.read(id, null)).stored();
                    String rid = StoredItems.parse(stored).get("_rid").textValue();
                    byte[] decoded = Base64.getDecoder().decode(rid.replace('-', '/'));
                    byte[] address = Keys.concat(collId, id.getBytes(StandardCharsets.UTF_8));
                    long h = MurmurHash3.hash128x64(address, 0, address.length, 0)[0];
                    for (int i = 0; i < 8; i++) {
                        assertEquals((byte) (h >>> (56 - 8 * i)), decoded[8 + i], id + " byte " + i);
                    }
                    if (first == null) {
                        first = decoded;
                    } else {
                        assertArrayEquals(first, decoded, "one id, two partitions: " + id);
                    }
                }
                rids.add(Arrays.toString(first));
            }
            assertEquals(IDS.size() - 2, rids.size(), "distinct ids, distinct rids");
        }
    }
}
