package io.tetradb.cosmos;

import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.DatabaseDefinition;

/** A request's container, resolved from names or RIDs, with the ids the responses carry. */
record Target(DatabaseDefinition database, ContainerStore store, String dbRid, String collRid, String altLink) {
    /** {@code altLink}: {@code dbs/<db>/colls/<c>}, the session token's owner by name ({@code x-ms-alt-content-path}),
     *  made once per resolved container rather than per answer. */
    Target(DatabaseDefinition database, ContainerStore store, String dbRid, String collRid) {
        this(database, store, dbRid, collRid, "dbs/" + database.id() + "/colls/" + store.definition().id());
    }

    ContainerDefinition definition() {
        return store.definition();
    }

    String name() {
        return store.definition().id();
    }

    String self() {
        return "dbs/" + dbRid + "/colls/" + collRid + "/";
    }
}
