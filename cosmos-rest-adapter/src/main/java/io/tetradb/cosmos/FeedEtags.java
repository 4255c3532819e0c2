package io.tetradb.cosmos;

import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.feed.FeedCursor;
import io.tetradb.core.feed.FeedCursorTokens;
import io.tetradb.core.store.ContainerStore;

import java.util.Base64;

/**
 * The change feed's etag codec. On the embedded engine an etag is the store-wide feed position ({@code "123"}), as
 * before. On a shared engine (a container whose feed is read per logical partition) it carries the reader's
 * {@link FeedCursor}, so it is valid on every server of the keyspace and after restarts: {@code "c<base64url>"} of
 * the core's bounded token ({@link FeedCursorTokens}: the cursor inline up to 1.5 KB, else the id of a stored copy),
 * at most about 2 KB in the header whatever the number of partitions. A feed started at a point in time keeps it in
 * its etags ({@code "t<millis>.c…"}): a cursor has no order across partitions, so a partition the first page did
 * not reach must still skip what came before that time. A position etag handed to such a container (from before this
 * codec) is still read the old way: correct on the server that gave it.
 */
final class FeedEtags {
    private static final String CURSOR = "c";
    private static final String SINCE = "t";

    private final ContainerStore store;
    /** The cursor the page starts at; null: the store-wide position ({@code after}) as before. */
    private final FeedCursor start;
    /** The point in time a cursor etag carries (0: none); then the page's, for the next etag. */
    private long notBefore;

    private FeedEtags(ContainerStore store, FeedCursor start) {
        this.store = store;
        this.start = start;
    }

    private FeedEtags(ContainerStore store, FeedCursor start, long notBefore) {
        this(store, start);
        this.notBefore = notBefore;
    }

    /** The start an {@code If-None-Match} asks for ({@code null}: the beginning, or a point in time). */
    static FeedEtags of(ContainerStore store, String ifNoneMatch) {
        if (!store.changeFeed().readsPerPartition()) {
            return new FeedEtags(store, null);
        }
        String etag = ifNoneMatch == null ? null : unquote(ifNoneMatch);
        if (etag == null) {
            return new FeedEtags(store, FeedCursor.beginning());
        }
        if (etag.equals("*")) {
            return new FeedEtags(store, null); // resolved per request scope in request()
        }
        if (!etag.startsWith(CURSOR) && !etag.startsWith(SINCE)) {
            return new FeedEtags(store, null); // a position etag: the store-wide sequence, as it was given
        }
        try {
            long since = 0;
            if (etag.startsWith(SINCE)) {
                int dot = etag.indexOf('.');
                since = Long.parseLong(etag.substring(SINCE.length(), dot));
                etag = etag.substring(dot + 1);
                if (!etag.startsWith(CURSOR) || since <= 0) {
                    throw new IllegalArgumentException("not a cursor etag");
                }
            }
            byte[] token = Base64.getUrlDecoder().decode(etag.substring(CURSOR.length()));
            return new FeedEtags(store, store.changeFeed().cursorTokens().decode(token), since);
        } catch (FeedCursorTokens.Expired e) {
            throw CosmosError.badRequest("If-None-Match '" + ifNoneMatch + "': " + e.getMessage() + ".");
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw CosmosError.badRequest("If-None-Match '" + ifNoneMatch + "' is not a change feed continuation (an "
                    + "etag of an earlier change feed response, or * for now).");
        }
    }

    /** True when the etag is a cursor (the caller then leaves the position alone). */
    boolean onCursor() {
        return start != null;
    }

    /** {@code r} with the cursor the etag names ({@code *} on a shared engine: every partition's present). */
    ChangeFeedRequest request(ChangeFeedRequest r, String ifNoneMatch) {
        FeedCursor cursor = start;
        if (cursor == null && ifNoneMatch != null && unquote(ifNoneMatch).equals("*")
                && store.changeFeed().readsPerPartition()) {
            cursor = store.changeFeed().cursorAtNow(r);
        }
        if (cursor == null) {
            return r;
        }
        notBefore = Math.max(notBefore, r.notBeforeMillis()); // If-Modified-Since on the first page, the etag's after
        return new ChangeFeedRequest(r.mode(), r.range(), r.partitionKey(), r.after(), notBefore, r.maxItems(), cursor);
    }

    /** The response's etag: the page's cursor as a token, or its position. */
    String etag(ChangeFeedPage page) {
        if (page.cursor() == null) {
            return "\"" + page.continuation() + "\"";
        }
        return "\"" + (notBefore > 0 ? SINCE + notBefore + "." : "") + CURSOR
                + Base64.getUrlEncoder().withoutPadding().encodeToString(
                store.changeFeed().cursorTokens().encode(page.cursor())) + "\"";
    }

    private static String unquote(String etag) {
        String s = etag.trim();
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
            s = s.substring(1, s.length() - 1);
        }
        return s;
    }
}
