package io.tetradb.cosmos;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Routes the embedding server mounts on the Cosmos port (health, admin pages) are served beside the Cosmos API. */
class ExtraRoutesTest extends ServerFixture {
    @Override
    CosmosRestOptions options() {
        return CosmosRestOptions.defaults()
                .withRoute("/health", r -> new CosmosRoute.Response(200, "text/plain",
                        "ok".getBytes(StandardCharsets.UTF_8)))
                .withRoute("/api/*", r -> new CosmosRoute.Response(200, "application/json",
                        ("{\"path\":\"" + r.path() + "\",\"query\":\"" + r.query() + "\"}")
                                .getBytes(StandardCharsets.UTF_8), Map.of("x-extra", "1")))
                .withRoute("/boom", r -> {
                    throw new IllegalStateException("broken route");
                })
                .withRoute("/_explorer/*", r -> new CosmosRoute.Response(200, "text/plain",
                        ("page " + r.path()).getBytes(StandardCharsets.UTF_8)))
                .withCertificatePem("-----PEM-----".getBytes(StandardCharsets.UTF_8))
                .withBrowserHome("/_explorer/");
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint() + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aBrowserOpeningTheRootIsSentToTheExplorerAndTheSdksStillGetTheAccount() throws Exception {
        HttpResponse<String> browser = get("/", "Accept", "text/html,application/xhtml+xml,*/*;q=0.8");
        assertEquals(302, browser.statusCode());
        assertEquals("/_explorer/", browser.headers().firstValue("location").orElse(null));
        // signed (however badly) or asking for JSON: the Cosmos account route answers, not the redirect
        assertEquals(401, get("/", "Accept", "text/html", "authorization", "type%3Dmaster%26ver%3D1.0%26sig%3Dx")
                .statusCode());
        assertEquals(401, get("/", "Accept", "application/json").statusCode());
        // the SDK (built by the fixture, which reads the signed account at /) keeps working
        sdk.createDatabaseIfNotExists("browserhome");
        assertEquals(1, sdk.readAllDatabases().stream().filter(d -> d.getId().equals("browserhome")).count());
        // the certificate stays where the emulator serves it, even with a route mounted under /_explorer/*
        HttpResponse<String> pem = get("/_explorer/emulator.pem");
        assertEquals(200, pem.statusCode());
        assertEquals("-----PEM-----", pem.body());
        assertEquals("page /_explorer/index.html", get("/_explorer/index.html").body());
    }

    @Test
    void extraRoutesNeedNoCosmosAuthAndCosmosRoutesStillDo() throws Exception {
        HttpResponse<String> health = get("/health");
        assertEquals(200, health.statusCode());
        assertEquals("ok", health.body());
        HttpResponse<String> api = get("/api/partitions?db=x");
        assertEquals(200, api.statusCode());
        assertEquals("{\"path\":\"/api/partitions\",\"query\":\"db=x\"}", api.body());
        assertEquals("1", api.headers().firstValue("x-extra").orElse(null));
        HttpResponse<String> boom = get("/boom");
        assertEquals(500, boom.statusCode());
        assertTrue(boom.body().contains("\"code\""), boom.body());
        assertEquals(401, get("/dbs").statusCode());
        assertEquals(0, sdk.readAllDatabases().stream().filter(d -> d.getId().equals("health")).count());
    }
}
