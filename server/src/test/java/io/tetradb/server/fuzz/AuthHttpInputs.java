package io.tetradb.server.fuzz;

import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.table.http.AccountKeys;
import io.tetradb.testing.fuzz.HttpFuzzer;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static io.tetradb.server.fuzz.HttpFuzzInputs.cosmosSigned;
import static io.tetradb.server.fuzz.HttpFuzzInputs.hmacBase64;
import static io.tetradb.server.fuzz.HttpFuzzInputs.rfc1123;
import static io.tetradb.server.fuzz.HttpFuzzInputs.tablesSigned;
import static io.tetradb.server.fuzz.HttpFuzzInputs.utf8;
import static io.tetradb.server.fuzz.HttpFuzzInputs.with;

/**
 * HTTP inputs for faces whose credentials are configured: besides {@link HttpFuzzInputs}' requests (signed with the
 * configured keys), the authentication headers a client may mangle — Tables: SharedKey and SharedKeyLite with
 * key1, key2, a wrong key, another account, Azurite's key, a stale date; account and service SAS as the SDK makes
 * them and mangled; Cosmos: the master and read-only keys, the emulator's, a real resource token on its own and on
 * another resource, tokens and signatures cut and padded, stale dates, AAD-looking tokens; the admin routes: HTTP
 * basic with the key, the read-only key, wrong and undecodable passwords, master-key signatures.
 */
final class AuthHttpInputs {
    private AuthHttpInputs() {
    }

    static List<byte[]> tables(String account, String key1, String key2, List<String> sasQueries) {
        List<byte[]> seeds = new ArrayList<>(HttpFuzzInputs.tables(account, key1));
        String tables = "/" + account + "/Tables";
        String entity = "/" + account + "/fuzz(PartitionKey='p',RowKey='r2')";
        seeds.add(HttpFuzzer.request("GET", tables, tablesSigned(account, "GET", tables, key2), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", entity, tablesSigned(account, "GET", entity, key2), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", tables, tablesSigned(account, "GET", tables, AccountKeys.DEV_KEY),
                new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/" + AccountKeys.DEV_ACCOUNT + "/Tables", tablesSigned(
                AccountKeys.DEV_ACCOUNT, "GET", "/" + AccountKeys.DEV_ACCOUNT + "/Tables", AccountKeys.DEV_KEY),
                new byte[0]));
        String lite = "GET\n\n\n" + rfc1123() + "\n/" + account + tables; // not SharedKeyLite's exact form: refused
        seeds.add(HttpFuzzer.request("GET", tables, List.of("x-ms-date: " + rfc1123(), "Authorization: SharedKeyLite "
                + account + ":" + hmacBase64(key1, lite)), new byte[0]));
        String liteRight = rfc1123() + "\n/" + account + tables;
        seeds.add(HttpFuzzer.request("GET", tables, List.of("x-ms-date: " + liteRight.substring(0, liteRight
                .indexOf('\n')), "x-ms-version: 2019-02-02", "Accept: application/json;odata=nometadata",
                "Authorization: SharedKeyLite " + account + ":" + hmacBase64(key1, liteRight)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", tables, List.of("x-ms-date: Thu, 01 Jan 1970 00:00:00 GMT",
                "Authorization: SharedKey " + account + ":" + hmacBase64(key1, "x")), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", tables, List.of("x-ms-date: " + rfc1123(), "Authorization: SharedKey "
                + account), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", tables, List.of("x-ms-date: " + rfc1123(), "Authorization: SharedKey :",
                "Authorization: Bearer eyJhbGciOiJub25lIn0.e30."), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", tables, List.of("x-ms-date: " + rfc1123(), "Authorization: "
                + "SharedKey " + account + ":" + Base64.getEncoder().encodeToString(new byte[4096])), new byte[0]));
        for (String sas : sasQueries) {
            String target = sas.startsWith("/") ? sas : tables + "?" + sas;
            seeds.add(HttpFuzzer.request("GET", target, List.of("Host: 127.0.0.1",
                    "Accept: application/json;odata=nometadata"), new byte[0]));
            seeds.add(HttpFuzzer.request("POST", target.replace("()?", "?"), List.of("Host: 127.0.0.1",
                    "Content-Type: application/json"), utf8("{\"PartitionKey\":\"s\",\"RowKey\":\"a\"}")));
            seeds.add(HttpFuzzer.request("GET", target.replaceAll("sig=[^&]*", "sig=AAAA"), List.of(), new byte[0]));
            seeds.add(HttpFuzzer.request("GET", target.replaceAll("se=[^&]*", "se=2001-01-01T00%3A00%3A00Z"),
                    List.of(), new byte[0]));
            seeds.add(HttpFuzzer.request("GET", target + "&sp=rwdau&sig=%%%", List.of(), new byte[0]));
        }
        return seeds;
    }

    static List<byte[]> cosmos(String key, String readOnlyKey, String resourceToken, String tokenPath) {
        List<byte[]> seeds = new ArrayList<>(HttpFuzzInputs.cosmos(key));
        String docs = "/dbs/cosmosfuzz/colls/c/docs";
        String pk = "x-ms-documentdb-partitionkey: [\"p1\"]";
        seeds.add(HttpFuzzer.request("GET", docs + "/d1", with(cosmosSigned("GET", docs + "/d1", readOnlyKey), pk),
                new byte[0]));
        seeds.add(HttpFuzzer.request("POST", docs, with(cosmosSigned("POST", docs, readOnlyKey), pk),
                utf8("{\"id\":\"ro\",\"pk\":\"p1\"}")));
        seeds.add(HttpFuzzer.request("GET", "/dbs", cosmosSigned("GET", "/dbs", CosmosRestOptions.EMULATOR_KEY),
                new byte[0]));
        String encodedToken = URLEncoder.encode(resourceToken, StandardCharsets.UTF_8);
        List<String> token = List.of("x-ms-date: " + rfc1123(), "x-ms-version: 2020-07-15", pk,
                "authorization: " + encodedToken);
        seeds.add(HttpFuzzer.request("GET", tokenPath, token, new byte[0]));
        seeds.add(HttpFuzzer.request("GET", tokenPath, token, new byte[0]));
        seeds.add(HttpFuzzer.request("POST", docs, token, utf8("{\"id\":\"t\",\"pk\":\"p1\"}")));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: " + rfc1123(), "authorization: "
                + encodedToken.substring(0, encodedToken.length() / 2)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", tokenPath, List.of("x-ms-date: " + rfc1123(), pk, "authorization: "
                + encodedToken + encodedToken), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", tokenPath, List.of("x-ms-date: " + rfc1123(), pk, "authorization: "
                + URLEncoder.encode(resourceToken.replace("sig=", "sig=AA"), StandardCharsets.UTF_8)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: Thu, 01 Jan 1970 00:00:00 GMT",
                cosmosSigned("GET", "/dbs", key).get(4)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: " + rfc1123(), "authorization: "
                + URLEncoder.encode("type=aad&ver=1.0&sig=eyJhbGciOiJub25lIn0.e30.", StandardCharsets.UTF_8)),
                new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: " + rfc1123(), "authorization: "
                + URLEncoder.encode("type=master&ver=1.0&sig=", StandardCharsets.UTF_8)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: " + rfc1123(), "authorization: "
                + "type%3Dmaster%26ver%3D1.0%26sig%3D" + "%".repeat(3000)), new byte[0]));
        return seeds;
    }

    /** The admin routes ({@code /health}, {@code /api/...}, {@code /partitions}, {@code /metrics}). */
    static List<byte[]> admin(String key, String readOnlyKey) {
        List<byte[]> seeds = new ArrayList<>();
        List<String> paths = List.of("/health", "/api/partitions", "/partitions", "/api/metrics", "/metrics",
                "/partitions-chart.js", "/", "/api/partitions?db=x&coll=y", "/%2e%2e/%2e%2e/etc/passwd");
        for (String path : paths) {
            seeds.add(HttpFuzzer.request("GET", path, List.of("Host: localhost", basic("admin", key)), new byte[0]));
            seeds.add(HttpFuzzer.request("GET", path, List.of("Host: localhost"), new byte[0]));
        }
        seeds.add(HttpFuzzer.request("GET", "/health", List.of(basic("", readOnlyKey)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/health", List.of(basic("admin", "wrong")), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/health", List.of("Authorization: Basic %%%notbase64"), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/health", List.of("Authorization: Basic "
                + Base64.getEncoder().encodeToString("no colon".getBytes(StandardCharsets.UTF_8))), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/health", List.of("Authorization: Basic "
                + Base64.getEncoder().encodeToString(new byte[6000])), new byte[0]));
        String date = rfc1123();
        String payload = "get\n\n\n" + date.toLowerCase(java.util.Locale.ROOT) + "\n\n";
        seeds.add(HttpFuzzer.request("GET", "/api/partitions", List.of("x-ms-date: " + date, "Authorization: "
                + URLEncoder.encode("type=master&ver=1.0&sig=" + hmacBase64(key, payload), StandardCharsets.UTF_8)),
                new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/api/partitions", List.of("x-ms-date: " + date, "Authorization: "
                + URLEncoder.encode("type=master&ver=1.0&sig=" + hmacBase64(readOnlyKey, payload),
                StandardCharsets.UTF_8)), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/api/partitions", List.of("x-ms-date: yesterday", "Authorization: "
                + "type=master&ver=1.0&sig=" + hmacBase64(key, "x")), new byte[0]));
        seeds.add(HttpFuzzer.request("POST", "/health", List.of(basic("admin", key), "Content-Type: application/json"),
                utf8(HttpFuzzer.deepJson(10_000))));
        seeds.addAll(HttpFuzzer.oversizedDeclarations("POST", "/api/partitions", List.of(basic("admin", key))));
        return seeds;
    }

    static String basic(String user, String password) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }
}
