package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.feed.ChangeFeedJson;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The change feed: {@code GET docs} with {@code A-IM: Incremental Feed} (latest version) or {@code A-IM:
 * Full-Fidelity Feed} (all versions and deletes), docs/cosmos-rest.md §3.8. The start is {@code If-None-Match}
 * ({@code *}: now, an etag: continue after it), else {@code If-Modified-Since} (point in time), else the beginning;
 * the response's {@code etag} is the next continuation: the store-wide feed position, so it stays valid on every
 * sub-range and across splits. 304 when there is nothing new.
 */
final class ChangeFeedReads {
    static final String INCREMENTAL = "incremental feed";
    static final String FULL_FIDELITY = "full-fidelity feed";

    private final CosmosApi api;

    ChangeFeedReads(CosmosApi api) {
        this.api = api;
    }

    /** A container body's {@code changeFeedPolicy: {retentionDuration: minutes}}, stored if present. */
    static void applyPolicy(com.fasterxml.jackson.databind.JsonNode body, io.tetradb.core.store.ContainerStore c) {
        com.fasterxml.jackson.databind.JsonNode p = body.get("changeFeedPolicy");
        if (p == null || p.isNull()) {
            return;
        }
        com.fasterxml.jackson.databind.JsonNode minutes = p.get("retentionDuration");
        if (!p.isObject() || minutes == null || !minutes.canConvertToLong() || minutes.asLong() < 0
                || minutes.asLong() > io.tetradb.core.feed.ChangeFeedPolicy.MAX_RETENTION.toMinutes()) {
            throw CosmosError.badRequest("changeFeedPolicy.retentionDuration must be a whole number of minutes from 0 "
                    + "to " + io.tetradb.core.feed.ChangeFeedPolicy.MAX_RETENTION.toMinutes() + ".");
        }
        var policy = new io.tetradb.core.feed.ChangeFeedPolicy(java.time.Duration.ofMinutes(minutes.asLong()));
        if (!policy.equals(c.changeFeed().policy())) {
            c.changeFeed().setPolicy(policy);
        }
    }

    /** Shows the container's change feed policy when it keeps all versions and deletes. */
    static void describePolicy(ObjectNode n, io.tetradb.core.store.ContainerStore c) {
        java.time.Duration retention = c.changeFeed().policy().retention();
        if (!retention.isZero()) {
            n.putObject("changeFeedPolicy").put("retentionDuration", retention.toMinutes());
        }
    }

    static boolean isChangeFeed(RestRequest r) {
        return r.header("A-IM") != null;
    }

    RestResponse read(RestRequest r, Target t) {
        String aim = r.header("A-IM").trim().toLowerCase(Locale.ROOT);
        ChangeFeedMode mode;
        if (aim.equals(INCREMENTAL)) {
            mode = ChangeFeedMode.LATEST_VERSION;
        } else if (aim.equals(FULL_FIDELITY)) {
            mode = ChangeFeedMode.ALL_VERSIONS_AND_DELETES;
        } else {
            throw CosmosError.badRequest("A-IM must be 'Incremental Feed' or 'Full-Fidelity Feed', not '"
                    + r.header("A-IM") + "'.");
        }
        PartitionKeyRanges.Scope scope = api.ranges.scope(r, t); // the named range (410/1002 once split)
        PartitionKeyValue pk = PartitionKeys.fromHeader(r, t.definition().partitionKey(), true);
        EpkRange range = scope.epk() == null ? EpkRange.FULL : scope.epk();
        long after = 0;
        long notBefore = 0;
        String ifNoneMatch = r.header("If-None-Match");
        FeedEtags etags = FeedEtags.of(t.store(), ifNoneMatch); // feed-etags hook: a cursor on a shared engine
        if (ifNoneMatch != null && !etags.onCursor()) {
            after = ifNoneMatch.trim().equals("*") ? t.store().changeFeed().currentPosition() : position(ifNoneMatch);
        } else if (r.header("If-Modified-Since") != null) {
            notBefore = time(r.header("If-Modified-Since"));
        }
        io.tetradb.core.store.ChargedChangeFeedPage charged = t.store().readChangeFeed(etags.request(
                new ChangeFeedRequest(mode, range, pk, after, notBefore, Queries.pageSize(r)), ifNoneMatch),
                ConsistencyHeader.of(r));
        ChangeFeedPage page = charged.page();
        String etag = etags.etag(page);
        if (page.changes().isEmpty() && page.caughtUp()) {
            RestResponse notModified = RestResponse.empty(304, charged.requestCharge());
            notModified.header("etag", etag);
            notModified.header("x-ms-item-count", "0");
            Items.sessionHeaders(notModified, t, 1, api.ranges.sessionRanges(r, t, scope.named()));
            return PartitionKeyRanges.echo(scope.named(), notModified);
        }
        ObjectNode body = Json.object();
        body.put("_rid", t.collRid());
        ArrayNode docs = body.putArray("Documents");
        for (ChangeFeedPage.Change c : page.changes()) {
            if (mode == ChangeFeedMode.LATEST_VERSION) {
                docs.add(ChangeFeedJson.latestVersion(Json.MAPPER, c));
            } else {
                docs.add(ChangeFeedJson.allVersions(Json.MAPPER, c, t.definition().partitionKey()));
            }
        }
        body.put("_count", docs.size());
        RestResponse out = RestResponse.json(200, body, charged.requestCharge());
        out.header("etag", etag);
        out.header("x-ms-item-count", Integer.toString(docs.size()));
        Items.sessionHeaders(out, t, 1, api.ranges.sessionRanges(r, t, scope.named()));
        return PartitionKeyRanges.echo(scope.named(), out);
    }

    /** An etag this endpoint gave out: the feed position, quoted. */
    private static long position(String etag) {
        String s = etag.trim();
        if (s.startsWith("\"") && s.endsWith("\"") && s.length() >= 2) {
            s = s.substring(1, s.length() - 1);
        }
        try {
            long p = Long.parseLong(s);
            if (p < 0) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw CosmosError.badRequest("If-None-Match '" + etag + "' is not a change feed continuation (an etag of "
                    + "an earlier change feed response, or * for now).");
        }
    }

    private static long time(String rfc1123) {
        try {
            return ZonedDateTime.parse(rfc1123.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw CosmosError.badRequest("If-Modified-Since '" + rfc1123 + "' is not an RFC 1123 date such as "
                    + "'Wed, 25 Nov 2026 10:42:55 GMT'.");
        }
    }
}
