package io.tetradb.server;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MongoDB Java driver, the Azure Tables Java SDK and gremlin-driver against two TetraDB servers on one keyspace of
 * the local 3-node Cassandra cluster (azure-cosmos is {@link CassandraServerClusterTest}'s): what one server writes the
 * other reads at once, transactions and batches, each face's errors, and races through both servers (a duplicate
 * {@code _id}, a Tables ETag) with exactly one winner. What the servers still refuse on Cassandra is asserted as a
 * refusal in the face's convention, or, once served, as working. Only with {@code -Pcluster}.
 */
@Tag("cluster")
@Timeout(900)
class CassandraFacesClusterTest {
    @TempDir
    static Path dir;
    static ClusterServers servers;
    static long classStart;

    @BeforeAll
    static void start() {
        classStart = System.nanoTime();
        servers = ClusterServers.start("tetradb_faces", 2, dir);
        System.out.printf("CLUSTER faces cluster_start_s=%.1f servers_start_s=%.1f%n", servers.clusterStartSeconds,
                (System.nanoTime() - classStart) / 1e9 - servers.clusterStartSeconds);
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
        System.out.printf("CLUSTER faces class_total_s=%.1f%n", (System.nanoTime() - classStart) / 1e9);
    }

    // ---- the npm Tables SDK (@azure/data-tables through NodeClients) ----

    @Test
    void nodeTablesSdkAcrossBothServers() throws Exception {
        NodeTablesTwoServers.check(servers.server(0), servers.server(1));
    }

    // ---- MongoDB Java driver ----

    @Test
    void mongoDriverWritesOnOneServerAndReadsOnTheOther() {
        MongoCollection<Document> onA = servers.mongo(0).getDatabase("shop").getCollection("orders");
        MongoCollection<Document> onB = servers.mongo(1).getDatabase("shop").getCollection("orders");
        onA.insertOne(new Document("_id", "o1").append("qty", 3).append("city", "Oslo"));
        onA.insertMany(List.of(new Document("_id", "o2").append("qty", 5).append("city", "Rome"),
                new Document("_id", "p1").append("qty", 1).append("city", "Rome")));
        // made through a, read through b at once, by _id
        assertEquals(3, onB.find(Filters.eq("_id", "o1")).first().getInteger("qty"));
        assertEquals(List.of("o1", "o2"), onB.find(Filters.in("_id", "o2", "o1", "zz")).sort(Sorts.ascending("_id"))
                .map(d -> d.getString("_id")).into(new ArrayList<>()));
        assertEquals(List.of("o1", "o2"), onB.find(Filters.regex("_id", "^o")).sort(Sorts.ascending("_id"))
                .map(d -> d.getString("_id")).into(new ArrayList<>()));
        assertEquals(2, onB.countDocuments(Filters.eq("city", "Rome")));
        // update through b, read through a; replace and delete
        assertEquals(1, onB.updateOne(Filters.eq("_id", "o1"), Updates.inc("qty", 4)).getModifiedCount());
        assertEquals(7, onA.find(Filters.eq("_id", "o1")).first().getInteger("qty"));
        onA.replaceOne(Filters.eq("_id", "o2"), new Document("qty", 9));
        assertEquals(new Document("_id", "o2").append("qty", 9), onB.find(Filters.eq("_id", "o2")).first());
        assertEquals(1, onB.deleteOne(Filters.eq("_id", "p1")).getDeletedCount());
        assertNull(onA.find(Filters.eq("_id", "p1")).first());
        assertEquals(2, onA.countDocuments());
    }

    @Test
    void mongoTransactionCommittedOnOneServerIsAllSeenOnTheOtherAndAnAbortLeavesNothing() {
        MongoClient a = servers.mongo(0);
        MongoCollection<Document> onA = a.getDatabase("bank").getCollection("accounts");
        MongoCollection<Document> onB = servers.mongo(1).getDatabase("bank").getCollection("accounts");
        onA.insertMany(List.of(new Document("_id", "x").append("balance", 100),
                new Document("_id", "y").append("balance", 0)));
        try (ClientSession s = a.startSession()) {
            s.startTransaction();
            onA.updateOne(s, Filters.eq("_id", "x"), Updates.inc("balance", -30));
            onA.updateOne(s, Filters.eq("_id", "y"), Updates.inc("balance", 30));
            onA.insertOne(s, new Document("_id", "log1").append("moved", 30));
            assertEquals(70, onA.find(s, Filters.eq("_id", "x")).first().getInteger("balance"), "own write");
            assertEquals(100, onB.find(Filters.eq("_id", "x")).first().getInteger("balance"), "not committed yet");
            s.commitTransaction();
        }
        assertEquals(70, onB.find(Filters.eq("_id", "x")).first().getInteger("balance"));
        assertEquals(30, onB.find(Filters.eq("_id", "y")).first().getInteger("balance"));
        assertEquals(30, onB.find(Filters.eq("_id", "log1")).first().getInteger("moved"));
        try (ClientSession s = a.startSession()) {
            s.startTransaction();
            onA.updateOne(s, Filters.eq("_id", "x"), Updates.inc("balance", -70));
            onA.insertOne(s, new Document("_id", "log2"));
            s.abortTransaction();
        }
        assertEquals(70, onB.find(Filters.eq("_id", "x")).first().getInteger("balance"));
        assertNull(onB.find(Filters.eq("_id", "log2")).first());
        assertEquals(3, onB.countDocuments());
    }

    @Test
    void mongoErrorsComeInMongoDbsConvention() {
        MongoCollection<Document> onA = servers.mongo(0).getDatabase("err").getCollection("people");
        MongoCollection<Document> onB = servers.mongo(1).getDatabase("err").getCollection("people");
        onA.insertOne(new Document("_id", 1).append("email", "ann@x"));
        MongoWriteException dup = assertThrows(MongoWriteException.class,
                () -> onB.insertOne(new Document("_id", 1).append("email", "other@x")));
        assertEquals(11000, dup.getCode(), "the duplicate made on the other server");
        assertEquals("ann@x", onA.find(Filters.eq("_id", 1)).first().getString("email"), "the first one kept");
        MongoCommandException unknown = assertThrows(MongoCommandException.class,
                () -> servers.mongo(1).getDatabase("err").runCommand(new Document("noSuchCommand", 1)));
        assertEquals(59, unknown.getErrorCode());
        MongoWriteException badUpdate = assertThrows(MongoWriteException.class,
                () -> onB.updateOne(Filters.eq("_id", 1), new Document("$inc", new Document("email", 1))));
        assertEquals(14, badUpdate.getCode(), "TypeMismatch: $inc on a string");
        // a unique index, made through one server, holds across both (owner records: SharedUniqueOwners)
        onA.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
        MongoWriteException dupEmail = assertThrows(MongoWriteException.class,
                () -> onB.insertOne(new Document("_id", 2).append("email", "ann@x")));
        assertEquals(11000, dupEmail.getCode());
    }

    @Test
    void mongoDuplicateIdRacesThroughBothServersHaveOneWinnerEach() throws Exception {
        List<MongoCollection<Document>> through = List.of(
                servers.mongo(0).getDatabase("race").getCollection("ids"),
                servers.mongo(1).getDatabase("race").getCollection("ids"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<String> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            for (int round = 1; round <= 5; round++) {
                String id = "k" + round;
                List<Callable<Integer>> racers = new ArrayList<>();
                for (int r = 0; r < 4; r++) {
                    MongoCollection<Document> c = through.get(r % 2);
                    Document doc = new Document("_id", id).append("by", r);
                    racers.add(() -> {
                        try {
                            c.insertOne(doc);
                            return 0;
                        } catch (MongoWriteException e) {
                            if (e.getCode() != 11000) {
                                unexpected.add(e.getCode() + " " + e.getMessage());
                            }
                            return e.getCode();
                        }
                    });
                }
                List<Integer> codes = race(pool, racers);
                assertEquals(1, codes.stream().filter(c -> c == 0).count(), "round " + round + ": " + codes);
                assertEquals(3, codes.stream().filter(c -> c == 11000).count(), "losers get 11000: " + codes + " "
                        + unexpected);
                Document kept = through.get(round % 2).find(Filters.eq("_id", id)).first();
                assertEquals(codes.indexOf(0), kept.getInteger("by"), "the winner's document is the one kept");
            }
            assertEquals(5, through.get(0).countDocuments());
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- Azure Tables Java SDK ----

    @Test
    void tablesSdkWritesOnOneServerAndQueriesOnTheOther() {
        servers.tables(0).createTableIfNotExists("people");
        TableClient onA = servers.tables(0).getTableClient("people");
        TableClient onB = servers.tables(1).getTableClient("people");
        assertTrue(servers.tables(1).listTables().stream().anyMatch(t -> t.getName().equals("people")),
                "the table made on a is listed on b");
        onA.createEntity(new TableEntity("smith", "ann").addProperty("Age", 41).addProperty("City", "Oslo"));
        onA.createEntity(new TableEntity("smith", "ben").addProperty("Age", 29).addProperty("City", "Rome"));
        onA.createEntity(new TableEntity("jones", "cy").addProperty("Age", 35).addProperty("City", "Rome"));
        assertEquals(41, onB.getEntity("smith", "ann").getProperty("Age"));
        onB.upsertEntityWithResponse(new TableEntity("smith", "ann").addProperty("Email", "ann@x"),
                TableEntityUpdateMode.MERGE, null, null);
        TableEntity merged = onA.getEntity("smith", "ann");
        assertEquals("ann@x", merged.getProperty("Email"));
        assertEquals(41, merged.getProperty("Age"), "a merge keeps the other properties");
        List<String> found = onB.listEntities(new ListEntitiesOptions()
                        .setFilter("PartitionKey eq 'smith' and Age gt 30"), null, null).stream()
                .map(TableEntity::getRowKey).toList();
        assertEquals(List.of("ann"), found);
        List<String> rome = onB.listEntities(new ListEntitiesOptions().setFilter("City eq 'Rome'"), null, null)
                .stream().map(e -> e.getPartitionKey() + "/" + e.getRowKey()).sorted().toList();
        assertEquals(List.of("jones/cy", "smith/ben"), rome);
        onB.deleteEntity("jones", "cy");
        TableServiceException gone = assertThrows(TableServiceException.class, () -> onA.getEntity("jones", "cy"));
        assertEquals(404, gone.getResponse().getStatusCode());
        assertEquals("ResourceNotFound", gone.getValue().getErrorCode().toString());
    }

    @Test
    void tablesTransactionIsAllOrNothingAcrossServers() {
        servers.tables(0).createTableIfNotExists("ledger");
        TableClient onA = servers.tables(0).getTableClient("ledger");
        TableClient onB = servers.tables(1).getTableClient("ledger");
        onA.createEntity(new TableEntity("acct", "gone").addProperty("N", 1));
        onA.createEntity(new TableEntity("acct", "kept").addProperty("N", 2));
        onB.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE,
                        new TableEntity("acct", "r1").addProperty("N", 10)),
                new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE,
                        new TableEntity("acct", "kept").addProperty("M", 20)),
                new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("acct", "gone"))));
        assertEquals(10, onA.getEntity("acct", "r1").getProperty("N"));
        assertEquals(20, onA.getEntity("acct", "kept").getProperty("M"));
        assertEquals(404, assertThrows(TableServiceException.class, () -> onA.getEntity("acct", "gone"))
                .getResponse().getStatusCode());
        // the second action fails (the entity exists): the first is not applied either
        TableTransactionFailedException failed = assertThrows(TableTransactionFailedException.class,
                () -> onA.submitTransaction(List.of(
                        new TableTransactionAction(TableTransactionActionType.CREATE,
                                new TableEntity("acct", "r2").addProperty("N", 1)),
                        new TableTransactionAction(TableTransactionActionType.CREATE,
                                new TableEntity("acct", "r1").addProperty("N", 99)))));
        assertEquals("EntityAlreadyExists", failed.getValue().getErrorCode().toString());
        assertEquals(1, failed.getFailedTransactionActionIndex());
        assertEquals(404, assertThrows(TableServiceException.class, () -> onB.getEntity("acct", "r2"))
                .getResponse().getStatusCode());
        assertEquals(10, onB.getEntity("acct", "r1").getProperty("N"));
    }

    @Test
    void tablesEtagRacesThroughBothServersHaveOneWinnerEach() throws Exception {
        servers.tables(0).createTableIfNotExists("counters");
        List<TableClient> through = List.of(servers.tables(0).getTableClient("counters"),
                servers.tables(1).getTableClient("counters"));
        through.get(0).createEntity(new TableEntity("c", "n").addProperty("N", 0));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 1; round <= 5; round++) {
                List<Callable<Integer>> racers = new ArrayList<>();
                for (int r = 0; r < 4; r++) {
                    TableClient t = through.get(r % 2);
                    TableEntity seen = t.getEntity("c", "n"); // every racer reads the same version first
                    seen.addProperty("N", round).addProperty("By", r);
                    racers.add(() -> {
                        try {
                            return t.updateEntityWithResponse(seen, TableEntityUpdateMode.REPLACE, true, null, null)
                                    .getStatusCode();
                        } catch (TableServiceException e) {
                            return e.getResponse().getStatusCode();
                        }
                    });
                }
                List<Integer> statuses = race(pool, racers);
                assertEquals(1, statuses.stream().filter(s -> s == 204).count(), "round " + round + ": " + statuses);
                assertEquals(3, statuses.stream().filter(s -> s == 412).count(), "losers get 412: " + statuses);
                TableEntity now = through.get(round % 2).getEntity("c", "n");
                assertEquals(round, now.getProperty("N"));
                assertEquals(statuses.indexOf(204), now.getProperty("By"), "the winner's entity is the one kept");
            }
        } finally {
            pool.shutdownNow();
        }
        // a duplicate insert through the other server: 409 EntityAlreadyExists
        TableServiceException exists = assertThrows(TableServiceException.class,
                () -> through.get(1).createEntity(new TableEntity("c", "n")));
        assertEquals(409, exists.getResponse().getStatusCode());
        assertEquals("EntityAlreadyExists", exists.getValue().getErrorCode().toString());
    }

    // ---- gremlin-driver ----

    @Test
    void gremlinWritesOnOneServerAndTraversesOnTheOther() throws Exception {
        Client onA = servers.gremlin(0).connect();
        Client onB = servers.gremlin(1).connect();
        onA.submit("g.addV('person').property('pk','p').property(T.id,'ann').property('name','Ann').property('age',41)"
                + ".as('a').addV('person').property('pk','p').property(T.id,'bob').property('name','Bob')"
                + ".property('age',29).as('b').addV('software').property('pk','s').property(T.id,'lop')"
                + ".property('name','lop').as('l').addV('person').property('pk','p').property(T.id,'cy')"
                + ".property('name','Cy').property('age',35).as('c')"
                + ".addE('knows').from('a').to('b').addE('knows').from('b').to('c')"
                + ".addE('created').from('a').to('l').addE('created').from('c').to('l')").all().get();
        assertEquals(List.of("Ann"), strings(onB, "g.V('ann').values('name')"));
        assertEquals(List.of("Bob"), strings(onB, "g.V(['p','ann']).out('knows').values('name')"));
        assertEquals(List.of("Ann", "Cy"), strings(onB, "g.V('lop').in('created').values('name').order()"));
        assertEquals(List.of("Bob", "lop"), strings(onB, "g.V('ann').both().values('name').order()"));
        assertEquals(List.of("Cy"), strings(onB, "g.V('ann').repeat(out('knows')).times(2).values('name')"));
        assertEquals(List.of("knows", "knows", "created", "created").stream().sorted().toList(),
                strings(onB, "g.E().label().order()"));
        assertEquals(List.of("Ann", "Cy"), strings(onB, "g.V().has('person','age',gt(30)).values('name').order()"));
        List<Result> paths = onB.submit("g.V('ann').repeat(out('knows')).times(2).path().by('name')").all().get();
        assertEquals(1, paths.size());
        assertEquals(List.of("Ann", "Bob", "Cy"), paths.get(0).getPath().objects());
        assertEquals(4L, onB.submit("g.V().count()").all().get().get(0).getLong());
        assertEquals(List.of("Bob"), strings(onB, "g.V('ann').outE('knows').inV().values('name')"));
        // an edge dropped through b is gone through a
        onB.submit("g.V('bob').outE('knows').drop()").all().get();
        assertEquals(List.of(), strings(onA, "g.V('bob').out('knows').values('name')"));
        assertEquals(List.of("Ann"), strings(onA, "g.V('bob').in('knows').values('name')"));
    }

    private static List<String> strings(Client g, String script) throws Exception {
        return g.submit(script).all().get().stream().map(Result::getObject).map(String::valueOf).toList();
    }

    /** Starts every racer at once and collects their outcomes in order. */
    private static List<Integer> race(ExecutorService pool, List<Callable<Integer>> racers) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> running = new ArrayList<>();
        for (Callable<Integer> r : racers) {
            running.add(pool.submit(() -> {
                go.await();
                return r.call();
            }));
        }
        go.countDown();
        List<Integer> out = new ArrayList<>();
        for (Future<Integer> f : running) {
            out.add(f.get());
        }
        return out;
    }
}
