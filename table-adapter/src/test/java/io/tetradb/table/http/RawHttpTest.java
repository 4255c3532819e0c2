package io.tetradb.table.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The REST protocol spoken by hand (Shared Key, not Lite, signed here): metadata levels, X-HTTP-Method tunnelling,
 * and malformed requests — each answered with a 4xx in Azure's error format while the server keeps serving.
 */
class RawHttpTest extends SdkTestBase {
    @BeforeAll
    void table() throws Exception {
        HttpResponse<String> r = send("POST", "/devstoreaccount1/Tables", "{\"TableName\":\"raw\"}");
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("raw", M.readTree(r.body()).path("TableName").asText());
        assertNotNull(r.headers().firstValue("x-ms-request-charge").orElse(null));
    }

    @Test
    void metadataLevelsAndAnnotations() throws Exception {
        String body = "{\"PartitionKey\":\"p\",\"RowKey\":\"m\",\"Big\":\"9007199254740993\",\"Big@odata.type\":\"Edm.Int64\","
                + "\"When\":\"2016-03-01T09:30:00.1234567Z\",\"When@odata.type\":\"Edm.DateTime\",\"N\":7}";
        HttpResponse<String> created = send("POST", "/devstoreaccount1/raw", body, "Prefer", "return-no-content");
        assertEquals(204, created.statusCode());
        String path = "/devstoreaccount1/raw(PartitionKey='p',RowKey='m')";
        assertTrue(created.headers().firstValue("Location").orElse("").endsWith(path));

        JsonNode none = M.readTree(send("GET", path, null, "Accept", "application/json;odata=nometadata").body());
        assertEquals("9007199254740993", none.path("Big").asText());
        assertFalse(none.has("Big@odata.type"));
        assertFalse(none.has("odata.etag"));

        HttpResponse<String> minimalResponse = send("GET", path, null, "Accept", "application/json;odata=minimalmetadata");
        JsonNode minimal = M.readTree(minimalResponse.body());
        assertEquals("Edm.Int64", minimal.path("Big@odata.type").asText());
        assertEquals("Edm.DateTime", minimal.path("When@odata.type").asText());
        assertEquals("2016-03-01T09:30:00.1234567Z", minimal.path("When").asText());
        assertFalse(minimal.has("N@odata.type"), "Int32 needs no annotation");
        assertEquals(minimalResponse.headers().firstValue("ETag").orElse(null), minimal.path("odata.etag").asText());
        assertTrue(minimal.path("odata.metadata").asText().endsWith("/$metadata#raw/@Element"));

        JsonNode full = M.readTree(send("GET", path + "?$format=application/json;odata=fullmetadata", null).body());
        assertEquals("devstoreaccount1.raw", full.path("odata.type").asText());
        assertTrue(full.path("odata.id").asText().endsWith(path));
        assertEquals("Edm.Int32", full.path("N@odata.type").asText());

        // MERGE tunnelled through POST, and the verb itself
        assertEquals(204, send("POST", path, "{\"X\":1}", "X-HTTP-Method", "MERGE", "If-Match", "*").statusCode());
        assertEquals(204, send("MERGE", path, "{\"Y\":2}", "If-Match", "*").statusCode());
        JsonNode merged = M.readTree(send("GET", path, null).body());
        assertEquals(1, merged.path("X").asInt());
        assertEquals(2, merged.path("Y").asInt());
        assertEquals(7, merged.path("N").asInt());
    }

    @Test
    void malformedRequestsAreAnsweredAndTheServerKeepsServing() throws Exception {
        assertError(send("POST", "/devstoreaccount1/raw", "{\"PartitionKey\":\"p\",\"RowKey\":"), 400, "InvalidInput");
        assertError(send("POST", "/devstoreaccount1/raw", "[1,2]"), 400, "InvalidInput");
        assertError(send("POST", "/devstoreaccount1/raw", "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"A\":1,\"A\":2}"),
                400, "InvalidInput");
        assertError(send("POST", "/devstoreaccount1/raw", "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"A\":{\"x\":1}}"),
                400, "InvalidInput");
        assertError(send("POST", "/devstoreaccount1/raw",
                "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"A\":\"abc\",\"A@odata.type\":\"Edm.Int64\"}"), 400, "InvalidInput");
        assertError(send("POST", "/devstoreaccount1/raw", "{\"RowKey\":\"r\"}"), 400, "PropertiesNeedValue");
        assertError(send("GET", "/devstoreaccount1/raw()?$filter=" + enc("A eq 'x"), null), 400, "InvalidInput");
        assertError(send("GET", "/devstoreaccount1/raw()?$filter=" + enc("A eq 1 and"), null), 400, "InvalidInput");
        assertError(send("GET", "/devstoreaccount1/raw()?$top=5000", null), 400, "InvalidInput");
        assertError(send("GET", "/devstoreaccount1/raw()?NextPartitionKey=garbage!!", null), 400, "InvalidInput");
        assertError(send("GET", "/devstoreaccount1/raw(PartitionKey='p',RowKey=", null), 400, "InvalidInput");
        assertError(send("DELETE", "/devstoreaccount1/raw(PartitionKey='p',RowKey='r')", null), 400, "MissingRequiredHeader");
        assertError(send("GET", "/devstoreaccount1/nosuch()", null), 404, "TableNotFound");
        assertError(send("GET", "/devstoreaccount1/raw?comp=stats", null), 501, "NotImplemented");
        assertError(send("GET", "/devstoreaccount1/?restype=service&comp=properties", null), 501, "NotImplemented");
        assertError(send("POST", "/devstoreaccount1/$batch", "not multipart"), 400, "InvalidInput");
        assertError(send("POST", "/devstoreaccount1/$batch", "--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n",
                "Content-Type", "multipart/mixed; boundary=b"), 400, "InvalidInput");

        StringBuilder big = new StringBuilder("{\"PartitionKey\":\"p\",\"RowKey\":\"big\"");
        for (int i = 0; i < 20; i++) {
            big.append(",\"P").append(i).append("\":\"").append("x".repeat(30_000)).append('"');
        }
        assertError(send("POST", "/devstoreaccount1/raw", big.append('}').toString()), 400, "EntityTooLarge");
        assertError(send("POST", "/devstoreaccount1/raw", "{\"PartitionKey\":\"p\",\"RowKey\":\"s\",\"S\":\""
                + "y".repeat(40_000) + "\"}"), 400, "PropertyValueTooLarge");

        // a body over the limit is refused from its Content-Length, before it is read
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /devstoreaccount1/raw HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + (64 << 20) + "\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 413", head);
        }
        // garbage that is not HTTP at all
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.getOutputStream().write("\u0001\u0002 nonsense\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            String head = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertTrue(head.startsWith("HTTP/1.1 4"), head);
        }
        assertServing();
        assertEquals(0, M.readTree(send("GET", "/devstoreaccount1/raw()?$filter=" + enc("RowKey eq 'big'"), null).body())
                .path("value").size(), "nothing malformed was stored");
    }

    @Test
    void unsignedAndBadlySignedRequestsAre403() throws Exception {
        HttpResponse<String> unsigned = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.address().getPort() + "/devstoreaccount1/Tables")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, unsigned.statusCode());
        assertEquals("AuthenticationFailed", unsigned.headers().firstValue("x-ms-error-code").orElse(null));
        HttpResponse<String> forged = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + server.address().getPort() + "/devstoreaccount1/Tables"))
                .header("x-ms-date", "Mon, 23 Nov 2026 10:00:00 GMT")
                .header("Authorization", "SharedKey devstoreaccount1:" + Base64.getEncoder().encodeToString(new byte[32]))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, forged.statusCode());
        assertEquals("AuthenticationFailed", forged.headers().firstValue("x-ms-error-code").orElse(null));
        // a correctly signed request replayed an hour later
        String old = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).minusHours(1));
        String sig = Base64.getEncoder().encodeToString(SharedKeyAuth.hmac(Base64.getDecoder().decode(KEY),
                "GET\n\n\n" + old + "\n/devstoreaccount1/devstoreaccount1/Tables"));
        HttpResponse<String> replayed = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + server.address().getPort() + "/devstoreaccount1/Tables"))
                .header("x-ms-date", old).header("Authorization", "SharedKey devstoreaccount1:" + sig)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, replayed.statusCode(), replayed.body());
        assertTrue(replayed.body().contains("15 minutes"), replayed.body());
    }
}
