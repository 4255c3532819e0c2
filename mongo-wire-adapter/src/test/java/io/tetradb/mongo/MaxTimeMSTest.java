package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.CountOptions;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Updates;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code maxTimeMS}: a command past its limit stops with 50 MaxTimeMSExpired ("operation exceeded time limit") at its
 * next interrupt check, as mongod's; find, aggregate, count/countDocuments, distinct, update, delete and
 * findAndModify, through the MongoDB Java driver. No sleeps: the server measures on a clock the test moves, and the
 * checkpoint hook moves it by {@code ClockedMongoServer.slowStep} milliseconds at every check of a command whose
 * comment is "slow" — the
 * same commands with the clock still (or without a limit) succeed. A getMore continues with what its cursor's
 * opening command left of its limit (the time between getMores does not count) and refuses a maxTimeMS of its own
 * unless the cursor is a change stream's, where it is the time to wait for events.
 */
class MaxTimeMSTest extends ClockedMongoTest {
    private static final int DOCS = 300;

    @BeforeEach
    void start() {
        // each check of a "slow" command moves the clock 100 ms
        start(100, comment -> { },
                IntStream.range(0, DOCS).mapToObj(i -> new Document("_id", i).append("v", i % 7)).toList());
    }

    /** Code 50: the driver throws its MongoExecutionTimeoutException for it, whatever the command. */
    private void expires(Supplier<?> command) {
        MongoExecutionTimeoutException e = assertThrows(MongoExecutionTimeoutException.class, command::get);
        assertEquals(50, e.getCode(), e.getMessage());
        assertEquals("operation exceeded time limit", e.getMessage());
    }

    private MongoCommandException refused(int code, Supplier<?> command) {
        MongoCommandException e = assertThrows(MongoCommandException.class, command::get);
        assertEquals(code, e.getErrorCode(), e.getMessage());
        return e;
    }

    @Test
    void readsPastTheirLimitStopWithMaxTimeMSExpired() {
        expires(() -> c.find().maxTime(50, TimeUnit.MILLISECONDS).comment("slow").into(new ArrayList<>()));
        expires(() -> c.aggregate(List.of(new Document("$match", new Document("v", 1))))
                .maxTime(50, TimeUnit.MILLISECONDS).comment("slow").into(new ArrayList<>()));
        expires(() -> c.countDocuments(new Document("v", 1), new CountOptions().maxTime(50, TimeUnit.MILLISECONDS)
                .comment("slow")));
        expires(() -> db.runCommand(new Document("count", "c").append("query", new Document("v", 2))
                .append("maxTimeMS", 50).append("comment", "slow")));
        expires(() -> c.distinct("v", Integer.class).maxTime(50, TimeUnit.MILLISECONDS).comment("slow")
                .into(new ArrayList<>()));
        assertTrue(mongo.slowChecks.get() >= 5);

        // the same reads with the clock still, or without a limit, succeed
        mongo.slowStep.set(0);
        assertEquals(DOCS, c.find().maxTime(50, TimeUnit.MILLISECONDS).comment("slow").into(new ArrayList<>())
                .size());
        assertEquals(43, c.countDocuments(new Document("v", 1), new CountOptions().maxTime(50,
                TimeUnit.MILLISECONDS).comment("slow")));
        mongo.slowStep.set(100);
        assertEquals(7, c.distinct("v", Integer.class).comment("slow").into(new ArrayList<>()).size());
        assertEquals(DOCS, c.find().maxTime(0, TimeUnit.MILLISECONDS).comment("slow").into(new ArrayList<>())
                .size(), "0 is no limit");
    }

    @Test
    void writesPastTheirLimitFailWholeAndWriteNothingBeyondTheirLastCheck() {
        expires(() -> db.runCommand(new Document("update", "c").append("updates",
                List.of(new Document("q", new Document()).append("u", new Document("$set", new Document("x", 1)))
                        .append("multi", true))).append("maxTimeMS", 50).append("comment", "slow")));
        assertEquals(0, c.countDocuments(new Document("x", 1)), "stopped before its first page");
        expires(() -> db.runCommand(new Document("delete", "c").append("deletes",
                List.of(new Document("q", new Document("v", 3)).append("limit", 0))).append("maxTimeMS", 50)
                .append("comment", "slow")));
        assertEquals(DOCS, c.countDocuments());
        expires(() -> c.findOneAndUpdate(new Document("v", 4), Updates.set("y", 1),
                new FindOneAndUpdateOptions().maxTime(50, TimeUnit.MILLISECONDS).comment("slow")));
        assertEquals(0, c.countDocuments(new Document("y", 1)));

        mongo.slowStep.set(0);
        Document done = db.runCommand(new Document("update", "c").append("updates",
                List.of(new Document("q", new Document()).append("u", new Document("$set", new Document("x", 1)))
                        .append("multi", true))).append("maxTimeMS", 50).append("comment", "slow"));
        assertEquals(DOCS, done.getInteger("nModified"));
    }

    /**
     * An insert of many documents checks between its core batches (one core transaction of up to 100 documents
     * each): past its limit it fails whole with 50 and the batches written before stay, as on mongod, where an
     * interrupted insert keeps what it had inserted.
     */
    @Test
    void anInsertPastItsLimitStopsBetweenBatchesAndKeepsWhatItWrote() {
        MongoCollection<Document> target = db.getCollection("inserted");
        Supplier<Document> insert = () -> db.runCommand(new Document("insert", "inserted").append("documents",
                IntStream.range(0, 500).mapToObj(i -> new Document("_id", i)).toList()).append("maxTimeMS", 250)
                .append("comment", "slow"));
        int before = mongo.slowChecks.get();
        expires(insert); // checks at 100, 200 and 300 ms of its 250: two batches written, the third not
        assertEquals(3, mongo.slowChecks.get() - before, "stopped at the check past the limit");
        assertEquals(200, target.countDocuments(), "the two batches before the check stay written");
        assertEquals(List.of(0, 199), List.of(target.find().sort(new Document("_id", 1)).first().getInteger("_id"),
                target.find().sort(new Document("_id", -1)).first().getInteger("_id")));

        // in a transaction the documents are buffered one by one, each after a check: nothing is committed
        try (ClientSession session = client.startSession()) {
            session.startTransaction();
            expires(() -> db.runCommand(session, new Document("insert", "inserted").append("documents",
                    IntStream.range(1000, 1010).mapToObj(i -> new Document("_id", i)).toList())
                    .append("maxTimeMS", 250).append("comment", "slow")));
            session.abortTransaction();
        }
        assertEquals(200, target.countDocuments());

        mongo.slowStep.set(0); // the same insert with the clock still writes everything
        target.drop();
        assertEquals(500, insert.get().getInteger("n"));
        assertEquals(500, target.countDocuments());
    }

    @Test
    void aGetMoreContinuesWithWhatItsCursorsCommandLeft() {
        try (ClientSession session = client.startSession()) {
            mongo.slowStep.set(0);
            long cursor = db.runCommand(session, new Document("find", "c").append("batchSize", 2)
                    .append("maxTimeMS", 1000).append("comment", "slow")).get("cursor", Document.class)
                    .getLong("id");
            mongo.clock.advance(Duration.ofMinutes(5)); // between getMores: not counted
            Document more = db.runCommand(session, new Document("getMore", cursor).append("collection", "c")
                    .append("batchSize", 2));
            assertEquals(2, more.get("cursor", Document.class).getList("nextBatch", Document.class).size());

            MongoCommandException own = refused(2, () -> db.runCommand(session, new Document("getMore", cursor)
                    .append("collection", "c").append("maxTimeMS", 10)));
            assertEquals("cannot set maxTimeMS on getMore command for a non-awaitData cursor", own.getErrorMessage());

            mongo.slowStep.set(400); // each check of this getMore takes 400 of the 1000 ms left: the third is past it
            int before = mongo.slowChecks.get();
            expires(() -> db.runCommand(session, new Document("getMore", cursor).append("collection", "c")
                    .append("batchSize", 10).append("comment", "slow")));
            assertEquals(3, mongo.slowChecks.get() - before, "stopped at the check past the limit");
            refused(43, () -> db.runCommand(session, new Document("getMore", cursor).append("collection", "c")));

            // a cursor opened without a limit has none in its getMores
            long unlimited = db.runCommand(session, new Document("find", "c").append("batchSize", 2))
                    .get("cursor", Document.class).getLong("id");
            Document rest = db.runCommand(session, new Document("getMore", unlimited).append("collection", "c")
                    .append("comment", "slow"));
            assertEquals(DOCS - 2, rest.get("cursor", Document.class).getList("nextBatch", Document.class).size());
        }
    }

    @Test
    void aChangeStreamsGetMoreWaitsForItsMaxTimeMSAndSucceeds() {
        try (ClientSession session = client.startSession()) {
            long stream = db.runCommand(session, new Document("aggregate", "c").append("pipeline",
                    List.of(new Document("$changeStream", new Document()))).append("cursor", new Document()))
                    .get("cursor", Document.class).getLong("id");
            Document more = db.runCommand(session, new Document("getMore", stream).append("collection", "c")
                    .append("maxTimeMS", 10).append("comment", "slow"));
            assertEquals(0, more.get("cursor", Document.class).getList("nextBatch", Document.class).size());
            assertEquals(stream, more.get("cursor", Document.class).getLong("id"), "still open");
        }
    }

    @Test
    void aMalformedMaxTimeMSIsBadValue() {
        assertEquals("maxTimeMS must be a number", refused(2, () -> db.runCommand(new Document("find", "c")
                .append("maxTimeMS", "10"))).getErrorMessage());
        assertEquals("maxTimeMS is out of range", refused(2, () -> db.runCommand(new Document("find", "c")
                .append("maxTimeMS", -1))).getErrorMessage());
        assertEquals("maxTimeMS is out of range", refused(2, () -> db.runCommand(new Document("count", "c")
                .append("maxTimeMS", 1L << 31))).getErrorMessage());
        assertEquals("maxTimeMS has non-integral value", refused(2, () -> db.runCommand(new Document("find", "c")
                .append("maxTimeMS", 1.5))).getErrorMessage());
        assertEquals(1.0, db.runCommand(new Document("find", "c").append("maxTimeMS", 2.0)).getDouble("ok"));
    }
}
