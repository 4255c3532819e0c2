package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionMap;
import io.tetradb.core.partition.PhysicalPartition;

import java.util.ArrayList;
import java.util.List;

/**
 * The partition key ranges the SDKs see (docs/cosmos-rest.md §3.4, §5). With physical ranges on, one range per
 * physical partition of the core: id = the partition's number, {@code minInclusive}/{@code maxExclusive} its EPK
 * bounds in Cosmos's upper-case hex, {@code parents} the partition it was split from; the feed's etag is the next
 * partition number, which every split raises (ids are never reused), so Java's incremental read sees a split and
 * stops on 304 otherwise. Off: the one range "0" over the whole key space, whatever the core's partitions.
 * A request naming a range id that is not current (split away, or never made) is 410 with sub-status 1002
 * (PartitionKeyRangeGone), on which both SDKs refresh their routing map and retry on the children.
 */
final class PartitionKeyRanges {
    /** The single range of the default mode. */
    static final Range WHOLE = new Range("0", EpkRange.FULL, -1);

    /** One range: its id, EPK bounds and the id it was split from (-1: none). */
    record Range(String id, EpkRange epk, int parent) {
    }

    private final boolean physical;

    PartitionKeyRanges(boolean physical) {
        this.physical = physical;
    }

    boolean physical() {
        return physical;
    }

    /** The current ranges of {@code t}, sorted by EPK. */
    List<Range> current(Target t) {
        if (!physical) {
            return List.of(WHOLE);
        }
        PartitionMap map = t.store().partitionMap();
        List<Range> out = new ArrayList<>();
        for (PhysicalPartition p : map.partitions()) {
            out.add(new Range(Integer.toString(p.id()), p.range(), p.parentId()));
        }
        return out;
    }

    /**
     * The ranges a session token names, as Cosmos DB's {@code <rangeId>:<token>} list does: the range the request
     * names, else the one holding its (whole) partition key, else every current range (a query or feed over the
     * container).
     */
    List<String> sessionRanges(RestRequest r, Target t, Range named) {
        if (!physical) {
            return List.of(WHOLE.id());
        }
        if (named != null) {
            return List.of(named.id());
        }
        io.tetradb.core.partition.PartitionKeyValue pk;
        try {
            pk = PartitionKeys.fromHeader(r, t.definition().partitionKey(), false);
        } catch (CosmosError prefixOrBad) { // a prefix of a hierarchical key spans ranges; a bad one was answered
            pk = null;
        }
        if (pk != null) {
            return List.of(Integer.toString(t.store().partitionMap().route(pk.epk()).id()));
        }
        List<String> ids = new ArrayList<>();
        current(t).forEach(range -> ids.add(range.id()));
        return ids;
    }

    /** The routing map's version, quoted: moves with every split. */
    String etag(Target t) {
        return physical ? "\"" + t.store().partitionMap().nextPartitionId() + "\"" : Containers.PKRANGES_ETAG;
    }

    /**
     * The range a request names in {@code x-ms-documentdb-partitionkeyrangeid} (Java may send {@code collRid,id}),
     * or null when it names none; 410/1002 when it is not a current range.
     */
    Range named(RestRequest r, Target t) {
        String header = r.header("x-ms-documentdb-partitionkeyrangeid");
        if (header == null) {
            return null;
        }
        String id = header.trim();
        int comma = id.lastIndexOf(',');
        if (comma >= 0) {
            id = id.substring(comma + 1).trim();
        }
        List<Range> ranges = current(t);
        for (Range range : ranges) {
            if (range.id().equals(id)) {
                return range;
            }
        }
        throw new CosmosError(410, 1002, "The partition key range " + id + " does not exist (it was split, or never "
                + "existed); the current ranges are " + ranges.stream().map(Range::id).toList() + ". Read "
                + "pkranges again and retry on the ranges covering it.");
    }

    /** A request's scope: the range it names (null: none) and the EPK range it covers (null: the whole container). */
    record Scope(Range named, EpkRange epk) {
    }

    /**
     * The EPK range a request covers: its named range, narrowed by {@code x-ms-start-epk}/{@code x-ms-end-epk} (a
     * feed range inside it); null when it names neither (the whole container).
     */
    Scope scope(RestRequest r, Target t) {
        Range named = named(r, t);
        EpkRange epk = epkHeaders(r);
        if (named == null) {
            return new Scope(null, epk);
        }
        if (epk == null) {
            return new Scope(named, named.epk().equals(EpkRange.FULL) ? null : named.epk());
        }
        return new Scope(named, intersect(named.epk(), epk));
    }

    /**
     * Echoes the serving range's id, as Cosmos DB does (Java compares it with the range it resolved): the range
     * resolved before the work, so a split meanwhile does not turn a done request into a 410.
     */
    static RestResponse echo(Range named, RestResponse out) {
        if (named != null) {
            out.header("x-ms-documentdb-partitionkeyrangeid", named.id());
        }
        return out;
    }

    /** The pkranges feed: every current range (Java's incremental read and Node's plain GET), or 304. */
    RestResponse feed(RestRequest r, Target t) {
        String etag = etag(t);
        String inm = r.header("If-None-Match");
        if (inm != null && (inm.trim().equals(etag) || inm.trim().equals(unquote(etag)) || inm.trim().equals("*"))) {
            return RestResponse.empty(304, 1).header("etag", etag).header("x-ms-item-count", "0")
                    .header("lsn", unquote(etag)).header("x-ms-global-committed-lsn", unquote(etag));
        }
        ObjectNode body = Json.object();
        body.put("_rid", t.collRid());
        ArrayNode list = body.putArray("PartitionKeyRanges");
        List<Range> ranges = current(t);
        for (Range range : ranges) {
            list.add(json(t, range));
        }
        body.put("_count", ranges.size());
        return RestResponse.json(200, body, 1).header("etag", etag)
                .header("x-ms-item-count", Integer.toString(ranges.size()))
                .header("lsn", unquote(etag)).header("x-ms-global-committed-lsn", unquote(etag));
    }

    private ObjectNode json(Target t, Range range) {
        ObjectNode n = Json.object();
        String rid = ResourceIds.pkrange(t.collRid(), Integer.parseInt(range.id()));
        n.put("_rid", rid);
        n.put("id", range.id());
        n.put("_etag", "\"" + rid + "\"");
        n.put("minInclusive", range.epk().minHex());
        n.put("maxExclusive", range.epk().maxHex());
        n.put("ridPrefix", Integer.parseInt(range.id()));
        n.put("_self", t.self() + "pkranges/" + rid + "/");
        n.put("throughputFraction", 1.0 / Math.max(1, current(t).size()));
        n.put("status", "online");
        ArrayNode parents = n.putArray("parents");
        if (range.parent() >= 0) {
            parents.add(Integer.toString(range.parent()));
        }
        n.put("_ts", t.definition().ts());
        n.put("_lsn", 1);
        return n;
    }

    private static String unquote(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
                ? etag.substring(1, etag.length() - 1) : etag;
    }

    /** {@code x-ms-start-epk}/{@code x-ms-end-epk}, or null when neither is sent. */
    static EpkRange epkHeaders(RestRequest r) {
        String start = r.header("x-ms-start-epk");
        String end = r.header("x-ms-end-epk");
        if (start == null && end == null) {
            return null;
        }
        try {
            return EpkRange.ofHex(start == null ? "" : start, end == null ? "FF" : end);
        } catch (RuntimeException e) {
            throw CosmosError.badRequest("x-ms-start-epk/x-ms-end-epk must be hexadecimal effective partition keys.");
        }
    }

    static EpkRange intersect(EpkRange a, EpkRange b) {
        byte[] min = EpkRange.compare(a.min(), b.min()) >= 0 ? a.min() : b.min();
        byte[] max = EpkRange.compare(a.max(), b.max()) <= 0 ? a.max() : b.max();
        if (EpkRange.compare(min, max) > 0) {
            max = min; // disjoint: an empty range
        }
        return new EpkRange(min, max);
    }

    /** Whether {@code outer} holds all of {@code inner}. */
    static boolean covers(EpkRange outer, EpkRange inner) {
        return EpkRange.compare(outer.min(), inner.min()) <= 0 && EpkRange.compare(inner.max(), outer.max()) <= 0;
    }
}
