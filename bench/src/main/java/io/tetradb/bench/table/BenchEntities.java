package io.tetradb.bench.table;

import com.azure.data.tables.models.TableEntity;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;

/**
 * The entities of the table benchmark and the queries over them, the same for every side.
 *
 * <p>Entity {@code i} of {@code n}: PartitionKey {@code p<i % partitions>}, RowKey {@code r<i / partitions>}, so every
 * partition holds {@value #ROWS_PER_PARTITION} rows {@code r000000..r000199}; ten user properties of six Edm types
 * (String, Int32, Int64, Double, DateTime, Boolean), about 1 KB of JSON. {@code Category} takes {@code n / 20}
 * values, each on exactly {@value #PER_CATEGORY} entities spread over the partitions (a permutation of {@code i}), so a
 * filter on it returns 20 entities at every size.
 */
final class BenchEntities {
    static final int ROWS_PER_PARTITION = 200;
    static final int PER_CATEGORY = 20;
    /** Rows a range query returns: {@code RowKey ge r<s> and RowKey lt r<s + RANGE>} in one partition. */
    static final int RANGE = 50;
    /** A prime: {@code i * SPREAD mod n} permutes 0..n-1 unless n is a multiple of it. */
    private static final long SPREAD = 7919;
    private static final OffsetDateTime EPOCH = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    private static final String FILLER = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod "
            .repeat(11);

    final int n;
    final int partitions;

    BenchEntities(int n) {
        if (n % ROWS_PER_PARTITION != 0 || n % SPREAD == 0) {
            throw new IllegalArgumentException("entity count must be a multiple of " + ROWS_PER_PARTITION
                    + " and not of " + SPREAD + ": " + n);
        }
        this.n = n;
        this.partitions = n / ROWS_PER_PARTITION;
    }

    String partitionKey(int i) {
        return String.format(Locale.ROOT, "p%04d", i % partitions);
    }

    String rowKey(int i) {
        return rowKeyAt(i / partitions);
    }

    private static String rowKeyAt(int row) {
        return String.format(Locale.ROOT, "r%06d", row);
    }

    String category(int i) {
        return categoryName((int) ((i * SPREAD) % n / PER_CATEGORY));
    }

    int categories() {
        return n / PER_CATEGORY;
    }

    private static String categoryName(int c) {
        return String.format(Locale.ROOT, "c%05d", c);
    }

    /** The full entity {@code i} as inserted. */
    TableEntity entity(int i) {
        return new TableEntity(partitionKey(i), rowKey(i))
                .addProperty("Name", String.format(Locale.ROOT, "Customer %06d", i))
                .addProperty("Category", category(i))
                .addProperty("Seq", (long) i)
                .addProperty("Lot", i / 100)
                .addProperty("Price", 0.5 + i * 0.25)
                .addProperty("Score", (i % 1000) / 7.0)
                .addProperty("Created", EPOCH.plusSeconds(i).plusNanos(1234500L * (i % 7)))
                .addProperty("Active", i % 2 == 0)
                .addProperty("Visits", 0)
                .addProperty("Note", FILLER.substring(i % 40, i % 40 + 700));
    }

    /** The merge of entity {@code i}: three properties changed, the other seven kept. */
    TableEntity merge(int i) {
        return new TableEntity(partitionKey(i), rowKey(i))
                .addProperty("Visits", 1)
                .addProperty("Score", (i % 1000) / 7.0 + 1)
                .addProperty("Active", i % 2 != 0);
    }

    /** The range query number {@code q}: {@value #RANGE} consecutive rows of one partition. */
    String rangeFilter(int partition, int firstRow) {
        return String.format(Locale.ROOT, "PartitionKey eq 'p%04d' and RowKey ge '%s' and RowKey lt '%s'",
                partition, rowKeyAt(firstRow), rowKeyAt(firstRow + RANGE));
    }

    /** A filter on the non-key property {@code Category}: {@value #PER_CATEGORY} entities of many partitions. */
    String categoryFilter(int category) {
        return "Category eq '" + categoryName(category) + "'";
    }
}
