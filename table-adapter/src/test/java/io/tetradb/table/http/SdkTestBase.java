package io.tetradb.table.http;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.core.storage.Durability;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A running TableHttpServer on a free port over a fresh store, and the official SDK pointed at it. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SdkTestBase {
    static final String KEY = SharedKeyAuth.DEV_KEY;
    Path dir;
    CosmosClient cosmos;
    TableHttpServer server;
    TableServiceClient service;

    @BeforeAll
    void startServer() throws Exception {
        dir = Files.createTempDirectory("tables-sdk");
        cosmos = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC).buildClient();
        server = TableHttpServer.start(InetAddress.getLoopbackAddress(), 0, cosmos);
        service = new TableServiceClientBuilder().connectionString(connectionString(KEY)).buildClient();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.address().getPort() + "/devstoreaccount1";
    }

    String connectionString(String key) {
        return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + key
                + ";TableEndpoint=" + endpoint() + ";";
    }

    TableClient freshTable(String name) {
        service.createTable(name);
        return service.getTableClient(name);
    }

    @AfterAll
    void stopServer() throws Exception {
        server.close();
        cosmos.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
