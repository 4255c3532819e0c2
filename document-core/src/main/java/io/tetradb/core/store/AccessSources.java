package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.eval.PlanExecutor;
import io.tetradb.core.query.plan.IndexSeek;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.KeyRange;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Opens the document source an {@link AccessPath} describes: DOCS key ranges (scans, id lookups), index entry reads
 * with the check that makes each item appear once, composite reads merged across their prefixes, and the scope
 * filter that keeps a fan-out read inside the query's partitions or feed range.
 */
final class AccessSources {
    private final ContainerStore container;
    private java.util.function.Predicate<byte[]> prefilter;

    AccessSources(ContainerStore container) {
        this.container = container;
    }

    /** For scans: items the predicate is false for are skipped unparsed (see {@link TopLevelFields#prefilter}). */
    AccessSources prefilter(java.util.function.Predicate<byte[]> p) {
        this.prefilter = p;
        return this;
    }

    PlanExecutor.DocSource source(AccessPath access, List<PartitionKeyValue> partitions, EpkRange range,
                                          byte[] resumeAt, int firstBatch, QueryMetrics metrics) {
        PlanExecutor.DocSource in = unexpired(access, partitions, range, resumeAt, firstBatch, metrics);
        return container.expiryRule().active() ? new UnexpiredSource(in, container) : in; // TTL hook
    }

    private PlanExecutor.DocSource unexpired(AccessPath access, List<PartitionKeyValue> partitions, EpkRange range,
                                             byte[] resumeAt, int firstBatch, QueryMetrics metrics) {
        byte[] collId = container.collIdBytes();
        if (access.composite() != null) {
            return compositeSource(access, partitions, range, resumeAt, firstBatch, metrics);
        }
        if (access.ids() != null) {
            return new DocScanSource(container.reads(), container.codec(), idRanges(partitions, access.ids()),
                    resumeAt, metrics);
        }
        if (access.seek() == null) {
            List<DocScanSource.Range> ranges = new ArrayList<>();
            if (partitions != null) {
                List<byte[]> prefixes = new ArrayList<>();
                for (PartitionKeyValue p : partitions) {
                    prefixes.add(Keys.concat(collId, p.epk(), p.encoded()));
                }
                prefixes.sort(Arrays::compareUnsigned);
                for (byte[] prefix : prefixes) {
                    ranges.add(new DocScanSource.Range(prefix, Keys.prefixEnd(prefix)));
                }
            } else if (range != null) {
                ranges.add(new DocScanSource.Range(Keys.concat(collId, range.min()), Keys.concat(collId, range.max())));
            } else {
                ranges.add(new DocScanSource.Range(collId, Keys.prefixEnd(collId)));
            }
            return new DocScanSource(container.reads(), container.codec(), ranges, resumeAt, metrics)
                    .prefilter(prefilter);
        }
        IndexSeek seek = access.seek();
        Integer pathId = container.paths().find(seek.path());
        if (pathId == null) {
            return new DocScanSource(container.reads(), container.codec(), List.of(), null, metrics); // never indexed
        }
        byte[] prefix = Keys.concat(collId, Keys.collId(pathId));
        List<String> names = seek.names();
        IndexEntrySource.EntryCheck check = access.ordered() ? directValue(names)
                : firstMatch(names, seek.ranges(), false);
        IndexEntrySource entries = new IndexEntrySource(container.reads(), container.codec(), collId, prefix,
                seek.ranges(), access.reverse(), (key, start) -> IndexKeyEncoding.skip(key, start, false),
                scope(partitions, range), check, resumeAt, firstBatch, metrics);
        return access.ordered() ? new LongStringRuns(entries, prefix.length, new boolean[] {false}, List.of(names),
                new boolean[] {access.reverse()}) : entries;
    }

    private PlanExecutor.DocSource compositeSource(AccessPath access, List<PartitionKeyValue> partitions, EpkRange range,
                                                   byte[] resumeAt, int firstBatch, QueryMetrics metrics) {
        AccessPath.CompositeRead read = access.composite();
        CompositeIndex index = read.index();
        Integer pathId = container.paths().find(index.name());
        if (pathId == null) {
            return new DocScanSource(container.reads(), container.codec(), List.of(), null, metrics);
        }
        byte[] base = Keys.concat(container.collIdBytes(), Keys.collId(pathId));
        List<byte[]> prefixes = new ArrayList<>();
        for (byte[] values : read.prefixes()) {
            prefixes.add(Keys.concat(base, values));
        }
        // a position is one input's entry key: every input resumes at its own prefix followed by the same rest
        byte[] rest = null;
        if (resumeAt != null) {
            for (byte[] prefix : prefixes) {
                if (resumeAt.length >= prefix.length && Arrays.equals(resumeAt, 0, prefix.length, prefix, 0,
                        prefix.length)) {
                    rest = Arrays.copyOfRange(resumeAt, prefix.length, resumeAt.length);
                }
            }
            if (rest == null) {
                throw new StoreException(Status.BAD_REQUEST, "Invalid continuation token.");
            }
        }
        Predicate<byte[]> scope = scope(partitions, range);
        List<PlanExecutor.DocSource> inputs = new ArrayList<>();
        int[] prefixLengths = new int[prefixes.size()];
        int perInput = Math.max(4, (firstBatch + prefixes.size() - 1) / prefixes.size());
        for (int i = 0; i < prefixes.size(); i++) {
            byte[] prefix = prefixes.get(i);
            prefixLengths[i] = prefix.length;
            int first = read.equalities();
            IndexEntrySource.ValueEnd end = (key, start) -> {
                int at = start;
                for (int c = first; c < index.size(); c++) {
                    at = IndexKeyEncoding.skip(key, at, index.descending(c));
                }
                return at;
            };
            IndexEntrySource entries = new IndexEntrySource(container.reads(), container.codec(),
                    container.collIdBytes(), prefix, List.of(new KeyRange(null, null)), access.reverse(), end, scope,
                    IndexEntrySource.EntryCheck.ANY, rest == null ? null : Keys.concat(prefix, rest), perInput,
                    metrics);
            int sortKeys = read.sortKeys();
            List<List<String>> sortPaths = index.paths().subList(first, first + sortKeys);
            boolean[] stored = new boolean[sortKeys];
            boolean[] desc = new boolean[sortKeys];
            for (int j = 0; j < sortKeys; j++) {
                stored[j] = index.descending(first + j);
                desc[j] = index.descending(first + j) != access.reverse();
            }
            inputs.add(new LongStringRuns(entries, prefix.length, stored, sortPaths, desc));
        }
        return inputs.size() == 1 ? inputs.get(0) : new MergedSource(inputs, prefixLengths, access.reverse());
    }

    /**
     * DOCS key ranges: per logical partition, the exact key of each id, the range of an id prefix, or of an id range
     * (none when it is empty).
     */
    List<DocScanSource.Range> idRanges(List<PartitionKeyValue> partitions, AccessPath.IdKeys ids) {
        List<DocScanSource.Range> ranges = new ArrayList<>();
        for (PartitionKeyValue p : partitions) {
            if (ids.range() != null) {
                DocScanSource.Range r = idRange(Keys.concat(container.collIdBytes(), p.epk(), p.encoded()), ids.range());
                if (Arrays.compareUnsigned(r.from(), r.to()) < 0) {
                    ranges.add(r);
                }
                continue;
            }
            for (String id : ids.values()) {
                byte[] key = Keys.concat(container.collIdBytes(), p.epk(), p.encoded(), Keys.utf8(id));
                ranges.add(new DocScanSource.Range(key, ids.prefix() ? Keys.prefixEnd(key)
                        : Arrays.copyOf(key, key.length + 1)));
            }
        }
        ranges.sort((a, b) -> Arrays.compareUnsigned(a.from(), b.from()));
        return ranges;
    }

    /**
     * The keys of one logical partition's documents ({@code partition} their common prefix; the id's UTF-8 bytes
     * follow) whose ids lie in {@code r}. The smallest key above {@code x} is {@code x + 0x00}.
     */
    private static DocScanSource.Range idRange(byte[] partition, AccessPath.IdRange r) {
        byte[] from = r.from() == null ? partition : Keys.concat(partition, Keys.utf8(r.from()));
        if (r.from() != null && !r.fromInclusive()) {
            from = Arrays.copyOf(from, from.length + 1);
        }
        byte[] to = r.to() == null ? Keys.prefixEnd(partition) : Keys.concat(partition, Keys.utf8(r.to()));
        if (r.to() != null && r.toInclusive()) {
            to = Arrays.copyOf(to, to.length + 1);
        }
        return new DocScanSource.Range(from, to);
    }

    /** Keeps the document keys in the query's logical partitions or feed range; null when all are in scope. */
    private Predicate<byte[]> scope(List<PartitionKeyValue> partitions, EpkRange range) {
        byte[] collId = container.collIdBytes();
        int levels = container.definition().partitionKey().levels();
        int epkBytes = 16 * levels;
        Set<ByteBuffer> allowed = null;
        if (partitions != null) {
            allowed = new HashSet<>();
            for (PartitionKeyValue p : partitions) {
                allowed.add(ByteBuffer.wrap(Keys.concat(collId, p.epk(), p.encoded())));
            }
        }
        if (allowed == null && range == null) {
            return null;
        }
        Set<ByteBuffer> inScope = allowed;
        return docKey -> {
            if (inScope != null) {
                int pkStart = collId.length + epkBytes;
                int lpEnd = pkStart + PartitionKeyValue.encodedLength(docKey, pkStart, levels);
                if (!inScope.contains(ByteBuffer.wrap(docKey, 0, lpEnd))) {
                    return false;
                }
            }
            return range == null
                    || range.contains(Arrays.copyOfRange(docKey, collId.length, collId.length + epkBytes));
        };
    }

    /**
     * An item stands at the entry of its first value (in read order) that lies in the seek's ranges: one item with
     * several matching array elements is returned once, on whichever page reads that entry.
     */
    private static IndexEntrySource.EntryCheck firstMatch(List<String> names, List<KeyRange> ranges, boolean reverse) {
        return (item, key, start, end) -> {
            byte[] first = null;
            for (JsonNode v : IndexTerms.valuesAt(item, names)) {
                byte[] enc = IndexKeyEncoding.encode(v);
                if (!inRanges(enc, ranges)) {
                    continue;
                }
                if (first == null || (reverse ? Arrays.compareUnsigned(enc, first) > 0
                        : Arrays.compareUnsigned(enc, first) < 0)) {
                    first = enc;
                }
            }
            return first != null && Arrays.equals(first, 0, first.length, key, start, end);
        };
    }

    private static boolean inRanges(byte[] enc, List<KeyRange> ranges) {
        for (KeyRange r : ranges) {
            if (r.contains(enc)) {
                return true;
            }
        }
        return false;
    }

    /**
     * For index-ordered reads: an item stands at the entry of its own scalar value at the path (not at the entries
     * of array elements, which sort elsewhere than the array itself).
     */
    private static IndexEntrySource.EntryCheck directValue(List<String> names) {
        return (item, key, start, end) -> {
            JsonNode v = item;
            for (String n : names) {
                v = v.isObject() ? v.get(n) : null;
                if (v == null) {
                    return false;
                }
            }
            if (v.isContainerNode() || v.isMissingNode()) {
                return false;
            }
            byte[] enc = IndexKeyEncoding.encode(IndexTerms.bounded(v));
            return Arrays.equals(enc, 0, enc.length, key, start, end);
        };
    }
}
