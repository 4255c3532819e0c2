package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.partition.PartitionKeyDefinition;

/**
 * A container as stored in META. The indexing policy, default TTL and unique keys are kept as given; the query
 * engine and TTL sweeper use them.
 */
public record ContainerDefinition(String database, String id, int collId, String rid,
                                  PartitionKeyDefinition partitionKey, JsonNode indexingPolicy,
                                  Integer defaultTimeToLive, Integer throughput, JsonNode uniqueKeyPolicy, long ts) {
}
