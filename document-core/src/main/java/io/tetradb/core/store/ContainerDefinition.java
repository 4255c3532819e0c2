package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.partition.PartitionKeyDefinition;

/**
 * A container as stored in META. The indexing policy, default TTL and unique keys are kept as given; the query
 * engine and TTL sweeper use them. {@code maxItemBytes} is TetraDB's extension: the largest stored item of this
 * container (null: the store's {@link Limits#maxItemBytes()}, Cosmos DB's 2 MB); definitions written before it
 * existed read back with null.
 */
public record ContainerDefinition(String database, String id, int collId, String rid,
                                  PartitionKeyDefinition partitionKey, JsonNode indexingPolicy,
                                  Integer defaultTimeToLive, Integer throughput, JsonNode uniqueKeyPolicy, long ts,
                                  Integer maxItemBytes) {

    /** The largest item this container stores: its own limit, else the store's. */
    public int effectiveMaxItemBytes(Limits limits) {
        return maxItemBytes == null ? limits.maxItemBytes() : maxItemBytes;
    }
}
