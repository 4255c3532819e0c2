package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/**
 * What the partition statistics tests ({@code StatsInRunsTest}, {@code StatsAbsentFirstTest},
 * {@code PartitionStatsScanTest}) share: a store directory per test, the container {@code db/c} on {@code /pk}, the
 * keys of a logical partition's statistics, and the write switches they set, cleared after each test.
 */
abstract class PartitionStatsFixture {
    static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    @AfterEach
    void clearSwitches() {
        System.clearProperty("tetradb.write.statsRecordEvery");
        System.clearProperty("tetradb.feed.pruneIntervalMillis");
    }

    /** The store on this test's directory (again: a reopen). */
    CoreStore open() {
        return CoreStore.open(StoreConfig.defaults(dir));
    }

    /** Creates the database {@code db} and its container {@code c} (partition key {@code /pk}, 400 RU/s). */
    static ContainerStore container(CoreStore s) {
        s.createDatabase("db", null);
        return s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 400, null);
    }

    static PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(List.of(PartitionKeyValue.component(v)));
    }

    /** A logical partition of {@code c}: {@code collId · EPK · pk}. */
    static byte[] lp(ContainerStore c, String p) {
        return Keys.concat(c.collIdBytes(), pk(p).epk(), pk(p).encoded());
    }

    /** The key of a logical partition's statistics record: {@code 04 · collId · EPK · pk}. */
    static byte[] statsKey(ContainerStore c, String p) {
        return Keys.withByte(Keys.LOGICAL_PARTITION_STATS, lp(c, p));
    }
}
