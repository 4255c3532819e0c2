package io.tetradb.mongo;

import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.tetradb.mongo.RawCursorConnection.cursorId;
import static io.tetradb.mongo.RawCursorConnection.getMore;
import static io.tetradb.mongo.RawCursorConnection.nextBatch;
import static io.tetradb.mongo.RawCursorConnection.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * After the session check, a getMore's {@code txnNumber} must be its cursor's, as mongod's {@code validateTxnNumber}:
 * 50739 for a getMore in a transaction on a cursor opened outside one, 50740 without a txnNumber on a cursor opened
 * in a transaction, 50741 in another transaction; the cursor stays. Raw OP_MSG frames carry exactly the session and
 * transaction fields the test chooses; the MongoDB Java driver shows that a cursor read inside its transaction is
 * never refused.
 */
class CursorTransactionNumberTest {
    private static final int DOCS = RawCursorConnection.DOCS;

    @TempDir
    Path dir;
    private RawCursorConnection raw;
    private MongoClient client;

    @BeforeEach
    void start() throws IOException {
        raw = new RawCursorConnection(dir);
        client = raw.client;
    }

    @AfterEach
    void stop() throws IOException {
        raw.close();
    }

    /** Sends {@code command} in session {@code session}, in transaction {@code txnNumber} when not null. */
    private BsonDocument run(BsonDocument command, UUID session, Long txnNumber) throws IOException {
        if (!command.containsKey("$db")) {
            command.append("$db", new BsonString("app"));
        }
        command.append("lsid", new BsonDocument("id", new BsonBinary(session)));
        if (txnNumber != null) {
            command.append("txnNumber", new BsonInt64(txnNumber)).append("autocommit", BsonBoolean.FALSE);
        }
        return raw.send(command);
    }

    private static BsonDocument find() {
        return new BsonDocument("find", new BsonString("c")).append("batchSize", new BsonInt32(2));
    }

    /** A find that starts transaction {@code txnNumber} of its session. */
    private static BsonDocument findStartingTransaction() {
        return find().append("startTransaction", BsonBoolean.TRUE);
    }

    @Test
    void aCursorOpenedInATransactionIsContinuedOnlyInIt() throws IOException {
        UUID a = UUID.randomUUID();
        long cursor = cursorId(run(findStartingTransaction(), a, 1L));
        assertEquals("Cannot run getMore on cursor " + cursor + ", which was created in transaction 1, without a "
                + "txnNumber", refused(50740, run(getMore(cursor), a, null)));
        assertEquals(List.of(2, 3), nextBatch(run(getMore(cursor), a, 1L)), "the refusal left the cursor as it was");

        BsonDocument committed = run(new BsonDocument("commitTransaction", new BsonInt32(1))
                .append("$db", new BsonString("admin")), a, 1L);
        assertEquals(1.0, committed.getNumber("ok").doubleValue(), committed.toJson());
        cursorId(run(findStartingTransaction(), a, 2L)); // the session's next transaction
        assertEquals("Cannot run getMore on cursor " + cursor + ", which was created in transaction 1, in "
                + "transaction 2", refused(50741, run(getMore(cursor), a, 2L)));
        refused(50740, run(getMore(cursor), a, null));
    }

    @Test
    void aCursorOpenedOutsideATransactionIsNotContinuedInOne() throws IOException {
        UUID a = UUID.randomUUID();
        long cursor = cursorId(run(find(), a, null));
        cursorId(run(findStartingTransaction(), a, 1L));
        assertEquals("Cannot run getMore on cursor " + cursor + ", which was not created in a transaction, in "
                + "transaction 1", refused(50739, run(getMore(cursor), a, 1L)));
        assertEquals(List.of(2, 3), nextBatch(run(getMore(cursor), a, null)), "read on outside the transaction");
    }

    @Test
    void theSessionIsCheckedBeforeTheTransaction() throws IOException {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        long cursor = cursorId(run(findStartingTransaction(), a, 1L));
        cursorId(run(findStartingTransaction(), b, 5L));
        refused(50738, run(getMore(cursor), b, 5L)); // mongod's validateLSID runs before validateTxnNumber
        assertEquals(List.of(2, 3), nextBatch(run(getMore(cursor), a, 1L)));
    }

    @Test
    void theJavaDriverReadsACursorInsideItsTransaction() {
        MongoCollection<Document> c = client.getDatabase("app").getCollection("c");
        try (ClientSession session = client.startSession()) {
            session.startTransaction();
            List<Document> all = c.find(session).batchSize(2).into(new ArrayList<>()); // getMores in the transaction
            assertEquals(DOCS, all.size());
            session.commitTransaction();
        }
    }
}
