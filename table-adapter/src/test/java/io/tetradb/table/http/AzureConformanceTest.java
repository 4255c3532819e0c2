package io.tetradb.table.http;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Behaviours where Azure Table storage was measured and this endpoint differed (issue 12, "Tables face"): each
 * through the Java SDK, or by hand where the SDK cannot send the input.
 */
class AzureConformanceTest extends SdkTestBase {
    private static final Pattern AZURE_ETAG =
            Pattern.compile("W/\"datetime'(\\d{4}-\\d\\d-\\d\\dT\\d\\d%3A\\d\\d%3A\\d\\d\\.\\d{7}Z)'\"");

    // ---- 1, 2: $batch as the JavaScript SDK writes it; sub-responses as Azure writes them ----------------------

    @Test
    void batchOperationsWithoutContentLengthAndAzureSubResponses() throws Exception {
        freshTable("jsbatch").createEntity(new TableEntity("p", "old").addProperty("N", 1));
        String base = "http://127.0.0.1:" + server.address().getPort() + "/devstoreaccount1/";
        // as @azure/data-tables writes it: no Content-Length, an empty line more before each JSON body
        String body = "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n"
                + "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "POST " + base + "jsbatch HTTP/1.1\r\nContent-Type: application/json\r\nContent-ID: 1\r\n"
                + "Prefer: return-no-content\r\nAccept: application/json\r\n\r\n\r\n"
                + "{\"PartitionKey\":\"p\",\"RowKey\":\"a\",\"N\":2}\r\n"
                + "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "POST " + base + "jsbatch HTTP/1.1\r\nContent-Type: application/json\r\nContent-ID: 2\r\n"
                + "Accept: application/json;odata=minimalmetadata\r\n\r\n\r\n"
                + "{\"PartitionKey\":\"p\",\"RowKey\":\"b'c\",\"N\":3}\r\n"
                + "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "PATCH " + base + "jsbatch(PartitionKey='p',RowKey='old') HTTP/1.1\r\nContent-Type: application/json\r\n"
                + "Content-ID: 3\r\nIf-Match: *\r\n\r\n\r\n{\"M\":\"merged\"}\r\n"
                + "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "PUT " + base + "jsbatch(PartitionKey='p',RowKey='up') HTTP/1.1\r\nContent-Type: application/json\r\n"
                + "Content-ID: 4\r\n\r\n\r\n{\"N\":5}\r\n"
                + "--changeset_c--\r\n--batch_b--\r\n";
        HttpResponse<String> r = send("POST", "/devstoreaccount1/$batch", body,
                "Content-Type", "multipart/mixed; boundary=batch_b");
        assertEquals(202, r.statusCode(), r.body());
        List<String> parts = subResponses(r.body());
        assertEquals(4, parts.size(), r.body());

        String location = base + "jsbatch(PartitionKey='p',RowKey='a')";
        Map<String, String> insert = headers(parts.get(0));
        assertTrue(parts.get(0).startsWith("HTTP/1.1 204 No Content"), parts.get(0));
        assertEquals("1", insert.get("content-id"));
        assertEquals("return-no-content", insert.get("preference-applied"));
        assertEquals(location, insert.get("location"));
        assertEquals(location, insert.get("dataserviceid"));
        assertTrue(AZURE_ETAG.matcher(insert.get("etag")).matches(), insert.get("etag"));

        Map<String, String> withContent = headers(parts.get(1));
        assertTrue(parts.get(1).startsWith("HTTP/1.1 201 Created"), parts.get(1));
        assertEquals("2", withContent.get("content-id"));
        assertEquals("return-content", withContent.get("preference-applied"));
        assertEquals(base + "jsbatch(PartitionKey='p',RowKey='b''c')", withContent.get("location"), "quotes doubled");
        JsonNode entity = M.readTree(parts.get(1).substring(parts.get(1).indexOf("\r\n\r\n") + 4).trim());
        assertEquals(3, entity.path("N").asInt());
        assertEquals(withContent.get("etag"), entity.path("odata.etag").asText());

        for (int i = 2; i < 4; i++) {
            Map<String, String> h = headers(parts.get(i));
            assertTrue(parts.get(i).startsWith("HTTP/1.1 204 No Content"), parts.get(i));
            assertEquals(String.valueOf(i + 1), h.get("content-id"));
            assertTrue(AZURE_ETAG.matcher(h.get("etag")).matches(), h.get("etag"));
            assertFalse(h.containsKey("location"), "only an insert names its entity");
        }
        TableClient t = service.getTableClient("jsbatch");
        assertEquals("merged", t.getEntity("p", "old").getProperty("M"));
        assertEquals(1, t.getEntity("p", "old").getProperty("N"));
        assertEquals(5, t.getEntity("p", "up").getProperty("N"));
        assertEquals(2, t.getEntity("p", "a").getProperty("N"));

        // a failing operation: its Content-ID and index come back, nothing is applied
        String failing = "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n"
                + "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "POST " + base + "jsbatch HTTP/1.1\r\nContent-Type: application/json\r\nContent-ID: 7\r\n\r\n\r\n"
                + "{\"PartitionKey\":\"p\",\"RowKey\":\"new\"}\r\n"
                + "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "POST " + base + "jsbatch HTTP/1.1\r\nContent-Type: application/json\r\nContent-ID: 8\r\n\r\n\r\n"
                + "{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}\r\n"
                + "--changeset_c--\r\n--batch_b--\r\n";
        HttpResponse<String> f = send("POST", "/devstoreaccount1/$batch", failing,
                "Content-Type", "multipart/mixed; boundary=batch_b");
        assertEquals(202, f.statusCode());
        List<String> failed = subResponses(f.body());
        assertEquals(1, failed.size(), f.body());
        assertTrue(failed.get(0).startsWith("HTTP/1.1 409 Conflict"), failed.get(0));
        assertEquals("8", headers(failed.get(0)).get("content-id"));
        assertTrue(failed.get(0).contains("\"value\":\"1:"), failed.get(0));
        assertEquals(404, assertThrows(TableServiceException.class, () -> t.getEntity("p", "new"))
                .getResponse().getStatusCode());
    }

    @Test
    void aBatchMayHoldOneRetrieve() throws Exception {
        freshTable("retrieve").createEntity(new TableEntity("p", "r").addProperty("V", 7));
        String base = "http://127.0.0.1:" + server.address().getPort() + "/devstoreaccount1/";
        for (String key : new String[]{"r", "missing"}) {
            String body = "--batch_b\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                    + "GET " + base + "retrieve(PartitionKey='p',RowKey='" + key + "') HTTP/1.1\r\n"
                    + "Accept: application/json;odata=minimalmetadata\r\n\r\n--batch_b--\r\n";
            HttpResponse<String> r = send("POST", "/devstoreaccount1/$batch", body,
                    "Content-Type", "multipart/mixed; boundary=batch_b");
            assertEquals(202, r.statusCode(), r.body());
            String part = r.body().substring(r.body().indexOf("HTTP/1.1"));
            if (key.equals("r")) {
                assertTrue(part.startsWith("HTTP/1.1 200 OK"), part);
                assertTrue(AZURE_ETAG.matcher(headers(part).get("etag")).matches(), part);
                String json = part.substring(part.indexOf("\r\n\r\n") + 4, part.indexOf("\r\n--batchresponse_"));
                assertEquals(7, M.readTree(json).path("V").asInt());
            } else {
                assertTrue(part.startsWith("HTTP/1.1 404 Not Found"), part);
                assertTrue(part.contains("ResourceNotFound"), part);
            }
        }
    }

    /** The responses of the changeset in a batch answer: status line, headers, body. */
    private static List<String> subResponses(String body) {
        return java.util.Arrays.stream(body.split("--changesetresponse_[0-9a-f-]+(--)?\r\n"))
                .filter(p -> p.contains("Content-Type: application/http"))
                .map(p -> p.substring(p.indexOf("HTTP/1.1")))
                .collect(Collectors.toList());
    }

    private static Map<String, String> headers(String response) {
        Map<String, String> h = new LinkedHashMap<>();
        String head = response.substring(0, response.indexOf("\r\n\r\n"));
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("HTTP/")) {
                h.put(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        }
        return h;
    }

    // ---- 3: a SAS-authorised $batch needs the permissions of its operations -----------------------------------

    @Test
    void sasBatchChecksEachOperation() {
        TableClient owner = freshTable("sasbatch");
        owner.createEntity(new TableEntity("p", "existing"));
        TableClient addOnly = new TableClientBuilder().endpoint(endpoint()).tableName("sasbatch")
                .sasToken(owner.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                        TableSasPermission.parse("a")))).buildClient();
        addOnly.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "a1")),
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "a2"))));
        assertEquals(3, owner.listEntities().stream().count(), "inserts need only 'a'");

        TableTransactionFailedException denied = assertThrows(TableTransactionFailedException.class,
                () -> addOnly.submitTransaction(List.of(
                        new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "a3")),
                        new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("p", "existing")))));
        assertEquals(1, denied.getFailedTransactionActionIndex());
        assertEquals("AuthorizationPermissionMismatch", denied.getValue().getErrorCode().toString());
        assertEquals(3, owner.listEntities().stream().count(), "nothing of the denied batch is applied");

        TableClient updateDelete = new TableClientBuilder().endpoint(endpoint()).tableName("sasbatch")
                .sasToken(owner.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                        TableSasPermission.parse("ud")))).buildClient();
        updateDelete.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.UPDATE_MERGE,
                        new TableEntity("p", "a1").addProperty("V", 1)),
                new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("p", "a2"))));
        assertEquals(1, owner.getEntity("p", "a1").getProperty("V"));
        // an upsert is an insert or an update: it needs both
        assertEquals("AuthorizationPermissionMismatch", assertThrows(TableTransactionFailedException.class,
                () -> updateDelete.submitTransaction(List.of(new TableTransactionAction(
                        TableTransactionActionType.UPSERT_MERGE, new TableEntity("p", "u")))))
                .getValue().getErrorCode().toString());

        // an account SAS the same way
        String accountAdd = service.generateAccountSas(new TableAccountSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableAccountSasPermission.parse("a"),
                new TableAccountSasService().setTableAccess(true),
                new TableAccountSasResourceType().setObject(true)));
        TableClient accountAdder = new TableClientBuilder().endpoint(endpoint()).tableName("sasbatch")
                .sasToken(accountAdd).buildClient();
        accountAdder.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "b1"))));
        assertEquals("AuthorizationPermissionMismatch", assertThrows(TableTransactionFailedException.class,
                () -> accountAdder.submitTransaction(List.of(new TableTransactionAction(
                        TableTransactionActionType.DELETE, new TableEntity("p", "b1")))))
                .getValue().getErrorCode().toString());
    }

    // ---- 4: trailing slashes ------------------------------------------------------------------------------------

    @Test
    void trailingSlashesAreAccepted() throws Exception {
        assertEquals(201, send("POST", "/devstoreaccount1/Tables/", "{\"TableName\":\"slashed\"}").statusCode());
        HttpResponse<String> tables = send("GET", "/devstoreaccount1/Tables/", null);
        assertEquals(200, tables.statusCode(), tables.body());
        assertTrue(tables.body().contains("\"slashed\""), tables.body());
        assertEquals(200, send("GET", "/devstoreaccount1/Tables('slashed')/", null).statusCode());
        assertEquals(201, send("POST", "/devstoreaccount1/slashed/", "{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}")
                .statusCode());
        HttpResponse<String> query = send("GET", "/devstoreaccount1/slashed()/", null);
        assertEquals(200, query.statusCode(), query.body());
        assertEquals(1, M.readTree(query.body()).path("value").size());
        assertEquals(204, send("PUT", "/devstoreaccount1/slashed(PartitionKey='p',RowKey='r')/", "{\"V\":1}")
                .statusCode());
        HttpResponse<String> one = send("GET", "/devstoreaccount1/slashed(PartitionKey='p',RowKey='r')/", null);
        assertEquals(200, one.statusCode(), one.body());
        assertEquals(1, M.readTree(one.body()).path("V").asInt());
        assertEquals(204, send("DELETE", "/devstoreaccount1/slashed(PartitionKey='p',RowKey='r')/", null,
                "If-Match", "*").statusCode());
        assertEquals(204, send("DELETE", "/devstoreaccount1/Tables('slashed')/", null).statusCode());
    }

    // ---- 5: ETags in Azure's form; If-Match must be weak ---------------------------------------------------------

    @Test
    void etagsAreAzuresAndIfMatchMustBeAWeakEtag() throws Exception {
        TableClient t = freshTable("etags");
        t.createEntity(new TableEntity("p", "r").addProperty("V", 1));
        TableEntity v1 = t.getEntity("p", "r");
        Matcher m = AZURE_ETAG.matcher(v1.getETag());
        assertTrue(m.matches(), v1.getETag());
        assertEquals(v1.getTimestamp().toInstant(),
                OffsetDateTime.parse(URLDecoder.decode(m.group(1), StandardCharsets.UTF_8)).toInstant(),
                "the ETag is the Timestamp");

        // the SDK's round trips: a conditional update with the ETag read, then a stale one
        t.updateEntityWithResponse(etagged(new TableEntity("p", "r").addProperty("V", 2), v1.getETag()),
                TableEntityUpdateMode.REPLACE, true, null, null);
        TableEntity v2 = t.getEntity("p", "r");
        assertFalse(v1.getETag().equals(v2.getETag()), "every write makes a new ETag");
        TableServiceException stale = assertThrows(TableServiceException.class, () -> t.updateEntityWithResponse(
                etagged(new TableEntity("p", "r").addProperty("V", 3), v1.getETag()), TableEntityUpdateMode.MERGE, true,
                null, null));
        assertEquals(412, stale.getResponse().getStatusCode());
        assertEquals("UpdateConditionNotSatisfied", stale.getValue().getErrorCode().toString());
        assertEquals(412, assertThrows(TableServiceException.class,
                () -> t.deleteEntityWithResponse(etagged(new TableEntity("p", "r"), v1.getETag()), true, null, null))
                .getResponse().getStatusCode());
        // many writes in a row: each its own ETag, each one round-trips
        String etag = v2.getETag();
        for (int i = 0; i < 20; i++) {
            t.updateEntityWithResponse(etagged(new TableEntity("p", "r").addProperty("V", 10 + i), etag),
                    TableEntityUpdateMode.MERGE, true, null, null);
            String next = t.getEntity("p", "r").getETag();
            assertFalse(next.equals(etag));
            etag = next;
        }
        t.deleteEntityWithResponse(etagged(new TableEntity("p", "r"), etag), true, null, null);

        t.createEntity(new TableEntity("p", "s"));
        String path = "/devstoreaccount1/etags(PartitionKey='p',RowKey='s')";
        for (String bad : new String[]{"\"0x8D\"", "garbage", "W/unquoted", "W/\"a\"b\""}) {
            assertError(send("PUT", path, "{\"V\":1}", "If-Match", bad), 400, "InvalidInput");
            assertError(send("MERGE", path, "{\"V\":1}", "If-Match", bad), 400, "InvalidInput");
            assertError(send("DELETE", path, null, "If-Match", bad), 400, "InvalidInput");
        }
        // a weak ETag of another version (or form) is a failed condition, not bad input
        assertError(send("PUT", path, "{\"V\":1}", "If-Match", "W/\"datetime'2020-01-01T00%3A00%3A00.0000000Z'\""),
                412, "UpdateConditionNotSatisfied");
        assertError(send("DELETE", path, null, "If-Match", "W/\"other\""), 412, "UpdateConditionNotSatisfied");
        HttpResponse<String> read = send("GET", path, null);
        String current = read.headers().firstValue("ETag").orElseThrow();
        assertTrue(AZURE_ETAG.matcher(current).matches(), current);
        assertEquals(current, M.readTree(read.body()).path("odata.etag").asText());
        HttpResponse<String> updated = send("PUT", path, "{\"V\":1}", "If-Match", current);
        assertEquals(204, updated.statusCode(), updated.body());
        assertTrue(AZURE_ETAG.matcher(updated.headers().firstValue("ETag").orElseThrow()).matches());
        assertEquals(1, t.getEntity("p", "s").getProperty("V"));

        // and inside transactions: conditional on the ETag read, then stale
        TableEntity s1 = t.getEntity("p", "s");
        t.submitTransaction(List.of(new TableTransactionAction(TableTransactionActionType.UPDATE_MERGE,
                etagged(new TableEntity("p", "s").addProperty("W", 1), s1.getETag()), true)));
        assertEquals(1, t.getEntity("p", "s").getProperty("W"));
        TableTransactionFailedException f = assertThrows(TableTransactionFailedException.class,
                () -> t.submitTransaction(List.of(
                        new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "n")),
                        new TableTransactionAction(TableTransactionActionType.DELETE,
                                etagged(new TableEntity("p", "s"), s1.getETag()), true))));
        assertEquals(1, f.getFailedTransactionActionIndex());
        assertEquals("UpdateConditionNotSatisfied", f.getValue().getErrorCode().toString());
        String current2 = t.getEntity("p", "s").getETag();
        t.submitTransaction(List.of(new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE,
                etagged(new TableEntity("p", "s").addProperty("X", 1), current2), true)));
        assertEquals(List.of("X"), t.getEntity("p", "s").getProperties().keySet().stream()
                .filter(k -> !k.startsWith("odata.") && !k.contains("@")
                        && !List.of("PartitionKey", "RowKey", "Timestamp").contains(k))
                .collect(Collectors.toList()));
        t.submitTransaction(List.of(new TableTransactionAction(TableTransactionActionType.DELETE,
                etagged(new TableEntity("p", "s"), t.getEntity("p", "s").getETag()), true)));
        assertEquals(0, t.listEntities().stream().count());
    }

    // ---- 6: Edm.Boolean as text; typed nulls --------------------------------------------------------------------

    @Test
    void booleanTextIsAcceptedAndTypedNullsRefused() throws Exception {
        TableClient t = freshTable("typednull");
        assertEquals(201, send("POST", "/devstoreaccount1/typednull", "{\"PartitionKey\":\"p\",\"RowKey\":\"b\","
                + "\"F\":\"false\",\"F@odata.type\":\"Edm.Boolean\",\"T\":\"True\",\"T@odata.type\":\"Edm.Boolean\"}")
                .statusCode());
        TableEntity b = t.getEntity("p", "b");
        assertEquals(Boolean.FALSE, b.getProperty("F"));
        assertEquals(Boolean.TRUE, b.getProperty("T"));
        assertEquals(1, t.listEntities(new ListEntitiesOptions().setFilter("F eq false"), null, null).stream().count());
        assertError(send("POST", "/devstoreaccount1/typednull", "{\"PartitionKey\":\"p\",\"RowKey\":\"x\","
                + "\"F\":\"no\",\"F@odata.type\":\"Edm.Boolean\"}"), 400, "InvalidInput");

        for (String type : new String[]{"Edm.DateTime", "Edm.Double", "Edm.Int64", "Edm.String"}) {
            assertError(send("POST", "/devstoreaccount1/typednull", "{\"PartitionKey\":\"p\",\"RowKey\":\"n\","
                    + "\"P\":null,\"P@odata.type\":\"" + type + "\"}"), 400, "InvalidInput");
            assertError(send("PUT", "/devstoreaccount1/typednull(PartitionKey='p',RowKey='b')",
                    "{\"P@odata.type\":\"" + type + "\",\"P\":null}"), 400, "InvalidInput");
        }
        assertEquals(404, assertThrows(TableServiceException.class, () -> t.getEntity("p", "n"))
                .getResponse().getStatusCode(), "a refused entity is not stored");
        assertEquals(Boolean.FALSE, t.getEntity("p", "b").getProperty("F"), "nor is a refused replacement");
        // an untyped null is still a property left out, as Azure does
        assertEquals(201, send("POST", "/devstoreaccount1/typednull",
                "{\"PartitionKey\":\"p\",\"RowKey\":\"u\",\"P\":null,\"Q\":1}").statusCode());
        assertFalse(t.getEntity("p", "u").getProperties().containsKey("P"));
    }

    // ---- 7: 4 MiB bodies; x-ms-version ----------------------------------------------------------------------------

    @Test
    void bodiesOverFourMebibytesAre413AndVersionsAreChecked() throws Exception {
        freshTable("limits");
        // just over 4 MiB: 413 RequestBodyTooLarge, whatever the body holds
        StringBuilder big = new StringBuilder("{\"PartitionKey\":\"p\",\"RowKey\":\"big\",\"S\":\"");
        big.append("x".repeat(4 * 1024 * 1024 + 10 - big.length() - 2)).append("\"}");
        assertEquals(4 * 1024 * 1024 + 10, big.length());
        // the answer comes before the body is read: the client reads it while it still sends
        String[] entity = tooLarge("/devstoreaccount1/limits", "application/json", big.toString());
        assertTrue(entity[0].startsWith("HTTP/1.1 413"), entity[0]);
        assertTrue(entity[0].contains("x-ms-error-code: RequestBodyTooLarge"), entity[0]);
        assertEquals("RequestBodyTooLarge", M.readTree(entity[1]).path("odata.error").path("code").asText());
        String batch = "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\n" + "x".repeat(4 * 1024 * 1024)
                + "\r\n--c--\r\n--b--\r\n";
        String[] batched = tooLarge("/devstoreaccount1/$batch", "multipart/mixed; boundary=b", batch);
        assertTrue(batched[0].startsWith("HTTP/1.1 413"), batched[0]);
        assertServing();
        // a client that asks first (Expect: 100-continue) gets Azure's 413 instead of the go-ahead
        try (Socket sock = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
            sock.setSoTimeout((int) io.tetradb.testing.TestTime.patience(java.time.Duration.ofSeconds(30)).toMillis());
            sock.getOutputStream().write(("POST /devstoreaccount1/limits HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " + (5 << 20)
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            sock.getOutputStream().flush();
            String answer = new String(sock.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            assertTrue(answer.contains("\"code\":\"RequestBodyTooLarge\""), answer);
        }
        // a client that sends the whole body before it reads gets the answer too (the rest is read away)
        for (int i = 0; i < 3; i++) {
            assertError(send("POST", "/devstoreaccount1/limits", big.toString()), 413, "RequestBodyTooLarge");
            assertError(send("POST", "/devstoreaccount1/$batch", batch, "Content-Type", "multipart/mixed; boundary=b"),
                    413, "RequestBodyTooLarge");
        }

        for (String bad : new String[]{"invalid", "2019-02-03", "2019-2-2", "9999-12-31", ""}) {
            HttpResponse<String> r = send("GET", "/devstoreaccount1/Tables", null, "x-ms-version", bad);
            assertError(r, 400, "InvalidHeaderValue");
        }
        HttpResponse<String> old = send("GET", "/devstoreaccount1/Tables", null, "x-ms-version", "2012-02-12");
        assertError(old, 415, "JsonFormatNotSupported");
        for (String good : new String[]{"2013-08-15", "2019-02-02", "2021-12-02", "2025-11-05"}) {
            HttpResponse<String> r = send("GET", "/devstoreaccount1/Tables", null, "x-ms-version", good);
            assertEquals(200, r.statusCode(), good + ": " + r.body());
            assertEquals(good, r.headers().firstValue("x-ms-version").orElse(null), "answered in the version asked");
        }
        assertError(send("GET", "/devstoreaccount1/Tables", null, "Accept", "application/atom+xml"), 415,
                "AtomFormatNotSupported");
        assertError(send("POST", "/devstoreaccount1/Tables", "<entry/>", "Content-Type", "application/atom+xml"), 415,
                "AtomFormatNotSupported");
        HttpResponse<String> traced = send("GET", "/devstoreaccount1/Tables", null, "x-ms-client-request-id", "trace-42");
        assertEquals("trace-42", traced.headers().firstValue("x-ms-client-request-id").orElse(null), "echoed");
    }

    /**
     * Sends the head of a request whose body is {@code body} (its Content-Length), then the body until the server
     * answers: {head of the answer, its body}.
     */
    private String[] tooLarge(String path, String contentType, String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + contentType
                    + "\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes, 0, 1024); // the rest is never needed: the answer comes from the Content-Length
            out.flush();
            s.setSoTimeout((int) io.tetradb.testing.TestTime.patience(java.time.Duration.ofSeconds(30)).toMillis());
            InputStream in = s.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new java.io.EOFException("the answer ends inside its head: " + head);
                }
                head.write(b);
            }
            String text = head.toString(StandardCharsets.US_ASCII);
            Matcher length = Pattern.compile("(?i)content-length: (\\d+)").matcher(text);
            assertTrue(length.find(), text);
            byte[] answer = in.readNBytes(Integer.parseInt(length.group(1)));
            return new String[]{text.trim(), new String(answer, StandardCharsets.UTF_8)};
        }
    }

    // ---- 8: Timestamp's annotation only with full metadata ------------------------------------------------------

    @Test
    void minimalMetadataLeavesTimestampUnannotated() throws Exception {
        freshTable("annot").createEntity(new TableEntity("p", "r").addProperty("When",
                OffsetDateTime.parse("2020-01-01T00:00:00Z")));
        String path = "/devstoreaccount1/annot(PartitionKey='p',RowKey='r')";
        JsonNode minimal = M.readTree(send("GET", path, null, "Accept", "application/json;odata=minimalmetadata").body());
        assertTrue(minimal.has("Timestamp"));
        assertFalse(minimal.has("Timestamp@odata.type"), minimal.toString());
        assertEquals("Edm.DateTime", minimal.path("When@odata.type").asText(), "user DateTimes keep theirs");
        JsonNode page = M.readTree(send("GET", "/devstoreaccount1/annot()", null,
                "Accept", "application/json;odata=minimalmetadata").body()).path("value").get(0);
        assertFalse(page.has("Timestamp@odata.type"), page.toString());
        JsonNode full = M.readTree(send("GET", path, null, "Accept", "application/json;odata=fullmetadata").body());
        assertEquals("Edm.DateTime", full.path("Timestamp@odata.type").asText());
        // the SDK still reads Timestamp as a date
        assertTrue(service.getTableClient("annot").getEntity("p", "r").getTimestamp() != null);
    }

    // ---- 9: $filter -----------------------------------------------------------------------------------------------

    @Test
    void filtersPromoteNumbersAndAcceptTrueFalseAndEmpty() throws Exception {
        TableClient t = freshTable("numbers");
        t.createEntity(new TableEntity("p", "a").addProperty("D", 5.0).addProperty("L", 5L).addProperty("I", 5)
                .addProperty("B", true));
        t.createEntity(new TableEntity("p", "b").addProperty("D", 5.5).addProperty("L", 6L).addProperty("I", 6)
                .addProperty("B", false));
        assertEquals(List.of("a"), rows(t, "D eq 5"), "an Int32 literal against a Double");
        assertEquals(List.of("b"), rows(t, "D gt 5"));
        assertEquals(List.of("a"), rows(t, "D eq 5L"), "an Int64 literal against a Double");
        assertEquals(List.of("a"), rows(t, "L eq 5"), "an Int32 literal against an Int64");
        assertEquals(List.of("a"), rows(t, "L eq 5L"));
        assertEquals(List.of("a"), rows(t, "I eq 5L"), "an Int64 literal against an Int32");
        assertEquals(List.of("b"), rows(t, "I eq 6.0"), "a Double literal against an Int32");
        assertEquals(List.of(), rows(t, "D eq '5'"), "never a string");
        assertEquals(List.of("a"), rows(t, "B eq True"));
        assertEquals(List.of("b"), rows(t, "B eq False"));
        assertEquals(List.of("a", "b"), rows(t, "True"));

        HttpResponse<String> all = send("GET", "/devstoreaccount1/Tables?$filter=", null);
        assertEquals(200, all.statusCode(), all.body());
        assertTrue(all.body().contains("\"numbers\""), all.body());
        HttpResponse<String> entities = send("GET", "/devstoreaccount1/numbers()?$filter=", null);
        assertEquals(200, entities.statusCode(), entities.body());
        assertEquals(2, M.readTree(entities.body()).path("value").size());
    }

    /** The entity with the ETag a conditional update or delete compares with (the SDK keeps it as odata.etag). */
    private static TableEntity etagged(TableEntity e, String etag) {
        e.getProperties().put("odata.etag", etag);
        return e;
    }

    private static List<String> rows(TableClient t, String filter) {
        return t.listEntities(new ListEntitiesOptions().setFilter(filter), null, null).stream()
                .map(TableEntity::getRowKey).collect(Collectors.toList());
    }

    // ---- 10: host-style URLs; repeated SAS parameters -------------------------------------------------------------

    @Test
    void hostStyleAccountUrlsWork() throws Exception {
        int port = server.address().getPort();
        TableServiceClient hostStyle = new TableServiceClientBuilder()
                .endpoint("http://devstoreaccount1.table.localhost:" + port)
                .credential(new AzureNamedKeyCredential("devstoreaccount1", KEY))
                .httpClient(new NettyAsyncHttpClientBuilder(reactor.netty.http.client.HttpClient.create()
                        .resolver(LoopbackResolver.INSTANCE)).build())
                .buildClient();
        hostStyle.createTable("hoststyle");
        assertTrue(hostStyle.listTables().stream().anyMatch(x -> x.getName().equals("hoststyle")));
        TableClient t = hostStyle.getTableClient("hoststyle");
        t.createEntity(new TableEntity("p", "r").addProperty("V", 1));
        t.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "s")),
                new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE, new TableEntity("p", "r")
                        .addProperty("W", 2))));
        TableEntity r = t.getEntity("p", "r");
        assertEquals(2, r.getProperty("W"));
        assertEquals(2, t.listEntities().stream().count());
        // the same table as the path-style URL sees it
        assertEquals(2, service.getTableClient("hoststyle").listEntities().stream().count());

        // by hand: the account only in the Host header; links name the host-style URL
        String[] answer = raw("GET", "devstoreaccount1.table.localhost:" + port, "/hoststyle(PartitionKey='p',RowKey='r')");
        assertTrue(answer[0].startsWith("HTTP/1.1 200"), answer[0]);
        assertEquals("http://devstoreaccount1.table.localhost:" + port + "/$metadata#hoststyle/@Element",
                M.readTree(answer[1]).path("odata.metadata").asText());
        assertTrue(raw("GET", "devstoreaccount1.table.localhost:" + port, "/Tables")[0].startsWith("HTTP/1.1 200"));
        t.deleteEntity("p", "s");
        hostStyle.deleteTable("hoststyle");
    }

    /** A request on a socket with the given Host header, signed with Shared Key: {status line + headers, body}. */
    private String[] raw(String method, String host, String path) throws Exception {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        String sig = Base64.getEncoder().encodeToString(SharedKeyAuth.hmac(Base64.getDecoder().decode(KEY),
                method + "\n\n\n" + date + "\n/devstoreaccount1" + path));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
            OutputStream out = s.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nx-ms-date: " + date
                    + "\r\nx-ms-version: 2019-02-02\r\nAuthorization: SharedKey devstoreaccount1:" + sig
                    + "\r\nAccept: application/json;odata=minimalmetadata\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            return new String[]{text.substring(0, split), text.substring(split + 4)};
        }
    }

    @Test
    void aRepeatedSasParameterIsRefused() throws Exception {
        TableClient owner = freshTable("repeated");
        owner.createEntity(new TableEntity("p", "r"));
        String sas = owner.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                TableSasPermission.parse("r")));
        String sig = java.util.Arrays.stream(sas.split("&")).filter(p -> p.startsWith("sig=")).findFirst().orElseThrow();
        String url = "http://127.0.0.1:" + server.address().getPort() + "/devstoreaccount1/repeated()?" + sas;
        assertEquals(200, unsigned(url).statusCode(), "the SAS itself is valid");
        for (String repeated : new String[]{"&" + sig, "&" + sig.replaceAll("=.*", "=AAAA"), "&sp=r", "&tn=repeated"}) {
            HttpResponse<String> r = unsigned(url + repeated);
            assertEquals(403, r.statusCode(), repeated + ": " + r.body());
            assertEquals("AuthenticationFailed", r.headers().firstValue("x-ms-error-code").orElse(null));
        }
    }

    private HttpResponse<String> unsigned(String url) throws Exception {
        return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                .header("x-ms-version", "2019-02-02").header("Accept", "application/json;odata=nometadata").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Resolves every host name to the loopback address (the test's *.localhost names need no DNS). */
    private static final class LoopbackResolver extends AddressResolverGroup<InetSocketAddress> {
        static final LoopbackResolver INSTANCE = new LoopbackResolver();

        @Override
        protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
            return new InetNameResolver(executor) {
                @Override
                protected void doResolve(String host, Promise<InetAddress> promise) {
                    promise.setSuccess(InetAddress.getLoopbackAddress());
                }

                @Override
                protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                    promise.setSuccess(List.of(InetAddress.getLoopbackAddress()));
                }
            }.asAddressResolver();
        }
    }
}
