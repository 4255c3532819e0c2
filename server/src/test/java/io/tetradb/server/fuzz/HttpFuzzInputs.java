package io.tetradb.server.fuzz;

import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.table.http.AccountKeys;
import io.tetradb.testing.fuzz.HttpFuzzer;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * The Tables and Cosmos REST inputs the fuzz mutates (the same kinds as table-adapter's {@code TablesFuzzTest} and
 * cosmos-rest-adapter's {@code CosmosRestFuzzTest}): correctly signed requests, 10,000 levels of JSON, bad UTF-8,
 * wrong keys and garbage signatures, lengths and chunk sizes far over the limits. Signed with the current time, so a
 * long run asks for them again every so often (the faces refuse dates more than 15 minutes off).
 */
final class HttpFuzzInputs {
    private HttpFuzzInputs() {
    }

    static List<byte[]> tables() {
        return tables(AccountKeys.DEV_ACCOUNT, AccountKeys.DEV_KEY);
    }

    /** The same for this account and key (a server with configured accounts). */
    static List<byte[]> tables(String account, String key) {
        String wrongKey = Base64.getEncoder().encodeToString(new byte[64]);
        String table = "/" + account + "/fuzz";
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(HttpFuzzer.request("POST", "/" + account + "/Tables", tablesSigned(account, "POST",
                "/" + account + "/Tables", key), utf8("{\"TableName\":\"fuzzmore\"}")));
        seeds.add(HttpFuzzer.request("POST", table, tablesSigned(account, "POST", table, key),
                utf8("{\"PartitionKey\":\"p\",\"RowKey\":\"r1\",\"n\":5,\"d\":\"2024-01-01T00:00:00Z\","
                        + "\"d@odata.type\":\"Edm.DateTime\",\"s\":\"é\"}")));
        String entity = table + "(PartitionKey='p',RowKey='r2')";
        seeds.add(HttpFuzzer.request("PUT", entity, tablesSigned(account, "PUT", entity, key), utf8("{\"x\":1.5,\"b\":true}")));
        String query = table + "()?$filter=n%20ge%203%20and%20s%20ne%20'x'&$top=5";
        seeds.add(HttpFuzzer.request("GET", query, tablesSigned(account, "GET", query, key), new byte[0]));
        seeds.add(HttpFuzzer.request("POST", table, tablesSigned(account, "POST", table, key), utf8("{\"PartitionKey\":\"p\","
                + "\"RowKey\":\"deep\",\"x\":" + HttpFuzzer.deepJson(10_000) + "}")));
        byte[] badUtf8 = utf8("{\"PartitionKey\":\"p\",\"RowKey\":\"u\",\"s\":\"xx\"}");
        badUtf8[badUtf8.length - 4] = (byte) 0xed;
        badUtf8[badUtf8.length - 3] = (byte) 0xa0;
        seeds.add(HttpFuzzer.request("POST", table, tablesSigned(account, "POST", table, key), badUtf8));
        String batchBody = "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\n"
                + "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nPOST http://127.0.0.1"
                + table + " HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{\"PartitionKey\":\"b\",\"RowKey\":\"1\"}"
                + "\r\n--changeset_1--\r\n--batch_1--\r\n";
        List<String> batchHeaders = new ArrayList<>(tablesSigned(account, "POST", "/" + account + "/$batch", key));
        batchHeaders.set(3, "Content-Type: multipart/mixed; boundary=batch_1");
        seeds.add(HttpFuzzer.request("POST", "/" + account + "/$batch", batchHeaders, utf8(batchBody)));
        seeds.add(HttpFuzzer.request("GET", "/" + account + "/Tables", tablesSigned(account, "GET", "/" + account + "/Tables",
                wrongKey), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/" + account + "/Tables", List.of("Authorization: SharedKey "
                + account + ":!!!notbase64!!!", "x-ms-date: yesterday"), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/" + account + "/Tables", List.of("Authorization: SharedKeyLite "
                + account + ":" + "A".repeat(5000)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/" + account + "/Tables?sv=2019-02-02&ss=t&srt=sco&sp=rwdlacu"
                + "&se=9999-01-01T00:00:00Z&sig=%FF%FE", List.of("Host: 127.0.0.1"), new byte[0]));
        seeds.addAll(HttpFuzzer.oversizedDeclarations("POST", table, tablesSigned(account, "POST", table, key)));
        return seeds;
    }

    static List<byte[]> cosmos() {
        return cosmos(CosmosRestOptions.EMULATOR_KEY);
    }

    /** The same signed with this master key (a server with its own key). */
    static List<byte[]> cosmos(String key) {
        String docs = "/dbs/cosmosfuzz/colls/c/docs";
        String wrongKey = "dGhpcyBpcyBub3QgdGhlIGtleSB5b3UgYXJlIGxvb2tpbmcgZm9y";
        String pk = "x-ms-documentdb-partitionkey: [\"p1\"]";
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(HttpFuzzer.request("POST", docs, with(cosmosSigned("POST", docs, key), pk),
                utf8("{\"id\":\"d1\",\"pk\":\"p1\",\"n\":[1,2,{\"x\":\"é\"}]}")));
        seeds.add(HttpFuzzer.request("POST", docs, with(cosmosSigned("POST", docs, key), pk,
                "x-ms-documentdb-is-upsert: true"), utf8("{\"id\":\"d2\",\"pk\":\"p1\",\"s\":\"text\"}")));
        seeds.add(HttpFuzzer.request("POST", docs, with(cosmosSigned("POST", docs, key),
                "x-ms-documentdb-isquery: true", "x-ms-documentdb-query-enablecrosspartition: true",
                "Content-Type: application/query+json"), utf8("{\"query\":\"SELECT c.pk, COUNT(1) AS n FROM c "
                + "WHERE c.n[0] >= @v GROUP BY c.pk\",\"parameters\":[{\"name\":\"@v\",\"value\":1}]}")));
        seeds.add(HttpFuzzer.request("GET", docs + "/d1", with(cosmosSigned("GET", docs + "/d1", key), pk),
                new byte[0]));
        seeds.add(HttpFuzzer.request("POST", "/dbs", cosmosSigned("POST", "/dbs", key),
                utf8("{\"id\":\"cosmosfuzzdb\"}")));
        seeds.add(HttpFuzzer.request("POST", docs, with(cosmosSigned("POST", docs, key), pk),
                utf8("{\"id\":\"deep\",\"pk\":\"p1\",\"d\":" + HttpFuzzer.deepJson(10_000) + "}")));
        byte[] badUtf8 = utf8("{\"id\":\"u\",\"pk\":\"p1\",\"s\":\"xx\"}");
        badUtf8[badUtf8.length - 4] = (byte) 0xc0;
        badUtf8[badUtf8.length - 3] = (byte) 0x80;
        seeds.add(HttpFuzzer.request("POST", docs, with(cosmosSigned("POST", docs, key), pk), badUtf8));
        seeds.add(HttpFuzzer.request("GET", "/dbs", cosmosSigned("GET", "/dbs", wrongKey), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: " + rfc1123(),
                "authorization: type%3Dmaster%26ver%3D1.0%26sig%3D%%%%%%"), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: Mon, 99 Foo 9999 99:99:99 GMT",
                "authorization: type=resource&ver=1.0&sig=" + "A".repeat(4096)), new byte[0]));
        seeds.addAll(HttpFuzzer.oversizedDeclarations("POST", docs, with(cosmosSigned("POST", docs, key), pk)));
        return seeds;
    }

    /** Shared Key for the path-style Tables endpoint, as the Azure SDKs sign it. */
    static List<String> tablesSigned(String account, String method, String path, String key) {
        String date = rfc1123();
        int q = path.indexOf('?');
        String canonical = "/" + account + (q < 0 ? path : path.substring(0, q));
        String toSign = method + "\n\napplication/json\n" + date + "\n" + canonical;
        return List.of("Host: 127.0.0.1", "x-ms-date: " + date, "x-ms-version: 2019-02-02",
                "Content-Type: application/json", "Accept: application/json;odata=nometadata",
                "Authorization: SharedKey " + account + ":" + hmacBase64(key, toSign));
    }

    /** A Cosmos master-key signature over a name-based path, as the SDKs compute it. */
    static List<String> cosmosSigned(String method, String path, String key) {
        String date = rfc1123();
        List<String> s = new ArrayList<>(List.of(path.substring(1).split("/")));
        int n = s.size();
        String type = n % 2 == 1 ? s.get(n - 1) : s.get(n - 2);
        String link = String.join("/", n % 2 == 1 ? s.subList(0, n - 1) : s);
        String payload = method.toLowerCase(Locale.ROOT) + "\n" + type.toLowerCase(Locale.ROOT) + "\n" + link + "\n"
                + date.toLowerCase(Locale.ROOT) + "\n\n";
        String auth = URLEncoder.encode("type=master&ver=1.0&sig=" + hmacBase64(key, payload), StandardCharsets.UTF_8);
        return List.of("Host: localhost", "x-ms-date: " + date, "x-ms-version: 2020-07-15",
                "Content-Type: application/json", "authorization: " + auth);
    }

    static String hmacBase64(String base64Key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(base64Key), "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> with(List<String> headers, String... more) {
        List<String> h = new ArrayList<>(headers);
        h.addAll(List.of(more));
        return h;
    }

    static String rfc1123() {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
