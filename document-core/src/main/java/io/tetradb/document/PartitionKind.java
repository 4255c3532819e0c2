package io.tetradb.document;

/** How a partition key is hashed: one path (HASH) or hierarchical (MULTI_HASH). */
public enum PartitionKind {
    HASH("Hash"), MULTI_HASH("MultiHash");

    private final String wireName;

    PartitionKind(String wireName) {
        this.wireName = wireName;
    }

    String wireName() {
        return wireName;
    }
}
