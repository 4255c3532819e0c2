package io.tetradb.core.storage.partition;

/**
 * The outcome of {@link PartitionStore#apply}: applied (the partition now at the write's next version), or refused
 * with the version the partition is at and nothing written. {@code durableTicket}: for an engine that applies before
 * it syncs, what to hand to {@link PartitionStore#awaitDurable(long)} before acknowledging (0: already durable).
 */
public record ApplyResult(boolean applied, long version, long durableTicket) {
}
