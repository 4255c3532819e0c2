package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.tetradb.core.net.NettyTransport;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * mongo-net: the face serves on Netty's native epoll transport on Linux (x86-64 and AArch64: the module carries both
 * native libraries), and on NIO when that is asked for (as where no native library loads); the driver is served the
 * same on both.
 */
class NettyTransportFaceTest {
    @TempDir
    Path dataDir;

    @Test
    void nativeEpollOnLinuxAndNioWhenAsked() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        NettyTransport expected = os.contains("linux") && (arch.equals("amd64") || arch.equals("aarch64"))
                ? NettyTransport.EPOLL : os.contains("mac") ? NettyTransport.KQUEUE : NettyTransport.NIO;
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dataDir).buildClient()) {
            assertEquals(expected, serveAndCheck(store, 1));
            String before = System.getProperty(NettyTransport.PROPERTY);
            System.setProperty(NettyTransport.PROPERTY, "nio");
            try {
                assertEquals(NettyTransport.NIO, serveAndCheck(store, 2));
            } finally {
                if (before == null) {
                    System.clearProperty(NettyTransport.PROPERTY);
                } else {
                    System.setProperty(NettyTransport.PROPERTY, before);
                }
            }
        }
    }

    /** Starts a server, inserts and reads back through the driver (a point find on the event loop too). */
    private static NettyTransport serveAndCheck(CosmosClient store, int round) {
        MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
        try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + server.address().getPort()
                + "/?directConnection=true")) {
            MongoCollection<Document> c = client.getDatabase("t").getCollection("c");
            for (int i = 0; i < 50; i++) {
                c.insertOne(new Document("_id", round * 1000 + i).append("n", i).append("s", "x".repeat(i * 100)));
            }
            for (int i = 0; i < 50; i++) {
                Document d = c.find(Filters.eq("_id", round * 1000 + i)).first();
                assertEquals(i, d.getInteger("n"));
                assertEquals(i * 100, d.getString("s").length());
            }
            assertEquals(50, c.countDocuments(Filters.gte("_id", round * 1000)));
            return server.transport();
        } finally {
            server.close();
        }
    }
}
