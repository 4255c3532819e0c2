package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/** The driver session the store is meant to run on. */
public final class Sessions {
    private Sessions() {
    }

    /**
     * A session on {@code contactPoints} in the data centre of Cassandra's SimpleSnitch. Native protocol v4: with
     * Cassandra 5.0 and v5, java-driver-core 4.19.3 failed to decode an error response to a contended conditional
     * batch (a DecoderException reading past the frame) and closed the connection; v4 carries the same semantics.
     * Timeouts allow for a loaded 2-core machine running three nodes.
     */
    public static CqlSession open(List<InetSocketAddress> contactPoints) {
        return CqlSession.builder().addContactPoints(contactPoints).withLocalDatacenter("datacenter1")
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withString(DefaultDriverOption.PROTOCOL_VERSION, "V4")
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(60))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT,
                                Duration.ofSeconds(60))
                        .build())
                .build();
    }
}
