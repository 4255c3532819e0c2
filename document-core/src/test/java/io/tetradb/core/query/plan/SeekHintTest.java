package io.tetradb.core.query.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code SEEK_HINT(predicate)} filters nothing but lets the planner seek the predicate's index entries with their
 * multikey meaning: a face (Mongo) finds {@code {"links.target": v}} candidates whether {@code links} is an object or
 * an array of objects, and checks its own semantics on them.
 */
class SeekHintTest {
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void aHintSeeksFlattenedArrayEntriesAndFiltersNothing(@TempDir Path dir) throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            c.createItem(M.readTree("{\"id\":\"object\",\"pk\":\"p\",\"links\":{\"target\":\"S1\"}}"));
            c.createItem(M.readTree("{\"id\":\"array\",\"pk\":\"p\",\"links\":[{\"target\":\"X\"},{\"target\":\"S1\"}]}"));
            c.createItem(M.readTree("{\"id\":\"nested\",\"pk\":\"p\",\"links\":[{\"target\":[\"S1\",\"S2\"]}]}"));
            for (int i = 0; i < 50; i++) {
                c.createItem(M.readTree("{\"id\":\"other" + i + "\",\"pk\":\"p\",\"links\":[{\"target\":\"T" + i + "\"}]}"));
            }
            ContainerStore store = client.coreStore().container("db", "c");
            ContainerQuery.Page hinted = store.queryPage(SqlParser.parse(
                    "SELECT VALUE c.id FROM c WHERE SEEK_HINT(c.links.target = 'S1')"), Map.of(), null, null, null,
                    100, Long.MAX_VALUE);
            assertTrue(hinted.access().startsWith("index seek on /links/target"), hinted.access());
            assertEquals(List.of("array", "nested", "object"),
                    hinted.results().stream().map(JsonNode::asText).sorted().toList());
            assertEquals(3, hinted.documentsLoaded());
            ContainerQuery.Page plain = store.queryPage(SqlParser.parse(
                    "SELECT VALUE c.id FROM c WHERE c.links.target = 'S1'"), Map.of(), null, null, null, 100,
                    Long.MAX_VALUE);
            assertEquals(List.of("object"), plain.results().stream().map(JsonNode::asText).toList(),
                    "SQL's own meaning is unchanged");
            ContainerQuery.Page always = store.queryPage(SqlParser.parse(
                    "SELECT VALUE COUNT(1) FROM c WHERE SEEK_HINT(1 = 2)"), Map.of(), null, null, null, 100,
                    Long.MAX_VALUE);
            assertEquals(53, always.results().get(0).asInt(), "evaluated, a hint is always true");
        }
    }
}
