package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/** A change's metadata, as azure-cosmos' {@code ChangeFeedMetaData}. */
public final class ChangeFeedMetaData {
    private final JsonNode json;

    ChangeFeedMetaData(JsonNode json) {
        this.json = json;
    }

    /** Commit time ({@code crts}), to the second. */
    public Instant getConflictResolutionTimestamp() {
        return Instant.ofEpochSecond(json.path("crts").asLong());
    }

    public long getLogSequenceNumber() {
        return json.path("lsn").asLong();
    }

    public ChangeFeedOperationType getOperationType() {
        return ChangeFeedOperationType.of(json.path("operationType").asText());
    }

    public long getPreviousLogSequenceNumber() {
        return json.path("previousImageLSN").asLong();
    }

    public boolean isTimeToLiveExpired() {
        return json.path("timeToLiveExpired").asBoolean();
    }
}
