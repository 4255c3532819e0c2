package io.tetradb.mongo.changestream;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.mongo.aggregate.AggregationPipeline;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.store.StoredDoc;
import org.bson.BsonArray;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One open change stream: what it watches (a collection, a database, or the deployment), the feed position it has
 * delivered up to, and the stages after {@code $changeStream}. {@link #poll(int)} reads the events numbered after
 * that position up to the feed's stable position, in sequence order across collections.
 */
final class ChangeStream {
    /** Databases a deployment-wide stream leaves out, as MongoDB does. */
    private static final Set<String> INTERNAL_DATABASES = Set.of("admin", "config", "local");

    private final MongoCatalog catalog;
    private final FeedAdapter feed;
    private final String db;
    /** The watched collection, or null for a database or deployment stream. */
    private final String coll;
    private final boolean cluster;
    private final ChangeStreamOptions options;
    private final AggregationPipeline stages;
    private final boolean hasStages;
    /** Timestamp a startAtOperationTime stream starts at (events before it are skipped), or null. */
    private final BsonTimestamp startAt;
    private long position;
    /** The containers seen so far, by id: a dropped one is reported once. */
    private final Map<Integer, String[]> seen = new HashMap<>();
    /** Events decided but not delivered yet (a drop's invalidate, a resumed-after drop). */
    private final List<BsonDocument> queued = new ArrayList<>();
    private boolean invalidated;
    /** On a shared engine: the position per collection and logical partition (null: the store-wide sequence). */
    private final StreamCursors cursors;

    ChangeStream(MongoCatalog catalog, FeedAdapter feed, String db, String coll, boolean cluster,
                 ChangeStreamOptions options, BsonArray rest) {
        this.catalog = catalog;
        this.feed = feed;
        this.db = db;
        this.coll = coll;
        this.cluster = cluster;
        this.options = options;
        this.hasStages = !rest.isEmpty();
        this.stages = new AggregationPipeline(rest);
        this.startAt = options.startAtOperationTime();
        ResumeToken from = options.resumeAfter() != null ? options.resumeAfter() : options.startAfter();
        this.cursors = startCursors(feed, from); // shared-engine hook: cursors instead of the sequence
        if (from != null) {
            checkRetained(from.crtsMillis());
            position = from.cursor() != null ? feed.stablePosition() : from.seq();
            if (from.kind() == ResumeToken.Kind.INVALIDATE && options.resumeAfter() != null) {
                throw new MongoError(ErrorCode.INVALID_RESUME_TOKEN, "Attempting to resume a change stream using "
                        + "'resumeAfter' is not allowed from an invalidate notification.");
            }
            if (coll != null && from.kind() == ResumeToken.Kind.EVENT) {
                seen.put(from.collId(), new String[]{db, coll});
            }
            if (coll != null && from.kind() == ResumeToken.Kind.DROP) {
                queued.add(invalidate(new ResumeToken(from.seq(), from.crtsMillis(), from.collId(),
                        ResumeToken.Kind.INVALIDATE, from.cursor())));
            }
        } else if (startAt != null) {
            checkRetained(startAt.getTime() * 1000L);
            position = 0;
        } else {
            position = feed.stablePosition();
        }
        for (MongoCollection c : watched()) {
            if (from == null || coll == null) {
                seen.put(c.container().definition().collId(), new String[]{c.database(), c.name()});
            }
            if (cursors != null && from == null && startAt == null) { // from now: each collection's present
                cursors.put(c.container().definition().collId(), feed.cursorAtNow(c.container()));
            }
        }
    }

    /** The cursors a stream on a shared engine starts from (a cursor token's, or none yet); null off one. */
    private static StreamCursors startCursors(FeedAdapter feed, ResumeToken from) {
        if (from != null && from.cursor() != null) {
            if (!feed.perPartition()) {
                throw new MongoError(ErrorCode.INVALID_RESUME_TOKEN, "Bad resume token: it was written by a server "
                        + "whose collections are on a shared engine (--storage cassandra); this one's are not");
            }
            try {
                return StreamCursors.decode(feed.cursorTokens(), from.cursor());
            } catch (io.tetradb.core.feed.FeedCursorTokens.Expired e) {
                throw new MongoError(ErrorCode.CHANGE_STREAM_HISTORY_LOST, "Resume of change stream was not "
                        + "possible, as the resume point may no longer be in the oplog.");
            } catch (IllegalArgumentException | java.nio.BufferUnderflowException e) {
                throw new MongoError(ErrorCode.INVALID_RESUME_TOKEN, "Bad resume token: this server did not issue "
                        + from.toBson().toJson());
            }
        }
        if (from != null || !feed.perPartition()) {
            return null; // a sequence token is read as before (valid on the server that wrote it)
        }
        return new StreamCursors(feed.cursorTokens());
    }

    /** A token of the stream's position as it is (no event): the sequence, or the cursors on a shared engine. */
    private ResumeToken positionToken(long at, long time, int collId, ResumeToken.Kind kind) {
        return cursors == null ? new ResumeToken(at, time, collId, kind)
                : new ResumeToken(0, time, collId, kind, cursors.now());
    }

    private static void checkRetained(long millis) {
        if (millis < System.currentTimeMillis() - FeedAdapter.RETENTION.toMillis()) {
            throw new MongoError(ErrorCode.CHANGE_STREAM_HISTORY_LOST, "Resume of change stream was not possible, "
                    + "as the resume point may no longer be in the oplog.");
        }
    }

    boolean invalidated() {
        return invalidated;
    }

    long position() {
        return position;
    }

    /** The token of the position delivered so far (the reply's postBatchResumeToken). */
    BsonDocument postBatchResumeToken() {
        return positionToken(position, System.currentTimeMillis(), 0, ResumeToken.Kind.HIGH_WATER_MARK).toBson();
    }

    /** The request units the feed pages read since the last {@link #takeRequestCharge()} cost. */
    private double charged;

    /** What this stream's feed reads cost since the last call (the getMore or aggregate that polled reports it). */
    double takeRequestCharge() {
        double ru = charged;
        charged = 0;
        return ru;
    }

    /** The events after the delivered position, at most {@code max}; empty when there are none yet. */
    List<BsonDocument> poll(int max) {
        List<BsonDocument> out = new ArrayList<>();
        while (!queued.isEmpty() && out.size() < max) {
            BsonDocument e = queued.remove(0);
            if (e.getString("operationType").getValue().equals("invalidate")) {
                invalidated = true;
            }
            out.add(e);
        }
        if (invalidated || out.size() >= max) {
            return out;
        }
        if (cursors != null) {
            return pollCursors(out, max); // shared-engine hook
        }
        long upTo = feed.stablePosition();
        List<MongoCollection> colls = watched();
        record Pending(FeedEvent event, MongoCollection coll) {
        }
        List<Pending> pending = new ArrayList<>();
        long notBefore = startAt == null ? 0 : startAt.getTime() * 1000L;
        for (MongoCollection c : colls) {
            seen.putIfAbsent(c.container().definition().collId(), new String[]{c.database(), c.name()});
            for (FeedEvent e : feed.read(c.container(), position, upTo, max, notBefore, ru -> charged += ru)) {
                pending.add(new Pending(e, c));
            }
        }
        pending.sort(Comparator.comparingLong(p -> p.event().seq()));
        long reached = upTo;
        if (pending.size() > max - out.size()) {
            pending = new ArrayList<>(pending.subList(0, max - out.size()));
            reached = pending.get(pending.size() - 1).event().seq();
        }
        long last = position;
        for (Pending p : pending) {
            BsonDocument event;
            try {
                event = event(p.event(), p.coll(), new ResumeToken(p.event().seq(), p.event().crtsMillis(),
                        p.coll().container().definition().collId(), ResumeToken.Kind.EVENT));
            } catch (MongoError e) {
                if (out.isEmpty()) {
                    throw e;
                }
                reached = last; // deliver what came before; the next getMore fails on this event
                break;
            }
            last = p.event().seq();
            if (event != null) {
                out.add(event);
            }
        }
        position = Math.max(position, reached);
        if (reached == upTo) {
            droppedSince(colls, out);
        }
        return out;
    }

    /**
     * {@link #poll} on a shared engine: each watched collection's next page after its cursor, merged by commit time
     * without reordering any collection's (hence any logical partition's) events; at most
     * {@link StreamCursors#MAX_BATCH} events, each with a token of the cursors just after it.
     */
    private List<BsonDocument> pollCursors(List<BsonDocument> out, int max) {
        long upTo = feed.stablePosition();
        int limit = Math.min(max - out.size(), StreamCursors.MAX_BATCH);
        long notBefore = startAt == null ? 0 : startAt.getTime() * 1000L;
        List<MongoCollection> colls = watched();
        List<FeedAdapter.CursorPage> pages = new ArrayList<>();
        List<io.tetradb.core.feed.FeedCursor> starts = new ArrayList<>();
        boolean caughtUp = true;
        for (MongoCollection c : colls) {
            int collId = c.container().definition().collId();
            seen.putIfAbsent(collId, new String[]{c.database(), c.name()});
            io.tetradb.core.feed.FeedCursor start = cursors.has(collId) ? cursors.get(collId)
                    : io.tetradb.core.feed.FeedCursor.beginning(); // a collection new since the stream began
            FeedAdapter.CursorPage page = feed.readCursor(c.container(), start, limit, notBefore, ru -> charged += ru);
            pages.add(page);
            starts.add(start);
            caughtUp &= page.caughtUp();
        }
        cursors.startBatch();
        int[] taken = new int[colls.size()];
        boolean stopped = false;
        while (out.size() < max && !stopped) {
            int pick = -1;
            for (int i = 0; i < colls.size(); i++) { // the earliest head: each collection's own order is kept
                List<FeedAdapter.CursorEvent> events = pages.get(i).events();
                if (taken[i] < events.size() && (pick < 0 || events.get(taken[i]).event().crtsMillis()
                        < pages.get(pick).events().get(taken[pick]).event().crtsMillis())) {
                    pick = i;
                }
            }
            if (pick < 0 || taken.length == 0 || sum(taken) >= limit) {
                break;
            }
            FeedAdapter.CursorEvent ce = pages.get(pick).events().get(taken[pick]);
            MongoCollection c = colls.get(pick);
            int collId = c.container().definition().collId();
            ResumeToken token = new ResumeToken(0, ce.event().crtsMillis(), collId, ResumeToken.Kind.EVENT,
                    cursors.after(collId, ce.partition(), ce.lsn()));
            BsonDocument event;
            try {
                event = event(ce.event(), c, token);
            } catch (MongoError e) {
                if (out.isEmpty()) {
                    throw e;
                }
                stopped = true; // deliver what came before; the next getMore fails on this event
                break;
            }
            taken[pick]++;
            if (event != null) {
                out.add(event);
            }
        }
        boolean all = !stopped;
        for (int i = 0; i < colls.size(); i++) {
            int collId = colls.get(i).container().definition().collId();
            List<FeedAdapter.CursorEvent> events = pages.get(i).events();
            if (taken[i] == events.size()) {
                cursors.put(collId, pages.get(i).next()); // the whole page: its end (records skipped included)
            } else {
                all = false;
                io.tetradb.core.feed.FeedCursor next = starts.get(i).copy();
                for (int k = 0; k < taken[i]; k++) {
                    next.advance(events.get(k).partition(), events.get(k).lsn());
                }
                cursors.put(collId, next);
            }
        }
        position = Math.max(position, upTo);
        if (all && caughtUp) {
            droppedSince(colls, out);
        }
        return out;
    }

    private static int sum(int[] a) {
        int n = 0;
        for (int x : a) {
            n += x;
        }
        return n;
    }

    /** Whether an event is at or after startAtOperationTime (events of its second before it are skipped). */
    private boolean afterStart(BsonTimestamp ts) {
        return startAt == null || ts.compareTo(startAt) >= 0;
    }

    /** Reports collections (and a database) that went away since the last look: drop, then invalidate if watched. */
    private void droppedSince(List<MongoCollection> now, List<BsonDocument> out) {
        Set<Integer> present = new java.util.HashSet<>();
        for (MongoCollection c : now) {
            present.add(c.container().definition().collId());
        }
        long at = position;
        long time = System.currentTimeMillis();
        boolean any = false;
        for (Iterator<Map.Entry<Integer, String[]>> it = seen.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, String[]> e = it.next();
            if (present.contains(e.getKey())) {
                continue;
            }
            it.remove();
            any = true;
            ResumeToken token = positionToken(at, time, e.getKey(), ResumeToken.Kind.DROP);
            BsonDocument drop = head(token, "drop", time).append("ns", ns(e.getValue()[0], e.getValue()[1]));
            addFiltered(drop, out);
            if (coll != null) {
                invalidated = true;
                out.add(invalidate(positionToken(at, time, e.getKey(), ResumeToken.Kind.INVALIDATE)));
                return;
            }
        }
        if (any && coll == null && !cluster && !catalog.hasCollections(db)) {
            ResumeToken token = positionToken(at, time, 0, ResumeToken.Kind.DROP_DATABASE);
            addFiltered(head(token, "dropDatabase", time).append("ns", new BsonDocument("db", new BsonString(db))),
                    out);
            invalidated = true;
            out.add(invalidate(positionToken(at, time, 0, ResumeToken.Kind.INVALIDATE)));
        }
    }

    private BsonDocument invalidate(ResumeToken token) {
        return head(token, "invalidate", token.crtsMillis());
    }

    private void addFiltered(BsonDocument event, List<BsonDocument> out) {
        BsonDocument shown = throughStages(event);
        if (shown != null) {
            out.add(shown);
        }
    }

    /** The collections this stream reads now (a database's or the deployment's user collections). */
    private List<MongoCollection> watched() {
        List<MongoCollection> out = new ArrayList<>();
        if (coll != null) {
            MongoCollection c = catalog.collection(db, coll);
            if (c != null) {
                out.add(c);
            }
            return out;
        }
        List<String> dbs = cluster ? catalog.databases() : List.of(db);
        for (String d : dbs) {
            if (cluster && INTERNAL_DATABASES.contains(d)) {
                continue;
            }
            for (ContainerDefinition def : catalog.collections(d)) {
                try {
                    MongoCollection c = catalog.collection(d, def.id());
                    if (c != null) {
                        out.add(c);
                    }
                } catch (StoreException e) {
                    if (e.status() != Status.NOT_FOUND) {
                        throw e;
                    }
                }
            }
        }
        return out;
    }

    // ---- event documents ---------------------------------------------------------------------------------------

    private BsonDocument head(ResumeToken token, String operationType, long wallMillis) {
        return new BsonDocument("_id", token.toBson()).append("operationType", new BsonString(operationType))
                .append("clusterTime", clusterTime(token.seq(), token.crtsMillis()))
                .append("wallTime", new BsonDateTime(wallMillis));
    }

    /** The event's cluster time: its commit second, and the feed sequence to order events within it. */
    static BsonTimestamp clusterTime(long seq, long crtsMillis) {
        return new BsonTimestamp((int) (crtsMillis / 1000), (int) (seq & 0x7FFFFFFFL));
    }

    private static BsonDocument ns(String db, String coll) {
        return new BsonDocument("db", new BsonString(db)).append("coll", new BsonString(coll));
    }

    /** MongoDB's event document for one feed record, after the stream's stages; null when filtered out. */
    private BsonDocument event(FeedEvent e, MongoCollection c, ResumeToken token) {
        BsonTimestamp ts = clusterTime(e.seq(), e.crtsMillis());
        if (!afterStart(ts)) {
            return null;
        }
        boolean prePost = PrePostImages.enabled(catalog, c);
        BsonDocument key = documentKey(c, e.after() != null ? e.after() : e.before());
        BsonDocument out;
        switch (e.kind()) {
            case INSERT -> out = head(token, "insert", e.crtsMillis()).append("fullDocument", e.after())
                    .append("ns", ns(c.database(), c.name())).append("documentKey", key);
            case DELETE -> {
                out = head(token, "delete", e.crtsMillis()).append("ns", ns(c.database(), c.name()))
                        .append("documentKey", key);
                beforeChange(out, e, prePost);
            }
            default -> {
                boolean replace = e.replacement();
                BsonDocument after = e.after();
                BsonDocument before = e.before();
                if (replace) {
                    out = head(token, "replace", e.crtsMillis()).append("fullDocument", after)
                            .append("ns", ns(c.database(), c.name())).append("documentKey", key);
                } else {
                    out = head(token, "update", e.crtsMillis());
                    BsonValue full = fullDocument(after, key, c, prePost, token);
                    if (full != null) {
                        out.append("fullDocument", full);
                    }
                    out.append("ns", ns(c.database(), c.name())).append("documentKey", key)
                            .append("updateDescription", UpdateDescription.between(before == null
                                    ? new BsonDocument() : before, after));
                }
                beforeChange(out, e, prePost);
            }
        }
        return throughStages(out);
    }

    /** An update's {@code fullDocument}: looked up now, or the post-image when the collection keeps them. */
    private BsonValue fullDocument(BsonDocument after, BsonDocument key, MongoCollection c, boolean prePost,
                                   ResumeToken token) {
        switch (options.fullDocument()) {
            case "updateLookup" -> {
                StoredDoc now = c.findById(key.get("_id"), new double[1]);
                return now == null ? BsonNull.VALUE : now.doc();
            }
            case "whenAvailable" -> {
                return prePost ? after : BsonNull.VALUE;
            }
            case "required" -> {
                if (!prePost) {
                    throw noImage("post", token);
                }
                return after;
            }
            default -> {
                return null;
            }
        }
    }

    private void beforeChange(BsonDocument out, FeedEvent e, boolean prePost) {
        switch (options.fullDocumentBeforeChange()) {
            case "whenAvailable" -> out.append("fullDocumentBeforeChange",
                    prePost && e.before() != null ? e.before() : BsonNull.VALUE);
            case "required" -> {
                if (!prePost || e.before() == null) {
                    throw noImage("pre", new ResumeToken(e.seq(), e.crtsMillis(), 0, ResumeToken.Kind.EVENT));
                }
                out.append("fullDocumentBeforeChange", e.before());
            }
            default -> {
            }
        }
    }

    private static MongoError noImage(String which, ResumeToken token) {
        return new MongoError(ErrorCode.NO_MATCHING_DOCUMENT, "Change stream was configured to require a " + which
                + "-image for all update, delete and replace events, but the " + which + "-image was not found for "
                + "event: " + token.toBson().toJson());
    }

    /** {@code {<shard key>, _id}} as MongoDB writes it for a sharded collection, {@code {_id}} otherwise. */
    private static BsonDocument documentKey(MongoCollection c, BsonDocument doc) {
        BsonDocument key = new BsonDocument();
        if (c.shardField() != null && doc.containsKey(c.shardField()) && !c.shardField().equals("_id")) {
            key.append(c.shardField(), doc.get(c.shardField()));
        }
        return key.append("_id", doc.get("_id"));
    }

    /** Runs the stream's stages over one event; its {@code _id} (the resume token) must come through unchanged. */
    private BsonDocument throughStages(BsonDocument event) {
        if (!hasStages) {
            return event;
        }
        Iterator<BsonDocument> it = stages.runOver(List.of(event));
        if (!it.hasNext()) {
            return null;
        }
        BsonDocument shown = it.next();
        if (!event.get("_id").equals(shown.get("_id"))) {
            throw new MongoError(ErrorCode.CHANGE_STREAM_FATAL_ERROR, "Encountered an event whose _id field, which "
                    + "contains the resume token, was modified by the pipeline. Modifying the _id field of an event "
                    + "makes it impossible to resume the stream from that point. Only transformations that retain "
                    + "the unmodified _id field are allowed.");
        }
        return shown;
    }
}
