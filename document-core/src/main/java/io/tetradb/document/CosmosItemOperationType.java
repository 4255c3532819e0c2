package io.tetradb.document;

/** The kinds of operation a transactional batch may hold. */
public enum CosmosItemOperationType {
    CREATE, UPSERT, REPLACE, DELETE, READ, PATCH
}
