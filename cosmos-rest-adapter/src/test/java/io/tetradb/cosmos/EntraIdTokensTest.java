package io.tetradb.cosmos;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Microsoft Entra ID tokens ({@code type=aad}) are refused on purpose with a 401 that says why and what to use
 * instead: the server has no tenant to validate a JWT against and no role assignments to authorize it, and taking
 * one unchecked would let anyone in. The SDK's {@code credential(TokenCredential)} client gets that answer.
 */
class EntraIdTokensTest extends ServerFixture {

    @Test
    void anAadTokenIs401WithTheReason() throws Exception {
        String jwt = "eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL2xvY2FsaG9zdCIsIm9pZCI6ImEifQ.c2ln";
        RawClient raw = new RawClient(endpoint(), null);
        RawClient.Answer a = raw.send("GET", "/dbs", null, Map.of("authorization",
                URLEncoder.encode("type=aad&ver=1.0&sig=" + jwt, StandardCharsets.UTF_8)));
        assertEquals(401, a.status(), a.text());
        assertEquals("Unauthorized", a.json().get("code").asText());
        assertTrue(a.json().get("message").asText().contains("Entra ID tokens (type=aad) are not accepted"),
                a.text());
        RawClient.Answer other = raw.send("GET", "/dbs", null, Map.of("authorization", "type=kerberos&ver=1.0&sig=x"));
        assertEquals(401, other.status(), other.text());

        AtomicInteger asked = new AtomicInteger();
        TokenCredential credential = request -> {
            asked.incrementAndGet();
            return Mono.just(new AccessToken(jwt, OffsetDateTime.now().plusHours(1)));
        };
        RuntimeException e = assertThrows(RuntimeException.class, () -> {
            try (CosmosClient c = new CosmosClientBuilder().endpoint(endpoint()).credential(credential).gatewayMode()
                    .buildClient()) {
                c.readAllDatabases().stream().count();
            }
        });
        assertTrue(asked.get() > 0, "the SDK asked its credential for a token");
        StringBuilder chain = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            chain.append(t).append('\n');
        }
        assertTrue(chain.toString().contains("type=aad") && chain.toString().contains("401"), chain.toString());
        // the endpoint keeps serving key-signed requests
        assertTrue(sdk.readAllDatabases().stream().count() >= 0);
    }
}
