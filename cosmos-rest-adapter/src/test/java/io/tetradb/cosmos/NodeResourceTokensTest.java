package io.tetradb.cosmos;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PermissionMode;
import io.tetradb.core.ttl.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code @azure/cosmos} 4.10.1 with resource tokens ({@code src/test/resources/node/cosmos-tokens.mjs}): the master
 * key manages users and permissions, {@code resourceTokens} and {@code permissionFeed} clients read what they may and
 * get 403 elsewhere, an expired (made here, then the server's clock moved past it) or tampered token is 401, the
 * read-only key cannot create users or permissions, a deleted permission's token stops working.
 */
class NodeResourceTokensTest extends ServerFixture {
    final ManualClock manual = new ManualClock();

    @Override
    Clock clock() {
        return manual;
    }

    @Override
    CosmosRestOptions options() {
        return CosmosRestOptions.defaults().withReadOnlyKey(AuthTest.READ_ONLY_KEY);
    }

    @Test
    void nodeSdkWithResourceTokens() throws Exception {
        String db = unique("expiring");
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer("c", "/pk");
        sdk.getDatabase(db).createUser(new CosmosUserProperties().setId("dave"));
        String expired;
        try (CosmosAsyncClient admin = new CosmosClientBuilder().endpoint(endpoint()).key(KEY).gatewayMode()
                .buildAsyncClient()) {
            expired = admin.getDatabase(db).getUser("dave").createPermission(new CosmosPermissionProperties()
                    .setId("p").setPermissionMode(PermissionMode.READ).setContainerName("c"), null).block()
                    .getProperties().getToken();
        }
        manual.advance(Duration.ofSeconds(ResourceTokens.DEFAULT_SECONDS + 1));
        String out = NodeSdkTest.runScript("cosmos-tokens.mjs", Map.of(), endpoint(), KEY, AuthTest.READ_ONLY_KEY,
                expired, "dbs/" + db + "/colls/c");
        assertTrue(out.contains("OK node tokens"), out);
    }
}
