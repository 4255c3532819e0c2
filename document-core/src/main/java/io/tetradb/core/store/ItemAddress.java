package io.tetradb.core.store;

import io.tetradb.core.partition.PartitionKeyValue;

/** Where an item lives: its logical partition and id. */
public record ItemAddress(PartitionKeyValue pk, String id) {
}
