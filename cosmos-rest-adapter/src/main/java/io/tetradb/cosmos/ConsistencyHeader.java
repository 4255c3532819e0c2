package io.tetradb.cosmos;

import io.tetradb.core.consistency.ConsistencyLevel;
import io.tetradb.core.store.CoreStore;

/**
 * {@code x-ms-consistency-level}: a request's own consistency level. Checked on every request (an unknown level, or
 * one stronger than the account's default, is 400 as Cosmos DB answers it); reads pass it to the core, which charges
 * strong and bounded-staleness reads twice.
 */
final class ConsistencyHeader {
    static final String NAME = "x-ms-consistency-level";

    private ConsistencyHeader() {
    }

    /** The request's level, or null for the account's. */
    static ConsistencyLevel of(RestRequest r) {
        return ConsistencyLevel.parse(r.header(NAME));
    }

    /** 400 unless the request's level (if any) is known and not stronger than the account's. */
    static void check(RestRequest r, CoreStore store) {
        store.consistency().resolve(of(r));
    }
}
