package io.tetradb.cosmos;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Master-key auth: known-answer signatures, 401/403 answers, the read-only key (401 on writes), the account document. */
class AuthTest extends ServerFixture {
    static final String READ_ONLY_KEY = "Zm9vYmFyLXJlYWQtb25seS1rZXktZm9yLXRlc3RzLW9ubHktMTIzNDU2Nzg5MA==";
    static final String OLD_DATE = "Fri, 17 Dec 1926 03:15:00 GMT";

    @Override
    CosmosRestOptions options() {
        return CosmosRestOptions.defaults().withReadOnlyKey(READ_ONLY_KEY);
    }

    @Test
    void knownAnswerSignaturesOfTheSdks() {
        assertEquals("cugjaA51bjCvxVi8LXg3XB+ZVKaFAZshILoJZF9nfEY=",
                MasterKeyAuth.sign(KEY, "GET", "colls", "dbs/Test Database/colls/Test Collection", OLD_DATE));
        assertEquals("6S5ceZsl2EXWB3Jo5bJcK7zv8NxXnsxWPWD9TH3nNMo=",
                MasterKeyAuth.sign(KEY, "GET", "pkranges", "m4d+xg08uvm=", OLD_DATE));
        assertEquals("osjbBQOMkThD0cAwzFtrFtPTq7b7LfD4RvQnpW7oM4w=", MasterKeyAuth.sign(KEY, "GET", "", "", OLD_DATE));
        assertEquals("E92FgDG9JiNX+NfsI+edOFtgkZRDkrrJxIfl12Vsu8A=",
                MasterKeyAuth.sign(KEY, "POST", "colls", "dbs/Test Database", OLD_DATE));
        assertEquals("LcuXXg0TcXxZG0kUCj9tZIWRy2yCzim3oiqGiHpRqGs=",
                MasterKeyAuth.sign(KEY, "DELETE", "dbs", "dbs/Test Database", OLD_DATE));
        assertEquals("VR1ddfxKBXnoaT+b3WkhyYVc9JmGNpTnaRmyDM44398=",
                MasterKeyAuth.sign(KEY, "PATCH", "docs", "dbs/test-db/colls/test-coll/docs/67890", OLD_DATE));
    }

    @Test
    void verifierAcceptsNameAndRidBasedRequestsAsSigned() {
        Clock then = Clock.fixed(ZonedDateTime.parse(OLD_DATE, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant(),
                ZoneOffset.UTC);
        MasterKeyAuth auth = new MasterKeyAuth(KEY, null, Duration.ofMinutes(15), then);
        assertEquals(MasterKeyAuth.Grant.READ_WRITE, auth.verify(request("GET",
                List.of("dbs", "Test Database", "colls", "Test Collection"),
                "cugjaA51bjCvxVi8LXg3XB+ZVKaFAZshILoJZF9nfEY=")));
        // Java signs a RID-addressed path by its last RID, lower-cased
        assertEquals(MasterKeyAuth.Grant.READ_WRITE, auth.verify(request("GET",
                List.of("dbs", "m4d+xA==", "colls", "m4d+xG08uVM=", "pkranges"),
                "6S5ceZsl2EXWB3Jo5bJcK7zv8NxXnsxWPWD9TH3nNMo=")));
        assertEquals(MasterKeyAuth.Grant.READ_WRITE, auth.verify(request("GET", List.of(),
                "osjbBQOMkThD0cAwzFtrFtPTq7b7LfD4RvQnpW7oM4w=")));
        CosmosError wrong = assertThrows(CosmosError.class, () -> auth.verify(request("GET",
                List.of("dbs", "Test Database"), "osjbBQOMkThD0cAwzFtrFtPTq7b7LfD4RvQnpW7oM4w=")));
        assertEquals(401, wrong.status);
    }

    private static RestRequest request(String method, List<String> segments, String sig) {
        DefaultHttpHeaders h = new DefaultHttpHeaders();
        h.set("x-ms-date", OLD_DATE);
        h.set("authorization", URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8));
        return new RestRequest(method, segments, h, new byte[0], false);
    }

    @Test
    void missingOrWrongSignatureIs401WithJsonBody() throws Exception {
        RawClient none = new RawClient(endpoint(), null);
        RawClient.Answer a = none.send("GET", "/dbs", null);
        assertEquals(401, a.status());
        assertEquals("Unauthorized", a.json().get("code").asText());
        assertTrue(a.json().get("message").asText().contains("authorization"));
        assertNotNull(a.header("x-ms-activity-id"));

        RawClient wrong = new RawClient(endpoint(), "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXk=");
        RawClient.Answer b = wrong.send("GET", "/dbs", null);
        assertEquals(401, b.status());
        assertEquals("Unauthorized", b.json().get("code").asText());

        // a signature for another path does not open this one
        String date = RawClient.now();
        RawClient.Answer c = new RawClient(endpoint(), null).send("GET", "/dbs", null, Map.of("x-ms-date", date,
                "authorization", RawClient.authorization(KEY, "GET", "dbs/other", date)));
        assertEquals(401, c.status());

        // the SDK reads the account when it is built: a wrong key fails there, with the server's 401
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> client("d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXk=").close());
        Throwable cause = e;
        while (cause != null && !(cause instanceof CosmosException)) {
            cause = cause.getCause();
        }
        assertNotNull(cause, "no CosmosException in " + e);
        assertEquals(401, ((CosmosException) cause).getStatusCode());
    }

    @Test
    void aDateMoreThanFifteenMinutesOffIs403() throws Exception {
        String old = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Instant.now().minus(Duration.ofMinutes(16)).atZone(ZoneOffset.UTC));
        RawClient.Answer a = new RawClient(endpoint(), null).send("GET", "/dbs", null, Map.of("x-ms-date", old,
                "authorization", RawClient.authorization(KEY, "GET", "dbs", old)));
        assertEquals(403, a.status());
        assertEquals("Forbidden", a.json().get("code").asText());
        String recent = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Instant.now().minus(Duration.ofMinutes(14)).atZone(ZoneOffset.UTC));
        RawClient.Answer b = new RawClient(endpoint(), null).send("GET", "/dbs", null, Map.of("x-ms-date", recent,
                "authorization", RawClient.authorization(KEY, "GET", "dbs", recent)));
        assertEquals(200, b.status());
    }

    @Test
    void readOnlyKeyReadsAndQueriesButDoesNotWrite() {
        sdk.createDatabaseIfNotExists("authro");
        sdk.getDatabase("authro").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        sdk.getDatabase("authro").getContainer("c").upsertItem(Json.object().put("id", "1").put("pk", "p"));
        CosmosClient reader = client(READ_ONLY_KEY);
        try {
            var c = reader.getDatabase("authro").getContainer("c");
            assertEquals("p", c.readItem("1", new PartitionKey("p"), ObjectNode.class).getItem().get("pk").asText());
            assertEquals(1, c.queryItems("SELECT * FROM c", null, ObjectNode.class).stream().count());
            // Cosmos DB answers a write with the read-only key as a wrong key: 401
            CosmosException e = assertThrows(CosmosException.class,
                    () -> c.createItem(Json.object().put("id", "2").put("pk", "p")));
            assertEquals(401, e.getStatusCode());
        } finally {
            reader.close();
        }
        assertThrows(CosmosException.class, () -> sdk.getDatabase("authro").getContainer("c")
                .readItem("2", new PartitionKey("p"), ObjectNode.class));
    }

    @Test
    void readOnlyKeyCannotExecuteAStoredProcedureEvenOneThatOnlyReads() {
        sdk.createDatabaseIfNotExists("authsp");
        sdk.getDatabase("authsp").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        var scripts = sdk.getDatabase("authsp").getContainer("c").getScripts();
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("hello",
                "function hello() { getContext().getResponse().setBody('hi'); }"));
        CosmosStoredProcedureRequestOptions inP = new CosmosStoredProcedureRequestOptions();
        inP.setPartitionKey(new PartitionKey("p"));
        assertEquals("\"hi\"", scripts.getStoredProcedure("hello").execute(List.of(), inP).getResponseAsString());
        CosmosClient reader = client(READ_ONLY_KEY);
        try {
            var readerScripts = reader.getDatabase("authsp").getContainer("c").getScripts();
            assertEquals("hello", readerScripts.getStoredProcedure("hello").read().getProperties().getId());
            CosmosException e = assertThrows(CosmosException.class,
                    () -> readerScripts.getStoredProcedure("hello").execute(List.of(), inP));
            assertEquals(401, e.getStatusCode());
            assertTrue(e.getMessage().contains("read-only key"), e.getMessage());
        } finally {
            reader.close();
        }
    }

    @Test
    void accountPointsBackAtTheUrlTheClientUsed() throws Exception {
        RawClient.Answer a = new RawClient("http://127.0.0.1:" + server.address().getPort(), KEY).send("GET", "/",
                null);
        assertEquals(200, a.status());
        assertEquals("localhost", a.json().get("id").asText());
        assertEquals("http://127.0.0.1:" + server.address().getPort() + "/",
                a.json().at("/writableLocations/0/databaseAccountEndpoint").asText());
        assertEquals("Session", a.json().at("/userConsistencyPolicy/defaultConsistencyLevel").asText());
        assertTrue(a.json().get("queryEngineConfiguration").isTextual());
    }
}
