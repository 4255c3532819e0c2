package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.StoreConfig;
import io.tetradb.core.value.DateTimeNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A latest-version change read straight from the stored binary item into a tree equals its JSON text read back
 * (what every reader saw before the tree skipped the JSON): floats, decimals, typed values, non-finite doubles.
 */
class ChangeTreeTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    @Test
    void theTreeOfAStoredItemEqualsItsJsonReadBack() throws Exception {
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null,
                    null);
            ObjectNode item = M.createObjectNode().put("id", "a").put("pk", "k").put("f", 0.1f)
                    .put("d", new BigDecimal("19.90")).put("n", Double.NaN).put("big", Long.MAX_VALUE).put("small", 5L).put("s", "é");
            item.set("when", DateTimeNode.ofEpochMillis(1_700_000_000_123L));
            item.putObject("o").putArray("a").add(1).add(2.5f).add("x");
            c.execute(PartitionKeyValue.of(M.getNodeFactory().textNode("k")), ItemOperation.create(item));
            ChangeFeedPage page = c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null, null,
                    0, 0, 10));
            assertEquals(1, page.changes().size());
            ChangeFeedPage.Change change = page.changes().get(0);
            JsonNode fromJson = M.readTree(change.item());
            assertEquals(fromJson, change.tree(M));
            assertEquals(fromJson, ChangeFeedJson.latestVersion(M, change));
        }
    }
}
