package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * What a query produced: its results, how many items it read to get them, the index entries it read, its request
 * charge, and how it found its items ({@code scan}, or the index seek).
 */
public record QueryResult(List<JsonNode> results, long documentsLoaded, long bytesLoaded, long indexHits,
                          double requestCharge, String access) {
}
