package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.CountOptions;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code maxTimeMS} and {@code killOp} stop a command inside a core call: a find whose filter (an unanchored regex,
 * which the face matches itself) matches none of 3,000 documents reads them in six core pages of 101 to 1,000
 * documents, and before, its only interrupt checks came before each page — six in all, so a limit of 20 checks
 * was never reached and a kill waited for the page under way. Now the core polls the command's kill and deadline
 * every 64 rows. Through the MongoDB Java driver, no timers: the checkpoint hook (called at every check, the core's
 * polls included) moves the server's clock 1 ms, or holds the command at its 10th check — which the old code never
 * reaches — until the test has killed it.
 */
class StopInsideOneCoreCallTest extends ClockedMongoTest {
    private static final int DOCS = 3_000;
    private static final Document NO_MATCH = new Document("s", new Document("$regex", "zz$"));
    /** How long the test waits for a held or killed command: only a hung one takes that long. */
    private static final long PATIENCE_SECONDS = io.tetradb.testing.TestTime.patience(java.time.Duration.ZERO)
            .toSeconds();
    private final AtomicInteger heldChecks = new AtomicInteger();
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    @BeforeEach
    void start() {
        // each check of a "slow" command moves the clock 1 ms
        start(1, comment -> {
            if (comment.equals("held") && heldChecks.incrementAndGet() == 10) {
                reached.countDown(); // inside a core page: the old code checks 6 times in all
                await(released);
            }
        }, IntStream.range(0, DOCS).mapToObj(i -> new Document("_id", i).append("s", "a" + i)).toList());
    }

    @AfterEach
    void release() {
        released.countDown(); // before the base class closes the server: a held command must end first
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "never released");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private void expiresWithinTheCall(Supplier<?> command) {
        mongo.slowChecks.set(0);
        MongoExecutionTimeoutException e = assertThrows(MongoExecutionTimeoutException.class, command::get);
        assertEquals(50, e.getCode(), e.getMessage());
        // 20 ms at 1 ms a check: the 20th check, inside the core's pages; the old code checked 6 times and answered
        assertEquals(20, mongo.slowChecks.get());
    }

    @Test
    void maxTimeMSStopsInsideTheCorePagesOfAScan() {
        expiresWithinTheCall(() -> c.find(NO_MATCH).maxTime(20, TimeUnit.MILLISECONDS).comment("slow")
                .into(new ArrayList<>()));
        expiresWithinTheCall(() -> c.countDocuments(NO_MATCH, new CountOptions().maxTime(20, TimeUnit.MILLISECONDS)
                .comment("slow")));
        expiresWithinTheCall(() -> c.aggregate(List.of(new Document("$match", NO_MATCH)))
                .maxTime(20, TimeUnit.MILLISECONDS).comment("slow").into(new ArrayList<>()));

        // without a limit the same find reads everything and answers; the core polled all the way
        mongo.slowChecks.set(0);
        assertEquals(List.of(), c.find(NO_MATCH).comment("slow").into(new ArrayList<>()));
        assertTrue(mongo.slowChecks.get() >= DOCS / 64, "polls: " + mongo.slowChecks.get());
    }

    @Test
    void killOpStopsInsideTheCorePagesOfAScan() throws Exception {
        CompletableFuture<List<Document>> find = CompletableFuture.supplyAsync(
                () -> c.find(NO_MATCH).comment("held").into(new ArrayList<>()));
        CompletableFuture<Boolean> held = CompletableFuture.supplyAsync(() -> {
            await(reached);
            return true;
        });
        CompletableFuture.anyOf(find, held).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        assertTrue(held.isDone(), "the command reached a check inside the core's page: " + (find.isDone()
                ? "it answered " + find.getNow(null) + " after " + heldChecks.get() + " checks" : "no"));

        MongoDatabase admin = client.getDatabase("admin");
        List<Document> ops = admin.runCommand(new Document("currentOp", 1).append("command.comment", "held"))
                .getList("inprog", Document.class);
        assertEquals(1, ops.size(), ops.toString());
        admin.runCommand(new Document("killOp", 1).append("op", ops.get(0).getInteger("opid")));
        released.countDown();
        ExecutionException e = assertThrows(ExecutionException.class, () -> find.get(PATIENCE_SECONDS, TimeUnit.SECONDS));
        MongoCommandException m = assertInstanceOf(MongoCommandException.class, e.getCause());
        assertEquals(11601, m.getErrorCode(), m.getMessage());
        assertEquals("operation was interrupted", m.getErrorMessage());
        assertEquals(10, heldChecks.get(), "stopped at the check that was held while the kill came");
        assertEquals(DOCS, c.countDocuments(), "a kill stops reads; nothing written changed");
    }
}
