package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * One page of changes, in feed order (by sequence; within a logical partition that is lsn order).
 *
 * @param continuation the position to pass as the next request's {@code after}
 * @param caughtUp     true when the page read up to the stable end of the feed (nothing more to read now)
 * @param cursor       for a request with a {@link FeedCursor}: the cursor to pass next (else null)
 */
public record ChangeFeedPage(List<Change> changes, long continuation, boolean caughtUp, FeedCursor cursor) {
    public ChangeFeedPage(List<Change> changes, long continuation, boolean caughtUp) {
        this(changes, continuation, caughtUp, null);
    }

    /**
     * One change. In latest-version mode {@link #item()} is the item's JSON with {@code _lsn}; in
     * all-versions-and-deletes mode it is null and the record holds the images.
     */
    public static final class Change {
        private final ChangeRecord record;
        /** Latest version: the stored item (the record's version); its JSON is made only when asked for. */
        private final byte[] stored;
        private byte[] item;

        public Change(ChangeRecord record, byte[] item) {
            this.record = record;
            this.stored = null;
            this.item = item;
        }

        private Change(ChangeRecord record, byte[] stored, boolean latest) {
            this.record = record;
            this.stored = stored;
        }

        /** A latest-version change of the stored item {@code stored}, whose lsn is the record's. */
        static Change ofStored(ChangeRecord record, byte[] stored) {
            return new Change(record, stored, true);
        }

        public ChangeRecord record() {
            return record;
        }

        /** Latest version: the stored item (the core's format, header included: typed trees are read from it), or null. */
        public byte[] stored() {
            return stored;
        }

        /** The item's JSON with {@code _lsn} (latest version), or null. */
        public byte[] item() {
            if (item == null && stored != null) {
                item = ChangeFeed.withLsn(stored, record.lsn());
            }
            return item;
        }

        /**
         * Bytes read for this change: the stored item (latest version), else the JSON given, else (all versions and
         * deletes) the record's current and previous images.
         */
        public int size() {
            if (stored != null) {
                return stored.length;
            }
            if (item != null) {
                return item.length;
            }
            return (record.current() == null ? 0 : record.current().length)
                    + (record.previous() == null ? 0 : record.previous().length);
        }

        /**
         * The item with {@code _lsn} as a tree, exactly as its JSON ({@link #item()}) reads back; a binary item is
         * read straight into the tree (no JSON text written and parsed again: the change feed processor's largest
         * per-change cost).
         */
        public ObjectNode tree(ObjectMapper mapper) {
            if (stored != null && io.tetradb.core.item.StoredItems.isBinary(stored)) {
                ObjectNode node = io.tetradb.core.index.JsonTextForm.of(io.tetradb.core.item.StoredItems.parseChange(stored));
                node.put("_lsn", record.lsn());
                asJsonReadsIntegers(node);
                return node;
            }
            try {
                return (ObjectNode) mapper.readTree(item());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Integers as Jackson reads them from text: int when they fit, else long, else BigInteger (in place). */
        private static void asJsonReadsIntegers(com.fasterxml.jackson.databind.JsonNode container) {
            if (container instanceof ObjectNode o) {
                for (java.util.Iterator<java.util.Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it =
                     o.fields(); it.hasNext(); ) {
                    java.util.Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> f = it.next();
                    com.fasterxml.jackson.databind.JsonNode v = f.getValue();
                    if (v.isContainerNode()) {
                        asJsonReadsIntegers(v);
                    } else if (v.isIntegralNumber() && !v.isInt()) {
                        f.setValue(integer(v));
                    }
                }
            } else if (container instanceof com.fasterxml.jackson.databind.node.ArrayNode a) {
                for (int i = 0; i < a.size(); i++) {
                    com.fasterxml.jackson.databind.JsonNode v = a.get(i);
                    if (v.isContainerNode()) {
                        asJsonReadsIntegers(v);
                    } else if (v.isIntegralNumber() && !v.isInt()) {
                        a.set(i, integer(v));
                    }
                }
            }
        }

        private static com.fasterxml.jackson.databind.JsonNode integer(com.fasterxml.jackson.databind.JsonNode v) {
            java.math.BigInteger b = v.bigIntegerValue();
            if (b.bitLength() < 32) {
                return com.fasterxml.jackson.databind.node.IntNode.valueOf(b.intValue());
            }
            if (b.bitLength() < 64) {
                return com.fasterxml.jackson.databind.node.LongNode.valueOf(b.longValue());
            }
            return com.fasterxml.jackson.databind.node.BigIntegerNode.valueOf(b);
        }
    }
}
