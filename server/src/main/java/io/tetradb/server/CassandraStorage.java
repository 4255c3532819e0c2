package io.tetradb.server;

import com.datastax.oss.driver.api.core.CqlSession;
import io.tetradb.cassandra.store.CassandraMetadataStore;
import io.tetradb.cassandra.store.CassandraPartitionStore;
import io.tetradb.cassandra.store.Sessions;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --storage cassandra}: the driver session and the core's two stores on one keyspace — the metadata ({@link
 * CassandraMetadataStore}) and the item transactions ({@link CassandraPartitionStore}). Several servers may open the
 * same keyspace at once.
 */
final class CassandraStorage implements AutoCloseable {
    /** The CQL port of a contact point given without one. */
    static final int DEFAULT_PORT = 9042;

    /**
     * @param contactPoints     where the driver first connects (it finds the other nodes itself)
     * @param keyspace          created if missing, with {@code replicationFactor} copies (SimpleStrategy)
     * @param consistency       quorum (reads and writes at QUORUM, conditions at SERIAL) or eventual (LOCAL_ONE reads)
     */
    record Options(List<InetSocketAddress> contactPoints, String keyspace, int replicationFactor, String consistency) {
        Options {
            if (contactPoints.isEmpty()) {
                throw new IllegalArgumentException("--cassandra needs at least one HOST:PORT");
            }
            if (!keyspace.matches("[a-z][a-z0-9_]{0,47}")) {
                throw new IllegalArgumentException("--cassandra-keyspace is a lower-case letter, then letters, digits "
                        + "or _ (at most 48), not '" + keyspace + "'");
            }
            if (replicationFactor < 1 || replicationFactor > 9) {
                throw new IllegalArgumentException("--cassandra-replication is 1 to 9, not " + replicationFactor);
            }
            if (!consistency.equals("quorum") && !consistency.equals("eventual")) {
                throw new IllegalArgumentException("--cassandra-consistency is quorum or eventual, not '"
                        + consistency + "'");
            }
        }

        CassandraPartitionStore.Consistency levels() {
            return consistency.equals("quorum") ? CassandraPartitionStore.Consistency.QUORUM
                    : CassandraPartitionStore.Consistency.EVENTUAL_READS;
        }

        /** {@code HOST:PORT,HOST:PORT,…} (a port may be left out: 9042; IPv6 as {@code [::1]:9042}). */
        static List<InetSocketAddress> parseContactPoints(String list) {
            List<InetSocketAddress> out = new ArrayList<>();
            for (String part : list.split(",")) {
                String p = part.strip();
                if (p.isEmpty()) {
                    continue;
                }
                String host = p;
                int port = DEFAULT_PORT;
                int colon = p.lastIndexOf(':');
                if (p.startsWith("[")) {
                    int end = p.indexOf(']');
                    if (end < 0) {
                        throw new IllegalArgumentException("--cassandra: '" + p + "' lacks its ']'");
                    }
                    host = p.substring(1, end);
                    colon = p.indexOf(':', end);
                } else if (colon >= 0) {
                    host = p.substring(0, colon);
                }
                if (colon >= 0) {
                    try {
                        port = Integer.parseInt(p.substring(colon + 1));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--cassandra: the port of '" + p + "' is not a number");
                    }
                    if (port < 1 || port > 65535) {
                        throw new IllegalArgumentException("--cassandra: the port of '" + p + "' is not 1..65535");
                    }
                }
                if (host.isEmpty()) {
                    throw new IllegalArgumentException("--cassandra: '" + p + "' has no host");
                }
                out.add(InetSocketAddress.createUnresolved(host.toLowerCase(Locale.ROOT), port));
            }
            return out;
        }
    }

    private final CqlSession session;
    private final CassandraMetadataStore metadata;
    private final CassandraPartitionStore partitions;

    private CassandraStorage(CqlSession session, CassandraMetadataStore metadata, CassandraPartitionStore partitions) {
        this.session = session;
        this.metadata = metadata;
        this.partitions = partitions;
    }

    static CassandraStorage open(Options o) {
        List<InetSocketAddress> resolved = o.contactPoints().stream()
                .map(a -> new InetSocketAddress(a.getHostString(), a.getPort())).toList();
        CqlSession session = Sessions.open(resolved);
        try {
            return new CassandraStorage(session,
                    CassandraMetadataStore.open(session, o.keyspace(), o.replicationFactor(), o.levels()),
                    CassandraPartitionStore.open(session, o.keyspace(), o.replicationFactor(), o.levels()));
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    CassandraMetadataStore metadata() {
        return metadata;
    }

    CassandraPartitionStore partitions() {
        return partitions;
    }

    @Override
    public void close() {
        session.close();
    }

    /**
     * What a server on Cassandra serves and leaves off, logged at its start: every request goes through the storage
     * contracts, so none is refused; the background jobs of {@link io.tetradb.core.storage.SharedEngineLimits} are off.
     */
    static String startNotice() {
        return "on Cassandra (" + io.tetradb.core.storage.SharedEngineLimits.OPTION + "): every request is served "
                + "through the storage contracts (databases, containers, items, queries, the change feed, TTL, "
                + "indexing-policy replaces, Mongo indexes, graph adjacency); left off (background jobs): "
                + String.join("; ", io.tetradb.core.storage.SharedEngineLimits.leftOff());
    }
}
