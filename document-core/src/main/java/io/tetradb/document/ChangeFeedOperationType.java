package io.tetradb.document;

/** The kind of a change in all-versions-and-deletes mode, as azure-cosmos' {@code ChangeFeedOperationType}. */
public enum ChangeFeedOperationType {
    CREATE, REPLACE, DELETE;

    static ChangeFeedOperationType of(String cosmosName) {
        return valueOf(cosmosName.toUpperCase(java.util.Locale.ROOT));
    }
}
