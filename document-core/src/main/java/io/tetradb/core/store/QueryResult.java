package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/** What a query produced: its results, how many items it read to get them, and its request charge. */
public record QueryResult(List<JsonNode> results, long documentsLoaded, long bytesLoaded, double requestCharge) {
}
