package io.tetradb.mongo.command;

import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.HexFormat;

/**
 * A cursor is continued in the session it was opened in, as mongod's {@code getMore} demands (its
 * {@code validateLSID}): a cursor opened without a session refuses a getMore sent in one (50736), a cursor opened in
 * a session refuses a getMore without one (50737) or in another session (50738). The cursor stays open, so the
 * right session reads on. The drivers and mongosh send a cursor's getMores in its session by themselves; a getMore
 * written by hand ({@code runCommand}) must name that session too. Sessions are compared by {@code lsid.id}: the
 * user has been compared already ({@link CursorOwnership}).
 */
final class CursorSessions {
    private CursorSessions() {
    }

    /** Refuses a getMore of cursor {@code id}, opened in {@code opened} (null: none) by {@code owner}, if it must. */
    static void check(long id, BsonValue opened, SessionOwner owner, BsonDocument getMore) {
        BsonValue sent = getMore.get("lsid") instanceof BsonDocument lsid ? lsid.get("id") : null;
        if (sent != null && opened == null) {
            throw new MongoError(ErrorCode.GETMORE_OUTSIDE_CURSOR_SESSION, "Cannot run getMore on cursor " + id
                    + ", which was not created in a session, in session " + describe(sent, owner));
        }
        if (sent == null && opened != null) {
            throw new MongoError(ErrorCode.GETMORE_WITHOUT_CURSOR_SESSION, "Cannot run getMore on cursor " + id
                    + ", which was created in session " + describe(opened, owner) + ", without an lsid");
        }
        if (sent != null && !sent.equals(opened)) {
            throw new MongoError(ErrorCode.GETMORE_IN_ANOTHER_SESSION, "Cannot run getMore on cursor " + id
                    + ", which was created in session " + describe(opened, owner) + ", in session "
                    + describe(sent, owner));
        }
    }

    /**
     * Then, as mongod's {@code validateTxnNumber}: a cursor opened outside a transaction refuses a getMore with a
     * {@code txnNumber} (50739), one opened in a transaction refuses a getMore without one (50740) or with another
     * (50741). {@code opened} is the cursor's transaction number, null when it was opened outside one.
     */
    static void checkTxnNumber(long id, Long opened, BsonDocument getMore) {
        BsonValue v = getMore.get("txnNumber");
        Long sent = v != null && v.isNumber() ? v.asNumber().longValue() : null;
        if (sent != null && opened == null) {
            throw new MongoError(ErrorCode.GETMORE_OUTSIDE_CURSOR_TRANSACTION, "Cannot run getMore on cursor " + id
                    + ", which was not created in a transaction, in transaction " + sent);
        }
        if (sent == null && opened != null) {
            throw new MongoError(ErrorCode.GETMORE_WITHOUT_CURSOR_TRANSACTION, "Cannot run getMore on cursor " + id
                    + ", which was created in transaction " + opened + ", without a txnNumber");
        }
        if (sent != null && !sent.equals(opened)) {
            throw new MongoError(ErrorCode.GETMORE_IN_ANOTHER_TRANSACTION, "Cannot run getMore on cursor " + id
                    + ", which was created in transaction " + opened + ", in transaction " + sent);
        }
    }

    /** A session as mongod prints a LogicalSessionId: {@code { id: UUID("…"), uid: BinData(0, …) }}. */
    static String describe(BsonValue id, SessionOwner owner) {
        String shownId = id instanceof BsonBinary b && b.getType() == BsonBinarySubType.UUID_STANDARD.getValue()
                && b.getData().length == 16 ? "UUID(\"" + b.asUuid() + "\")" : String.valueOf(id);
        return "{ id: " + shownId + ", uid: BinData(0, " + HexFormat.of().withUpperCase().formatHex(owner.uid())
                + ") }";
    }
}
