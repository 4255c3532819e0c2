package io.tetradb.core.store;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The charge model against Cosmos DB's published figures, size by size. */
class RequestChargeTest {
    static final int KB = 1024;

    @Test
    void pointReadsCostOneRuAtOneKilobyteAndTenAtOneHundred() {
        assertEquals(1.0, RequestCharge.read(200));
        assertEquals(1.0, RequestCharge.read(KB));
        assertEquals(1.82, RequestCharge.read(10 * KB));
        assertEquals(5.45, RequestCharge.read(50 * KB));
        assertEquals(10.0, RequestCharge.read(100 * KB));
        assertEquals(1.0, RequestCharge.miss(), "404 and 304");
    }

    @Test
    void writesCostAboutFiveSevenAtOneKilobyteAndFiftyAtOneHundredWithDefaultIndexing() {
        int entries = 8; // id, the partition key, _ts and five properties
        assertEquals(5.7, RequestCharge.write(KB) + RequestCharge.indexEntries(entries), 1e-9);
        assertEquals(9.73, RequestCharge.write(10 * KB) + RequestCharge.indexEntries(entries), 1e-9);
        assertEquals(50.0, RequestCharge.write(100 * KB) + RequestCharge.indexEntries(entries), 1e-9);
        // growing with indexed terms: 40 more indexed values cost 4 RU more
        assertEquals(9.7, RequestCharge.write(KB) + RequestCharge.indexEntries(48), 1e-9);
        // nothing indexed
        assertEquals(4.9, RequestCharge.write(KB));
    }

    @Test
    void strongAndBoundedStalenessReadsCostTwice() {
        assertEquals(20.0, RequestCharge.atConsistency(10, "Strong"));
        assertEquals(20.0, RequestCharge.atConsistency(10, "BoundedStaleness"));
        assertEquals(10.0, RequestCharge.atConsistency(10, "Session"));
        assertEquals(10.0, RequestCharge.atConsistency(10, "Eventual"));
        assertEquals(10.0, RequestCharge.atConsistency(10, null));
    }

    @Test
    void queriesChargeTwoPlusWhatTheyRead() {
        assertEquals(2.0, RequestCharge.query(0));
        assertEquals(2.1, RequestCharge.query(KB));
        assertEquals(3.0, RequestCharge.query(10 * KB));
    }
}
