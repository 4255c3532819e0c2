package io.tetradb.mongo.command;

import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * A command's {@code maxTimeMS}, as mongod reads it: a whole number of milliseconds from 0 (no limit) to 2^31 - 1,
 * else BadValue. The limit is a deadline on the command's operation ({@link Operations.Op#expireAfter}); the command
 * stops with 50 MaxTimeMSExpired at its next {@link Interruption#check()} past it. A {@code getMore} has no limit of
 * its own: a change stream's (tailable, awaitData) takes it as the time to wait for events, any other cursor
 * continues with what its opening command left of its limit, and refuses a {@code maxTimeMS} of the getMore itself
 * (mongod's "cannot set maxTimeMS on getMore command for a non-awaitData cursor").
 */
final class MaxTime {
    /** No deadline. */
    static final long NONE = Long.MAX_VALUE;

    private MaxTime() {
    }

    /** The command's {@code maxTimeMS} in milliseconds, 0 when absent or 0 (no limit). */
    static long millis(BsonDocument command) {
        BsonValue v = command.get("maxTimeMS");
        if (v == null) {
            return 0;
        }
        if (!v.isNumber() && !v.isDecimal128()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "maxTimeMS must be a number");
        }
        double d = v.isDecimal128() ? v.asDecimal128().getValue().bigDecimalValue().doubleValue()
                : v.isDouble() ? v.asDouble().getValue() : v.asNumber().longValue();
        boolean fractional = v.isDouble() || v.isDecimal128();
        if (Double.isNaN(d) || d < 0 || d > Integer.MAX_VALUE) {
            throw new MongoError(ErrorCode.BAD_VALUE, "maxTimeMS is out of range");
        }
        if (fractional && Math.floor(d) != d) {
            throw new MongoError(ErrorCode.BAD_VALUE, "maxTimeMS has non-integral value");
        }
        return (long) d;
    }

    static MongoError expired() {
        return new MongoError(ErrorCode.MAX_TIME_MS_EXPIRED, "operation exceeded time limit");
    }

    /** Whether {@code e} stops a command as a whole (killed or out of time), never as one statement's error. */
    static boolean stopsTheCommand(MongoError e) {
        return e.code() == ErrorCode.INTERRUPTED || e.code() == ErrorCode.MAX_TIME_MS_EXPIRED;
    }
}
