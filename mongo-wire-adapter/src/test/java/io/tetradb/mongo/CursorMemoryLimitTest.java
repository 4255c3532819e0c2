package io.tetradb.mongo;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.auth.MongoUsers;
import io.tetradb.mongo.command.CursorLimits;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The open cursors' memory is bounded in bytes, not only in number: with a 4 MiB limit and 10 KB documents, a client
 * that leaves cursors open (each holding the rest of its first page, about 1 MB) gets ExceededMemoryLimit (146) with
 * a message naming the limit, as does a sorted find whose whole sorted result would be held; meanwhile the server
 * answers another client's pings, single-batch finds and writes, cursors already open keep reading, and once cursors
 * are read to the end or closed their bytes are free again. Through the MongoDB Java driver.
 */
class CursorMemoryLimitTest {
    static final long LIMIT = 4L * 1024 * 1024;
    static final int DOCUMENTS = 300;

    static CosmosClient store;
    static MongoWireServer server;
    static MongoClient hoarder;
    static MongoClient other;

    @org.junit.jupiter.api.io.TempDir
    static java.nio.file.Path dataDir;

    @BeforeAll
    static void start() {
        store = new CosmosClientBuilder().dataDirectory(dataDir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store, MongoUsers.none(),
                ConnectionLimits.defaults(), null, CursorLimits.defaults().withMaxBytes(LIMIT));
        hoarder = connect();
        other = connect();
        MongoCollection<Document> big = hoarder.getDatabase("mem").getCollection("big");
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < DOCUMENTS; i++) {
            docs.add(new Document("_id", i).append("n", i).append("pad", "x".repeat(10_000)));
        }
        big.insertMany(docs);
        hoarder.getDatabase("mem").getCollection("small").insertMany(List.of(new Document("_id", 1),
                new Document("_id", 2), new Document("_id", 3)));
    }

    @AfterAll
    static void stop() {
        for (MongoClient c : new MongoClient[] {hoarder, other}) {
            if (c != null) {
                c.close();
            }
        }
        if (server != null) {
            server.close();
        }
        if (store != null) {
            store.close();
        }
    }

    static MongoCollection<Document> big(MongoClient c) {
        return c.getDatabase("mem").getCollection("big");
    }

    static void assertExceeded(Executable call) {
        MongoServerException e = assertThrows(MongoServerException.class, call);
        assertEquals(146, e.getCode(), e.getMessage());
        assertEquals("ExceededMemoryLimit", e.getErrorCodeName(), e.getMessage());
        assertTrue(e.getMessage().contains("limit of " + LIMIT + " bytes for open cursors"), e.getMessage());
    }

    static int readToEnd(MongoCursor<Document> cursor, int alreadyRead) {
        int n = alreadyRead;
        while (cursor.hasNext()) {
            cursor.next();
            n++;
        }
        return n;
    }

    static MongoClient connect() {
        return PatientDriver.client(server);
    }

    @Test
    void manyLargeOpenCursorsGetTheClearErrorAndOthersAreServed() {
        List<MongoCursor<Document>> open = new ArrayList<>();
        MongoServerException refused = null;
        for (int i = 0; i < 20 && refused == null; i++) {
            try {
                MongoCursor<Document> cursor = big(hoarder).find().batchSize(1).iterator();
                cursor.next();
                open.add(cursor);
            } catch (MongoServerException e) {
                refused = e;
            }
        }
        assertTrue(refused != null, "20 cursors of about 1 MB each were all kept open under a 4 MiB limit");
        MongoServerException finalRefused = refused;
        assertExceeded(() -> {
            throw finalRefused;
        });
        assertTrue(open.size() >= 2 && open.size() <= 4, "cursors opened before the limit: " + open.size());

        // the server stays up: pings, single-batch reads, writes and the hoarder's own commands are served
        assertEquals(1.0, other.getDatabase("admin").runCommand(new Document("ping", 1)).get("ok", Number.class)
                .doubleValue());
        assertEquals(3, other.getDatabase("mem").getCollection("small").find().into(new ArrayList<>()).size());
        assertEquals(7, big(other).find(new Document("_id", 7)).first().getInteger("n"));
        other.getDatabase("mem").getCollection("small").insertOne(new Document("_id", 4));
        assertEquals(DOCUMENTS, big(hoarder).countDocuments());
        // a cursor of anyone needing more is refused while the limit is taken
        assertExceeded(() -> big(other).find().batchSize(1).iterator().next());

        // the hoarder closes all but one: the other client's cursor opens and reads everything
        for (MongoCursor<Document> c : open.subList(1, open.size())) {
            c.close();
        }
        try (MongoCursor<Document> cursor = big(other).find().batchSize(1).iterator()) {
            assertEquals(DOCUMENTS, readToEnd(cursor, 0));
        }
        // the cursor left open kept its place and reads to the end
        assertEquals(DOCUMENTS, readToEnd(open.get(0), 1));

        // all bytes are free again: as many cursors open as the first time
        List<MongoCursor<Document>> again = new ArrayList<>();
        for (int i = 0; i < open.size(); i++) {
            MongoCursor<Document> cursor = big(hoarder).find().batchSize(1).iterator();
            cursor.next();
            again.add(cursor);
        }
        again.forEach(MongoCursor::close);
    }

    @Test
    void aSortedResultIsHeldWholeAndCountsAsSuch() {
        // 200 documents of 10 KB sorted in memory (about 3 MB as BSON): held by the first cursor, so a second is refused
        Document under200 = new Document("n", new Document("$lt", 200));
        try (MongoCursor<Document> first = big(hoarder).find(under200).sort(new Document("n", -1)).batchSize(1)
                .iterator()) {
            assertEquals(199, first.next().getInteger("n"));
            assertExceeded(() -> big(other).find(under200).sort(new Document("n", -1)).batchSize(1).iterator()
                    .next());
            int n = 199;
            while (first.hasNext()) {
                assertEquals(--n, first.next().getInteger("n"));
            }
            assertEquals(0, n);
        }
        try (MongoCursor<Document> second = big(other).find(under200).sort(new Document("n", -1)).batchSize(1)
                .iterator()) {
            assertEquals(199, second.next().getInteger("n"), "the first cursor's bytes were released");
        }
    }
}
