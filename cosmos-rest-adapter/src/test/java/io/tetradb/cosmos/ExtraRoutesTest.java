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
                });
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(endpoint() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
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
