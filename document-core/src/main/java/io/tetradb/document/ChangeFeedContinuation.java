package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A change feed continuation token: the container, the mode, the feed range (EPK range or partition key) and the
 * feed position (store-wide sequence) read up to. Base64 of JSON. Because the position is store-wide, not per
 * physical partition, a token stays valid for its range across partition splits and restarts.
 */
record ChangeFeedContinuation(String containerRid, ChangeFeedMode mode, EpkRange range, PartitionKeyValue partitionKey,
                              long position, long notBeforeMillis, io.tetradb.core.feed.FeedCursor cursor) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    ChangeFeedContinuation(String containerRid, ChangeFeedMode mode, EpkRange range, PartitionKeyValue partitionKey,
                           long position, long notBeforeMillis) {
        this(containerRid, mode, range, partitionKey, position, notBeforeMillis, null);
    }

    String encode() {
        return encode(null);
    }

    /**
     * As {@link #encode()}; with {@code tokens}, a cursor too large to travel inline ({@link
     * io.tetradb.core.feed.FeedCursorTokens#INLINE_MAX_BYTES}) is stored in the metadata and the token carries its
     * 17-byte id ({@code cursorToken}), so a change feed processor's lease stays bounded whatever the number of changed
     * logical partitions (inline, ~30 bytes each: the 2 MB item limit at ~60,000).
     */
    String encode(io.tetradb.core.feed.FeedCursorTokens tokens) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("v", 1).put("rid", containerRid).put("mode", mode.name());
        n.put("min", range.minHex()).put("max", range.maxHex());
        if (partitionKey != null) {
            n.set("pk", partitionKey.toJson());
        }
        n.put("position", position);
        if (notBeforeMillis > 0) {
            n.put("since", notBeforeMillis);
        }
        if (cursor != null) { // items on the partition contract: the lsn read through per logical partition
            byte[] bytes = cursor.encode();
            if (tokens != null && bytes.length > io.tetradb.core.feed.FeedCursorTokens.INLINE_MAX_BYTES) {
                n.put("cursorToken", Base64.getEncoder().encodeToString(tokens.encode(cursor)));
            } else {
                n.put("cursor", Base64.getEncoder().encodeToString(bytes));
            }
        }
        return Base64.getEncoder().encodeToString(n.toString().getBytes(StandardCharsets.UTF_8));
    }

    static ChangeFeedContinuation decode(String token) {
        return decode(token, null);
    }

    /** As {@link #decode(String)}, reading a stored cursor ({@code cursorToken}) through {@code tokens}. */
    static ChangeFeedContinuation decode(String token, io.tetradb.core.feed.FeedCursorTokens tokens) {
        try {
            JsonNode n = MAPPER.readTree(Base64.getDecoder().decode(token));
            PartitionKeyValue pk = null;
            if (n.hasNonNull("pk")) {
                List<JsonNode> components = new ArrayList<>();
                for (JsonNode c : (ArrayNode) n.get("pk")) {
                    components.add(c.isObject() && c.isEmpty()
                            ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : c);
                }
                pk = PartitionKeyValue.of(components);
            }
            return new ChangeFeedContinuation(n.get("rid").asText(), ChangeFeedMode.valueOf(n.get("mode").asText()),
                    EpkRange.ofHex(n.get("min").asText(), n.get("max").asText()), pk, n.get("position").asLong(),
                    n.path("since").asLong(0), n.hasNonNull("cursor") ? io.tetradb.core.feed.FeedCursor.decode(
                            Base64.getDecoder().decode(n.get("cursor").asText()))
                            : n.hasNonNull("cursorToken") && tokens != null ? tokens.decode(
                            Base64.getDecoder().decode(n.get("cursorToken").asText())) : null);
        } catch (io.tetradb.core.feed.FeedCursorTokens.Expired e) {
            throw e;
        } catch (Exception e) {
            throw new StoreException(Status.BAD_REQUEST, "'" + token + "' is not a change feed continuation token");
        }
    }
}
