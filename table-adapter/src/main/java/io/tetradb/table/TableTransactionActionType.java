package io.tetradb.table;

/** The operations a transaction may hold (the Azure SDK's names). */
public enum TableTransactionActionType {
    CREATE, UPSERT_MERGE, UPSERT_REPLACE, UPDATE_MERGE, UPDATE_REPLACE, DELETE
}
