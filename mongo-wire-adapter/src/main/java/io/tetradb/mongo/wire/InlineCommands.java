package io.tetradb.mongo.wire;

import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Commands cheap and bounded enough to run on the connection's I/O thread instead of the command pool: they never
 * wait for an fsync and touch at most one document (a find by {@code _id}) or none (the handshake and diagnostics).
 * Running them inline saves two thread hand-offs per request, which on a busy two-core machine cost more than the
 * command itself. Everything else — writes, scans, aggregations — keeps to the pool, so a slow command never holds
 * an event loop that other connections share.
 * <p>What a point find inline can wait for: one RocksDB point read (a block-cache miss reads one SST block from
 * disk, bounded, as any read of the face does) and short monitors (the throughput budget answers 16500 instead of
 * waiting). Never an fsync and never a scan: the first open of a collection in a process may convert its documents
 * (earlier shapes and ids, with fsynced writes), so a find of a collection not yet open goes to the pool.
 */
final class InlineCommands {
    private static final Set<String> NO_STORE = Set.of("hello", "ismaster", "isMaster", "ping", "buildInfo",
            "buildinfo", "getLastRequestStatistics", "whatsmyuri", "connectionStatus");

    private InlineCommands() {
    }

    /** {@code opened}: whether a collection ({@code db}, name) has been opened in this process. */
    static boolean isQuick(BsonDocument command, String db, BiPredicate<String, String> opened) {
        if (command.isEmpty()) {
            return false;
        }
        String name = command.getFirstKey();
        if (NO_STORE.contains(name)) {
            return !command.containsKey("saslSupportedMechs") && !command.containsKey("speculativeAuthenticate");
        }
        // a collation turns string equalities into a scan of the collection (the index is binary): not inline
        return name.equals("find") && isIdEquality(command.get("filter")) && !command.containsKey("collation")
                && command.get("find") instanceof org.bson.BsonString c && opened.test(db, c.getValue());
    }

    /** {@code {_id: v}} or {@code {_id: {$eq: v}}} for a scalar v: a point read. */
    private static boolean isIdEquality(BsonValue filter) {
        if (filter == null || !filter.isDocument() || filter.asDocument().size() != 1) {
            return false;
        }
        BsonValue id = filter.asDocument().get("_id");
        if (id != null && id.isDocument() && id.asDocument().size() == 1 && id.asDocument().containsKey("$eq")) {
            id = id.asDocument().get("$eq");
        }
        return id != null && !id.isDocument() && !id.isArray() && !id.isRegularExpression();
    }
}
