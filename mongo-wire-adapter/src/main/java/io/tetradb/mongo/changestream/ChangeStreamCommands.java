package io.tetradb.mongo.changestream;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.command.Replies;
import io.tetradb.mongo.store.MongoCatalog;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Change streams: an {@code aggregate} whose pipeline starts with {@code $changeStream} opens a tailable-await cursor
 * here; its {@code getMore}s wait up to {@code maxTimeMS} (1 s by default, as MongoDB) for new events, woken by the
 * core's feed sequence ({@link FeedAdapter#awaitBeyond}); {@code killCursors} ends it. A getMore runs on the face's
 * command pool (a cached pool: a waiting stream holds one of its threads, never a Netty event loop).
 */
public final class ChangeStreamCommands {
    /** The stages MongoDB allows after {@code $changeStream}. */
    private static final Set<String> ALLOWED = Set.of("$match", "$project", "$addFields", "$set", "$unset",
            "$replaceRoot", "$replaceWith", "$redact");
    private static final long DEFAULT_AWAIT_MILLIS = 1000;
    private static final int DEFAULT_BATCH = 1000;
    private static final long IDLE_TIMEOUT_MILLIS = 10 * 60 * 1000;

    private final MongoCatalog catalog;
    private final FeedAdapter feed;
    private final Map<Long, Open> open = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    private static final class Open {
        final ChangeStream stream;
        final String ns;
        volatile long lastUsed = System.currentTimeMillis();
        /** Who opened it and in which session ({@link #own}); a session's end closes it, as its other cursors. */
        volatile io.tetradb.mongo.command.SessionOwner owner = io.tetradb.mongo.command.SessionOwner.UNAUTHENTICATED;
        volatile BsonValue session;

        Open(ChangeStream stream, String ns) {
            this.stream = stream;
            this.ns = ns;
        }
    }

    public ChangeStreamCommands(MongoCatalog catalog) {
        this.catalog = catalog;
        this.feed = new FeedAdapter(catalog.store());
    }

    /** Whether an aggregate is a change stream ({@code $changeStream} first); 40602 if it comes later. */
    public static boolean isChangeStream(BsonDocument cmd) {
        BsonValue pipeline = cmd.get("pipeline");
        if (pipeline == null || !pipeline.isArray()) {
            return false;
        }
        List<BsonValue> stages = pipeline.asArray();
        for (int i = 0; i < stages.size(); i++) {
            if (stages.get(i).isDocument() && stages.get(i).asDocument().containsKey("$changeStream")) {
                if (i > 0) {
                    throw new MongoError(ErrorCode.CHANGE_STREAM_NOT_FIRST, "$changeStream is only valid as the first "
                            + "stage in a pipeline.");
                }
                return true;
            }
        }
        return false;
    }

    /** Opens a change stream for {@code aggregate: <coll> | 1} on {@code db}. */
    public BsonDocument aggregate(String db, BsonDocument cmd) {
        return aggregate(db, cmd, ru -> { });
    }

    /** As above; what the stream's feed reads cost goes to {@code charges} (the command's request charge). */
    public BsonDocument aggregate(String db, BsonDocument cmd, java.util.function.DoubleConsumer charges) {
        BsonArray stages = cmd.getArray("pipeline");
        if (stages.get(0).asDocument().size() != 1) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "A pipeline stage specification object must contain "
                    + "exactly one field.");
        }
        ChangeStreamOptions options = ChangeStreamOptions.parse(stages.get(0).asDocument().get("$changeStream"));
        BsonArray rest = new BsonArray(stages.subList(1, stages.size()));
        for (BsonValue s : rest) {
            String name = s.isDocument() && !s.asDocument().isEmpty() ? s.asDocument().getFirstKey() : "";
            if (s.isDocument() && s.asDocument().size() == 1 && !ALLOWED.contains(name)) {
                throw new MongoError(ErrorCode.ILLEGAL_OPERATION, name + " is not permitted in a $changeStream "
                        + "pipeline");
            }
        }
        if (!cmd.containsKey("cursor")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "The 'cursor' option is required, except for aggregate "
                    + "with the explain argument");
        }
        if (cmd.getBoolean("explain", org.bson.BsonBoolean.FALSE).getValue()) {
            throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "explain of a $changeStream is not supported");
        }
        BsonValue target = cmd.get("aggregate");
        String coll = target.isString() ? target.asString().getValue() : null;
        boolean cluster = options.allChangesForCluster();
        if (cluster && (!db.equals("admin") || coll != null)) {
            throw new MongoError(ErrorCode.INVALID_NAMESPACE, "A $changeStream with 'allChangesForCluster:true' may "
                    + "only be opened on the 'admin' database, and with no collection name");
        }
        if (!cluster && List.of("admin", "config", "local").contains(db)) {
            throw new MongoError(ErrorCode.INVALID_NAMESPACE, "$changeStream may not be opened on the internal " + db
                    + " database");
        }
        if (coll != null && coll.startsWith("system.")) {
            throw new MongoError(ErrorCode.INVALID_NAMESPACE, "$changeStream may not be opened on the internal "
                    + db + "." + coll + " collection");
        }
        ChangeStream stream = new ChangeStream(catalog, feed, db, coll, cluster, options, rest);
        String ns = db + "." + (coll != null ? coll : "$cmd.aggregate");
        long batchSize = cmd.getDocument("cursor").containsKey("batchSize")
                ? cmd.getDocument("cursor").getNumber("batchSize").longValue() : DEFAULT_BATCH;
        List<BsonDocument> batch;
        try {
            batch = batchSize == 0 ? List.of() : stream.poll((int) Math.min(batchSize, DEFAULT_BATCH));
        } finally {
            charges.accept(stream.takeRequestCharge()); // throughput: the feed pages read
        }
        long id = 0;
        if (!stream.invalidated()) {
            expireIdle();
            do {
                id = random.nextLong() & Long.MAX_VALUE;
            } while (id == 0 || open.containsKey(id));
            open.put(id, new Open(stream, ns));
        }
        return reply("firstBatch", id, ns, batch, stream);
    }

    /** Records who opened stream {@code id} and in which session ({@code lsid.id}, or null). */
    public void own(long id, io.tetradb.mongo.command.SessionOwner owner, BsonValue session) {
        Open o = open.get(id);
        if (o != null) {
            o.owner = owner;
            o.session = session;
        }
    }

    /** The user that opened stream {@code id}, or null if it is not open. */
    public io.tetradb.mongo.command.SessionOwner ownerOf(long id) {
        Open o = open.get(id);
        return o == null ? null : o.owner;
    }

    /** The session ({@code lsid.id}) stream {@code id} was opened in; null without one or if it is not open. */
    public BsonValue sessionOf(long id) {
        Open o = open.get(id);
        return o == null ? null : o.session;
    }

    /** The streams opened in the sessions {@code which} selects (by {@code lsid.id} and user) close. */
    public void sessionsEnded(java.util.function.BiPredicate<BsonValue, io.tetradb.mongo.command.SessionOwner> which) {
        open.values().removeIf(o -> o.session != null && which.test(o.session, o.owner));
    }

    /** Whether {@code id} is one of this server's change stream cursors. */
    public boolean owns(BsonValue id) {
        return id != null && (id.isInt64() || id.isInt32()) && open.containsKey(id.asNumber().longValue());
    }

    /** The next events, waiting up to {@code maxTimeMS} for some (an empty nextBatch when none came). */
    public BsonDocument getMore(String db, BsonDocument cmd) {
        return getMore(db, cmd, ru -> { });
    }

    /** As above; what the stream's feed reads cost goes to {@code charges} (the command's request charge). */
    public BsonDocument getMore(String db, BsonDocument cmd, java.util.function.DoubleConsumer charges) {
        long id = cmd.get("getMore").asNumber().longValue();
        Open o = open.get(id);
        String ns = db + "." + cmd.getString("collection").getValue();
        if (o == null) {
            throw new MongoError(ErrorCode.CURSOR_NOT_FOUND, "cursor id " + id + " not found");
        }
        if (!o.ns.equals(ns)) {
            throw new MongoError(ErrorCode.UNAUTHORIZED, "Requested getMore on namespace '" + ns + "', but cursor "
                    + "belongs to a different namespace " + o.ns);
        }
        long batchSize = cmd.containsKey("batchSize") ? cmd.getNumber("batchSize").longValue() : 0;
        int max = batchSize <= 0 ? DEFAULT_BATCH : (int) Math.min(batchSize, DEFAULT_BATCH);
        long waitMillis = cmd.containsKey("maxTimeMS") ? cmd.getNumber("maxTimeMS").longValue() : DEFAULT_AWAIT_MILLIS;
        long deadline = System.nanoTime() + Math.max(0, waitMillis) * 1_000_000L;
        List<BsonDocument> batch;
        synchronized (o) {
            o.lastUsed = System.currentTimeMillis();
            try {
                while (true) {
                    batch = o.stream.poll(max);
                    long left = (deadline - System.nanoTime()) / 1_000_000L;
                    if (!batch.isEmpty() || o.stream.invalidated() || left <= 0) {
                        break;
                    }
                    feed.awaitBeyond(o.stream.position(), left);
                    io.tetradb.mongo.command.Interruption.check(); // killOp or a killed session: no more waiting
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MongoError(ErrorCode.INTERRUPTED, "getMore on a change stream was interrupted");
            } finally {
                charges.accept(o.stream.takeRequestCharge()); // throughput: the feed pages read
            }
            o.lastUsed = System.currentTimeMillis();
        }
        if (o.stream.invalidated()) {
            open.remove(id);
            id = 0;
        }
        return reply("nextBatch", id, ns, batch, o.stream);
    }

    /** Kills the ids that are change streams; returns them (the rest are for the other cursors). */
    public List<Long> kill(BsonArray ids) {
        List<Long> killed = new java.util.ArrayList<>();
        for (BsonValue v : ids) {
            if (v.isNumber() && open.remove(v.asNumber().longValue()) != null) {
                killed.add(v.asNumber().longValue());
            }
        }
        return killed;
    }

    public void closeAll() {
        open.clear();
    }

    private void expireIdle() {
        long now = System.currentTimeMillis();
        open.values().removeIf(o -> now - o.lastUsed > IDLE_TIMEOUT_MILLIS);
    }

    private static BsonDocument reply(String batchName, long id, String ns, List<BsonDocument> batch,
                                      ChangeStream stream) {
        return Replies.ok(new BsonDocument("cursor", new BsonDocument(batchName, new BsonArray(batch))
                .append("postBatchResumeToken", stream.postBatchResumeToken())
                .append("id", new BsonInt64(id)).append("ns", new BsonString(ns))));
    }
}
