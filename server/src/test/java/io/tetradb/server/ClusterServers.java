package io.tetradb.server;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.cassandra.cluster.LocalCluster;
import org.apache.tinkerpop.gremlin.driver.Cluster;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test support for {@code -Pcluster}: the JVM's local 3-node Cassandra cluster ({@link SharedTestCluster}) and TetraDB
 * servers on one keyspace of it, each serving every face on a free port, plus each face's real client for a server.
 * Started once per test class; {@link #close} stops the servers and clients (the cluster stays for the next class).
 */
final class ClusterServers implements AutoCloseable {
    static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    final LocalCluster cluster;
    final List<TetraDbServer> servers = new ArrayList<>();
    /** Seconds this class waited for the cluster (its start, or a killed node's restart; ~0 if it was up). */
    final double clusterStartSeconds;
    private final List<AutoCloseable> clients = new ArrayList<>();

    private ClusterServers(LocalCluster cluster, double clusterStartSeconds) {
        this.cluster = cluster;
        this.clusterStartSeconds = clusterStartSeconds;
    }

    /** {@code servers} servers on {@code keyspace} of the JVM's 3-node cluster (started first if need be). */
    static ClusterServers start(String keyspace, int servers, Path dataDirs) {
        LocalCluster cluster = SharedTestCluster.get();
        ClusterServers out = new ClusterServers(cluster, SharedTestCluster.lastStartSeconds());
        try {
            CassandraStorage.Options options = new CassandraStorage.Options(cluster.contactPoints(), keyspace, 3,
                    "quorum");
            for (int i = 0; i < servers; i++) {
                ServerConfig config = ServerConfig.ephemeral(dataDirs.resolve("server" + i)).withCosmosPort(0)
                        .withGremlinPort(0).withMongoPort(0).withTablePort(0);
                out.servers.add(new TetraDbServer(config).onCassandra(options).start());
            }
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        return out;
    }

    TetraDbServer server(int i) {
        return servers.get(i);
    }

    CosmosClient cosmos(int i) {
        return keep(new CosmosClientBuilder()
                .endpoint("http://" + Endpoint.hostPort(server(i).endpoint("cosmos").address()))
                .key(EMULATOR_KEY).gatewayMode().buildClient());
    }

    MongoClient mongo(int i) {
        return keep(MongoClients.create(server(i).endpoint("mongo").url()));
    }

    TableServiceClient tables(int i) {
        String endpoint = "http://" + Endpoint.hostPort(server(i).endpoint("table").address()) + "/devstoreaccount1";
        return new TableServiceClientBuilder().connectionString("DefaultEndpointsProtocol=http;AccountName="
                + "devstoreaccount1;AccountKey=" + DEV_KEY + ";TableEndpoint=" + endpoint + ";").buildClient();
    }

    /** gremlin-driver's cluster for server {@code i}. */
    Cluster gremlin(int i) {
        InetSocketAddress a = server(i).endpoint("gremlin").address();
        Cluster c = TestGremlin.cluster(a).create();
        keep(c::close);
        return c;
    }

    private <T extends AutoCloseable> T keep(T client) {
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(clients);
        all.addAll(servers);
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing the rest matters more
            }
        }
    }
}
