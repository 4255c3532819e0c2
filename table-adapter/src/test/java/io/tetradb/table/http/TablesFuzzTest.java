package io.tetradb.table.http;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.HttpFuzzer;
import io.tetradb.testing.fuzz.MemoryProbe;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Tables face under hostile input: Shared Key signed requests (create table, insert, upsert, query, batch)
 * mutated and truncated, Content-Length and chunk sizes over the 4 MiB limit, 10,000 levels of JSON, bad UTF-8, and
 * SharedKey/SharedKeyLite headers that are garbage, unsigned or signed with the wrong key. The Azure Tables SDK must
 * keep working, the canary table must read back unchanged, no connection may hang, the heap after GC stays flat.
 * Long form: {@code mvn -pl table-adapter verify -Dtest=TablesFuzzTest -Dtetradb.fuzz.inputs=1000000}.
 */
class TablesFuzzTest extends SdkTestBase {

    @Test
    void hostileRequestsNeitherCrashNorHangNorLeak() throws Exception {
        service.createTableIfNotExists("fuzz");
        TableClient canary = service.createTableIfNotExists("canary");
        for (int i = 0; i < 30; i++) {
            canary.upsertEntity(new TableEntity("p" + (i % 3), "r" + i).addProperty("v", "canary-" + i));
        }
        List<String> before = rows(canary);

        TableClient alive = service.getTableClient("fuzz");
        FuzzTally tally = HttpFuzzer.run("tables", new InetSocketAddress("127.0.0.1", server.address().getPort()),
                seeds(), FuzzSettings.fromSystemProperties(),
                () -> alive.upsertEntity(new TableEntity("alive", "1").addProperty("ok", true)));
        long heapAfter = MemoryProbe.heapUsedAfterGc();

        assertTrue(tally.hangs().isEmpty(), "hangs: " + tally.hangs());
        assertEquals(before, rows(canary), "the canary data is unchanged");
        assertTrue(heapAfter - tally.heapBefore() < 64L * 1024 * 1024, "live heap grew by "
                + (heapAfter - tally.heapBefore()) / (1024 * 1024) + " MB");
    }

    @Test
    void aChunkedBodyOverFourMegabytesIs413BeforeItIsAggregated() throws Exception {
        service.createTableIfNotExists("fuzz");
        String table = "/devstoreaccount1/fuzz";
        StringBuilder head = new StringBuilder("POST " + table + " HTTP/1.1\r\n");
        for (String h : signed("POST", table, KEY)) {
            head.append(h).append("\r\n");
        }
        String answer = io.tetradb.testing.fuzz.ChunkedFlood.send(new InetSocketAddress("127.0.0.1",
                server.address().getPort()), head.toString(), 64L * 1024 * 1024);
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        assertTrue(answer.contains("RequestBodyTooLarge"), answer);
    }

    private static List<String> rows(TableClient table) {
        List<String> rows = new ArrayList<>();
        table.listEntities().forEach(e -> rows.add(e.getPartitionKey() + "/" + e.getRowKey() + "="
                + new TreeMap<>(e.getProperties()).toString().replaceAll("Timestamp=[^,}]*", "")));
        return rows;
    }

    private static List<String> signed(String method, String path, String key) {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        int q = path.indexOf('?');
        String canonical = "/devstoreaccount1" + (q < 0 ? path : path.substring(0, q));
        String toSign = method + "\n\napplication/json\n" + date + "\n" + canonical;
        String sig = Base64.getEncoder().encodeToString(SharedKeyAuth.hmac(Base64.getDecoder().decode(key), toSign));
        return List.of("Host: 127.0.0.1", "x-ms-date: " + date, "x-ms-version: 2019-02-02",
                "Content-Type: application/json", "Accept: application/json;odata=nometadata",
                "Authorization: SharedKey devstoreaccount1:" + sig);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<byte[]> seeds() {
        String wrongKey = Base64.getEncoder().encodeToString(new byte[64]);
        String table = "/devstoreaccount1/fuzz";
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(HttpFuzzer.request("POST", "/devstoreaccount1/Tables", signed("POST", "/devstoreaccount1/Tables", KEY),
                utf8("{\"TableName\":\"fuzzmore\"}")));
        seeds.add(HttpFuzzer.request("POST", table, signed("POST", table, KEY),
                utf8("{\"PartitionKey\":\"p\",\"RowKey\":\"r1\",\"n\":5,\"d\":\"2024-01-01T00:00:00Z\","
                        + "\"d@odata.type\":\"Edm.DateTime\",\"s\":\"é\"}")));
        String entity = table + "(PartitionKey='p',RowKey='r2')";
        seeds.add(HttpFuzzer.request("PUT", entity, signed("PUT", entity, KEY), utf8("{\"x\":1.5,\"b\":true}")));
        String query = table + "()?$filter=n%20ge%203%20and%20s%20ne%20'x'&$top=5";
        seeds.add(HttpFuzzer.request("GET", query, signed("GET", query, KEY), new byte[0]));
        seeds.add(HttpFuzzer.request("POST", table, signed("POST", table, KEY), utf8("{\"PartitionKey\":\"p\","
                + "\"RowKey\":\"deep\",\"x\":" + HttpFuzzer.deepJson(10_000) + "}")));
        byte[] badUtf8 = utf8("{\"PartitionKey\":\"p\",\"RowKey\":\"u\",\"s\":\"xx\"}");
        badUtf8[badUtf8.length - 4] = (byte) 0xed;
        badUtf8[badUtf8.length - 3] = (byte) 0xa0;
        seeds.add(HttpFuzzer.request("POST", table, signed("POST", table, KEY), badUtf8));
        String batchBody = "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\n"
                + "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nPOST http://127.0.0.1"
                + table + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{\"PartitionKey\":\"b\",\"RowKey\":\"1\"}"
                + "\r\n--changeset_1--\r\n--batch_1--\r\n";
        List<String> batchHeaders = new ArrayList<>(signed("POST", "/devstoreaccount1/$batch", KEY));
        batchHeaders.set(3, "Content-Type: multipart/mixed; boundary=batch_1");
        seeds.add(HttpFuzzer.request("POST", "/devstoreaccount1/$batch", batchHeaders, utf8(batchBody)));
        // bad credentials: the wrong key, garbage signatures, SharedKeyLite with no date, a SAS that is not one
        seeds.add(HttpFuzzer.request("GET", "/devstoreaccount1/Tables", signed("GET", "/devstoreaccount1/Tables",
                wrongKey), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/devstoreaccount1/Tables", List.of("Authorization: SharedKey "
                + "devstoreaccount1:!!!notbase64!!!", "x-ms-date: yesterday"), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/devstoreaccount1/Tables", List.of("Authorization: SharedKeyLite "
                + "devstoreaccount1:" + "A".repeat(5000)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/devstoreaccount1/Tables?sv=2019-02-02&ss=t&srt=sco&sp=rwdlacu"
                + "&se=9999-01-01T00:00:00Z&sig=%FF%FE", List.of("Host: 127.0.0.1"), new byte[0]));
        seeds.addAll(HttpFuzzer.oversizedDeclarations("POST", table, signed("POST", table, KEY)));
        return seeds;
    }
}
