package io.tetradb.cassandra.cluster;

/**
 * The ports every node of a local cluster uses on its own loopback address. Not Cassandra's defaults (7000, 9042,
 * 7199), so that a Cassandra the developer already runs is left alone; JMX gets {@code jmx + node index}, as local
 * JMX listens on 127.0.0.1 for every node.
 */
public record Ports(int storage, int nativeCql, int jmx) {
    public static final Ports DEFAULT = new Ports(17000, 19042, 17190);
}
