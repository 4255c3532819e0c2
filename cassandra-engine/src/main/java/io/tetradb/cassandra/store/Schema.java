package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;

/** The keyspace and the one table of {@link CassandraPartitionStore}, created if missing. */
final class Schema {
    private Schema() {
    }

    static void create(CqlSession session, String keyspace, int replicationFactor) {
        if (!keyspace.matches("[a-z][a-z0-9_]{0,47}")) {
            throw new IllegalArgumentException("a keyspace name is a lower-case letter, then letters, digits or _ "
                    + "(at most 48): '" + keyspace + "'");
        }
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = "
                + "{'class': 'SimpleStrategy', 'replication_factor': " + replicationFactor + "}");
        // kind 0: items keyed by id; kind 1: change records keyed by lsn; kind 2: index terms keyed by term · id;
        // kind 3: the core's other derived keys of the transaction; kind 4: mark slots (which transaction set a
        // version, keyed by version mod 64: ConditionalApply); version: the logical partition's, txid the mark
        // of the transaction that set it (to settle an apply whose outcome Cassandra reported unknown), stats its
        // statistics (bytes, items, version)
        // term rows (kind 2) also carry cpath (container · pathId) and tprefix (the entry's first 8 bytes after the
        // path, ordered as unsigned): two storage-attached indexes over them make a seek a read of the value range
        // asked for across the ring, not of the table (TermSeek)
        session.execute("CREATE TABLE IF NOT EXISTS " + keyspace + ".partitions (container int, lp blob, "
                + "kind tinyint, key blob, version bigint static, txid uuid static, stats blob static, value blob, "
                + "cpath bigint, tprefix bigint, PRIMARY KEY ((container, lp), kind, key))");
        session.execute("CREATE CUSTOM INDEX IF NOT EXISTS partitions_cpath ON " + keyspace
                + ".partitions (cpath) USING 'StorageAttachedIndex'");
        session.execute("CREATE CUSTOM INDEX IF NOT EXISTS partitions_tprefix ON " + keyspace
                + ".partitions (tprefix) USING 'StorageAttachedIndex'");
    }

    /**
     * The metadata table of {@link CassandraMetadataStore}: every entry in one Cassandra partition ({@code shard} 0),
     * so that any metadata write, however many keys it touches, is one conditional single-partition batch.
     */
    static void createMetadata(CqlSession session, String keyspace, int replicationFactor) {
        create(session, keyspace, replicationFactor);
        session.execute("CREATE TABLE IF NOT EXISTS " + keyspace + ".metadata (shard int, key blob, value blob, "
                + "version bigint, PRIMARY KEY (shard, key))");
    }
}
