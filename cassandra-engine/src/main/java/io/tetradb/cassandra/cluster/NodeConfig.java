package io.tetradb.cassandra.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One node of a local cluster: its address and ports (every node on 127.0.0.1 with ports of its own), its directory,
 * and the {@code cassandra.yaml} written there; {@code seed} is node 1's {@code address:storagePort}. {@code auto_bootstrap: false} and few tokens per node keep a fresh cluster's start short.
 */
record NodeConfig(int index, String address, Path dir, int storagePort, int nativePort, int jmxPort,
                  String clusterName, String seed) {

    Path yaml() {
        return dir.resolve("cassandra.yaml");
    }

    Path log() {
        return dir.resolve("node.log");
    }

    void write() {
        String d = dir.toAbsolutePath().toString();
        String yaml = String.join("\n",
                "cluster_name: " + clusterName,
                "num_tokens: 16",
                "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
                "data_file_directories: [" + d + "/data]",
                "commitlog_directory: " + d + "/commitlog",
                "saved_caches_directory: " + d + "/saved_caches",
                "hints_directory: " + d + "/hints",
                "cdc_raw_directory: " + d + "/cdc_raw",
                // writes are acknowledged by a quorum of replicas; each replica's commit log is synced in a batch
                // window, so an acknowledged write survives the loss of any one node
                "commitlog_sync: periodic",
                "commitlog_sync_period: 1000ms",
                "seed_provider:",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
                "    parameters:",
                "      - seeds: \"" + seed + "\"",
                "listen_address: " + address,
                "rpc_address: " + address,
                "storage_port: " + storagePort,
                "native_transport_port: " + nativePort,
                "start_native_transport: true",
                "endpoint_snitch: SimpleSnitch",
                "auto_bootstrap: false",
                "");
        try {
            Files.createDirectories(dir);
            Files.writeString(yaml(), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
