package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosQueryRequestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.tetradb.core.store.TopLevelFields.Presence.ABSENT;
import static io.tetradb.core.store.TopLevelFields.Presence.PRESENT;
import static io.tetradb.core.store.TopLevelFields.Presence.UNSURE;
import static org.junit.jupiter.api.Assertions.assertEquals;

class TopLevelFieldsTest {
    private static TopLevelFields.Presence has(String json, String name) {
        return TopLevelFields.has(json.getBytes(StandardCharsets.UTF_8), 0, name.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void findsOnlyTopLevelNames() {
        assertEquals(PRESENT, has("{\"id\":\"1\",\"_isEdge\":true}", "_isEdge"));
        assertEquals(PRESENT, has(" { \"a\" : [1, {\"b\": \"}\"}], \"_isEdge\" : false }", "_isEdge"));
        assertEquals(ABSENT, has("{}", "_isEdge"));
        assertEquals(ABSENT, has("{\"id\":\"1\",\"code\":[{\"id\":\"x\",\"_isEdge\":1}]}", "_isEdge"));
        assertEquals(ABSENT, has("{\"s\":\"\\\"_isEdge\\\":true\",\"n\":{\"_isEdge\":{\"a\":[]}},\"x\":-1.5e3}", "_isEdge"));
        assertEquals(ABSENT, has("{\"_isEdgeX\":1,\"_isEdg\":2,\"t\":null}", "_isEdge"));
        assertEquals(UNSURE, has("{\"_is\\u0045dge\":1}", "_isEdge"), "an escaped name is left to the parser");
        assertEquals(UNSURE, has("{\"a\":\"unterminated", "_isEdge"));
        assertEquals(UNSURE, has("[1]", "_isEdge"));
    }

    @Test
    void aScanOnIsDefinedReturnsWhatTheFilterDoes(@TempDir Path dir) {
        ObjectMapper m = new ObjectMapper();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            List<String> vertices = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                ObjectNode item = m.createObjectNode().put("id", "i" + i).put("pk", "p" + i % 3);
                switch (i % 4) {
                    case 0 -> item.put("_isEdge", true);
                    case 1 -> item.putObject("nested").put("_isEdge", true);
                    case 2 -> item.put("note", "\"_isEdge\":true");
                    default -> item.put("_is\u00e9", "unicode name");
                }
                if (i % 4 != 0) {
                    vertices.add("i" + i);
                }
                c.createItem(item);
            }
            List<String> got = ids(c, "SELECT VALUE c.id FROM c WHERE NOT IS_DEFINED(c._isEdge)");
            assertEquals(vertices.stream().sorted().toList(), got);
            assertEquals(15, ids(c, "SELECT VALUE c.id FROM c WHERE IS_DEFINED(c[\"_isEdge\"])").size());
            assertEquals(15, ids(c, "SELECT VALUE c.id FROM c WHERE IS_DEFINED(c.nested) AND NOT IS_DEFINED(c._isEdge)")
                    .size());
        }
    }

    private static List<String> ids(CosmosContainer c, String q) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : c.queryItems(q, new CosmosQueryRequestOptions(), JsonNode.class)) {
            out.add(n.asText());
        }
        out.sort(null);
        return out;
    }
}
