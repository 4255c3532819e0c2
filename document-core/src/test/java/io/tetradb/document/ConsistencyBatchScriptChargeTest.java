package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.script.ScriptLimits;
import io.tetradb.testing.TickingScriptClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads inside a transactional batch and a stored procedure's reads (readDocument, queryDocuments, readDocuments)
 * read at the account's consistency level, as Cosmos DB charges them: twice under Strong or BoundedStaleness, once
 * under Session; the partition's budget pays the doubled charge (on a clock the test moves). The scripts' bounds run
 * on a {@link TickingScriptClock} (1 ms per 10,000 instructions or operation), as in {@code StoredProcedureTest}, so
 * no script is cut short by a loaded machine's wall clock.
 */
class ConsistencyBatchScriptChargeTest {
    static final ObjectMapper M = new ObjectMapper();
    static final long MS = 1_000_000L;
    static final PartitionKey K = new PartitionKey("k");
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;
    final AtomicLong clock = new AtomicLong(1_000_000 * MS);

    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).rateLimiting(true)
                .scriptLimits(ScriptLimits.DEFAULTS.withClock(new TickingScriptClock(Duration.ofMillis(1)))).buildClient();
        client.coreStore().rateLimiter().setClock(clock::get);
        client.createDatabase("db");
        client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk"),
                ThroughputProperties.createManualThroughput(400));
        c = client.getDatabase("db").getContainer("c");
        for (int i = 0; i < 3; i++) {
            c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "k").put("v", "x".repeat(100)));
        }
    }

    void account(io.tetradb.core.consistency.ConsistencyLevel level) {
        client.coreStore().consistency().setDefaultLevel(level);
        clock.addAndGet(2_000 * MS); // a full bucket for what follows
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    CosmosBatchResponse readBatch() {
        CosmosBatch b = CosmosBatch.createCosmosBatch(K);
        b.readItemOperation("i0");
        b.readItemOperation("i1");
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        assertTrue(r.isSuccessStatusCode(), r.getErrorMessage());
        return r;
    }

    /** Batches of two point reads in one instant of the clock, from a full bucket, until the 429. */
    int batchesUntilThrottled() {
        clock.addAndGet(2_000 * MS);
        for (int n = 0; ; n++) {
            try {
                readBatch();
            } catch (CosmosException e) {
                assertEquals(429, e.getStatusCode());
                return n;
            }
        }
    }

    @Test
    void batchReadsCostTwiceUnderAStrongOrBoundedStalenessAccount() {
        open();
        account(io.tetradb.core.consistency.ConsistencyLevel.SESSION);
        CosmosBatchResponse session = readBatch();
        assertEquals(1.0, session.getResults().get(0).getRequestCharge());
        assertEquals(2.0, session.getRequestCharge(), 0.011);
        int sessionBatches = batchesUntilThrottled();

        for (io.tetradb.core.consistency.ConsistencyLevel quorum : new io.tetradb.core.consistency.ConsistencyLevel[]{
                io.tetradb.core.consistency.ConsistencyLevel.STRONG,
                io.tetradb.core.consistency.ConsistencyLevel.BOUNDED_STALENESS}) {
            account(quorum);
            CosmosBatchResponse strong = readBatch();
            assertEquals(2.0, strong.getResults().get(0).getRequestCharge(), quorum + " read in a batch");
            assertEquals(4.0, strong.getRequestCharge(), 0.011, quorum + " batch of two reads");
        }
        // the budget pays the doubled charge: a 400 RU/s bucket serves ~200 session batches (2 RU), ~100 strong (4 RU)
        int strongBatches = batchesUntilThrottled();
        assertTrue(sessionBatches >= 199 && sessionBatches <= 201, "session batches until the 429: " + sessionBatches);
        assertTrue(strongBatches >= 99 && strongBatches <= 101, "strong batches until the 429: " + strongBatches);
    }

    double runScript(String id) {
        return c.getScripts().getStoredProcedure(id).execute(null,
                new CosmosStoredProcedureRequestOptions().setPartitionKey(K)).getRequestCharge();
    }

    @Test
    void storedProcedureReadsCostTwiceUnderAStrongAccount() {
        open();
        c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("readOne", """
                function readOne() {
                  var coll = getContext().getCollection();
                  coll.readDocument(coll.getAltLink() + "/docs/i0", {}, function (err, doc) {
                    if (err) throw err;
                    getContext().getResponse().setBody(doc.id);
                  });
                }"""));
        c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("queryAll", """
                function queryAll() {
                  var coll = getContext().getCollection();
                  coll.queryDocuments(coll.getSelfLink(), "SELECT * FROM r", {}, function (err, feed) {
                    if (err) throw err;
                    coll.readDocuments(coll.getSelfLink(), {}, function (err2, docs) {
                      if (err2) throw err2;
                      getContext().getResponse().setBody(feed.length + docs.length);
                    });
                  });
                }"""));
        account(io.tetradb.core.consistency.ConsistencyLevel.SESSION);
        double sessionRead = runScript("readOne");
        double sessionQuery = runScript("queryAll");
        account(io.tetradb.core.consistency.ConsistencyLevel.STRONG);
        double strongRead = runScript("readOne");
        double strongQuery = runScript("queryAll");
        // the scripts' JavaScript work is charged alike; the reads' part doubles: a 1 KB point read 1 RU more,
        // a query and a read of the partition's items (under 1 KB) 2.1 RU more each
        assertEquals(1.0, strongRead - sessionRead, 0.011, "strong " + strongRead + ", session " + sessionRead);
        assertEquals(4.2, strongQuery - sessionQuery, 0.011, "strong " + strongQuery + ", session " + sessionQuery);
    }
}
