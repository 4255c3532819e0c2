package io.tetradb.server;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The budget's notation (the JVM's -Xmx one, as the tetradb script reads it too) and its split. */
class MemoryBudgetTest {
    @Test
    void sizesAreReadAsTheJvmWritesThem() {
        assertEquals(1L << 30, MemoryBudget.parse("1g").bytes());
        assertEquals(768L << 20, MemoryBudget.parse("768M").bytes());
        assertEquals(512L << 20, MemoryBudget.parse("524288k").bytes());
        assertEquals(300_000_000L, MemoryBudget.parse("300000000").bytes());
    }

    @Test
    void halfIsHeapAQuarterRocksDb() {
        MemoryBudget b = MemoryBudget.parse("1g");
        assertEquals(512L << 20, b.heapBytes());
        assertEquals(256L << 20, b.rocksDbBytes());
        assertEquals((1L << 30) * 15 / 100, b.directBytes());
    }

    @Test
    void tooSmallOrUnreadableBudgetsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.parse("100m"));
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.parse("lots"));
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.parse("99999999999g"));
    }
}
