package io.tetradb.core.storage.partition;

/** A change to one item of a logical partition, part of a {@link PartitionWrite}. */
public sealed interface ItemMutation {
    String id();

    /** Stores {@code value} (the stored item's bytes) under {@code id}, replacing what was there. */
    record Put(String id, byte[] value) implements ItemMutation {
    }

    /** Removes the item {@code id} (nothing if it is absent). */
    record Delete(String id) implements ItemMutation {
    }
}
