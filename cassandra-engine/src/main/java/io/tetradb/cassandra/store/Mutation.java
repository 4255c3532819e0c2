package io.tetradb.cassandra.store;

/** A change to one item of a logical partition, part of an {@link PartitionStore#apply}. */
public sealed interface Mutation {
    String id();

    /** Stores {@code value} (the stored item's bytes) under {@code id}, replacing what was there. */
    record Put(String id, byte[] value) implements Mutation {
    }

    /** Removes the item {@code id} (nothing if it is absent). */
    record Delete(String id) implements Mutation {
    }
}
