package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;

/** The keyspace and the one table of {@link CassandraPartitionStore}, created if missing. */
final class Schema {
    /** How long a schema change may take to reach every node before the next statement is sent anyway. */
    private static final long AGREEMENT_MILLIS = 60_000;

    private Schema() {
    }

    /**
     * A schema change, then a wait until every node reports the same schema version. The driver waits too, but it
     * reads the peers' versions from {@code system.peers}, whose rows are keyed by address alone: with several nodes
     * on one address (the local cluster's nodes all on 127.0.0.1 with ports of their own) it sees one peer and may
     * go on while the other lags (a run met "Table 'partitions' doesn't exist" creating an index just after its
     * table). Here each node up is asked for its own version.
     */
    private static void ddl(CqlSession session, String statement) {
        session.execute(statement);
        long deadline = System.nanoTime() + AGREEMENT_MILLIS * 1_000_000;
        while (!agreed(session) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100); // polling the nodes' reported schema versions, not a timing assumption
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Whether every node up reports one schema version (each asked itself: its {@code system.local}). */
    private static boolean agreed(CqlSession session) {
        java.util.Set<Object> versions = new java.util.HashSet<>();
        for (com.datastax.oss.driver.api.core.metadata.Node n : session.getMetadata().getNodes().values()) {
            if (n.getState() != com.datastax.oss.driver.api.core.metadata.NodeState.UP) {
                continue;
            }
            try {
                com.datastax.oss.driver.api.core.cql.Row r = session.execute(
                        com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                                "SELECT schema_version FROM system.local WHERE key = 'local'").setNode(n)).one();
                versions.add(r == null ? null : r.getObject(0));
            } catch (com.datastax.oss.driver.api.core.DriverException unreachable) {
                return false; // ask again: it is going down or coming up
            }
        }
        return versions.size() <= 1;
    }

    static void create(CqlSession session, String keyspace, int replicationFactor) {
        if (!keyspace.matches("[a-z][a-z0-9_]{0,47}")) {
            throw new IllegalArgumentException("a keyspace name is a lower-case letter, then letters, digits or _ "
                    + "(at most 48): '" + keyspace + "'");
        }
        ddl(session, "CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = "
                + "{'class': 'SimpleStrategy', 'replication_factor': " + replicationFactor + "}");
        // kind 0: items keyed by id; kind 1: change records keyed by lsn; kind 2: index terms keyed by term · id;
        // kind 3: the core's other derived keys of the transaction; kind 4: mark slots (which transaction set a
        // version, keyed by version mod 64: ConditionalApply); version: the logical partition's, txid the mark
        // of the transaction that set it (to settle an apply whose outcome Cassandra reported unknown), stats its
        // statistics (bytes, items, version)
        // term rows (kind 2) also carry cpath (container · pathId) and tprefix (the entry's first 8 bytes after the
        // path, ordered as unsigned): two storage-attached indexes over them make a seek a read of the value range
        // asked for across the ring, not of the table (TermSeek)
        ddl(session, "CREATE TABLE IF NOT EXISTS " + keyspace + ".partitions (container int, lp blob, "
                + "kind tinyint, key blob, version bigint static, txid uuid static, stats blob static, value blob, "
                + "cpath bigint, tprefix bigint, PRIMARY KEY ((container, lp), kind, key))");
        ddl(session, "CREATE CUSTOM INDEX IF NOT EXISTS partitions_cpath ON " + keyspace
                + ".partitions (cpath) USING 'StorageAttachedIndex'");
        ddl(session, "CREATE CUSTOM INDEX IF NOT EXISTS partitions_tprefix ON " + keyspace
                + ".partitions (tprefix) USING 'StorageAttachedIndex'");
    }

    /**
     * The metadata table of {@link CassandraMetadataStore}: every entry in one Cassandra partition ({@code shard} 0),
     * so that any metadata write, however many keys it touches, is one conditional single-partition batch.
     */
    static void createMetadata(CqlSession session, String keyspace, int replicationFactor) {
        create(session, keyspace, replicationFactor);
        ddl(session, "CREATE TABLE IF NOT EXISTS " + keyspace + ".metadata (shard int, key blob, value blob, "
                + "version bigint, PRIMARY KEY (shard, key))");
    }
}
