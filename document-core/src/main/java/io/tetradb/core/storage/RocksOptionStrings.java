package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * RocksDB options RocksJava has no setter for (e.g. {@code wal_compression},
 * {@code memtable_insert_with_hint_prefix_extractor}), given in RocksDB's own option-string form, for measuring
 * (issue 17, query-idx): {@code -Dtetradb.rocks.dbOptions="wal_compression=kZSTD"} for the database,
 * {@code -Dtetradb.rocks.indexOptions="k=v;k=v"} for the {@code index} column family. RocksDB parses them; the
 * store's own settings are applied on top, so a string can only add what they leave at RocksDB's default. Unset
 * (the default): plain RocksDB defaults, as before, except the {@code index} family's insert hint
 * ({@link #HINT_OPTION}). An option RocksDB does not know is refused at open.
 */
final class RocksOptionStrings {
    static final String DB = "tetradb.rocks.dbOptions";
    static final String INDEX = "tetradb.rocks.indexOptions";
    /**
     * Issue 17, index-cost: the {@code index} family inserts each key with a hint per 8-byte {@code collId · pathId}
     * prefix by default. RocksDB then keeps one skip-list splice per path and repairs it from the bottom level up
     * ({@code InlineSkipList::InsertWithHint}); a plain insert whose key is not right after the previous one (a
     * batch's sorted keys of one path usually have older keys between them) descends from the top level again.
     * A memtable option only (nothing on disk changes): directories open with or without it.
     */
    static final String HINT_OPTION = "memtable_insert_with_hint_prefix_extractor";
    static final String HINT_VALUE = "rocksdb.FixedPrefix.8";

    private RocksOptionStrings() {
    }

    /** The database options to build on: RocksDB's defaults plus {@code -Dtetradb.rocks.dbOptions}. */
    static DBOptions dbBase() {
        Properties props = parse(DB);
        if (props == null) {
            return new DBOptions();
        }
        DBOptions options = DBOptions.getDBOptionsFromProps(props);
        if (options == null) {
            throw new IllegalArgumentException("-D" + DB + ": RocksDB refused " + System.getProperty(DB));
        }
        return options;
    }

    /**
     * The column family options to build on: RocksDB's defaults; for the index, the insert hint and
     * {@code -Dtetradb.rocks.indexOptions}.
     */
    static ColumnFamilyOptions familyBase(Space space) {
        if (space != Space.INDEX) {
            return new ColumnFamilyOptions();
        }
        Properties props = parse(INDEX);
        if (props == null) {
            props = new Properties();
        }
        props.putIfAbsent(HINT_OPTION, HINT_VALUE); // a -Dtetradb.rocks.indexOptions value of its own wins
        ColumnFamilyOptions options = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(props);
        if (options == null) {
            throw new IllegalArgumentException("-D" + INDEX + ": RocksDB refused " + System.getProperty(INDEX));
        }
        return options;
    }

    private static Properties parse(String property) {
        String value = System.getProperty(property, "").trim();
        if (value.isEmpty()) {
            return null;
        }
        Properties props = new Properties();
        for (String pair : pairs(property, value)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("-D" + property + ": expected key=value;..., got " + value);
            }
            props.setProperty(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return props;
    }

    /**
     * The {@code key=value} pairs of {@code value}, split at the semicolons outside braces (query-write): a value may
     * be a nested option string, e.g. {@code memtable_factory={id=HashSkipListRepFactory;bucket_count=64}}.
     */
    private static List<String> pairs(String property, String value) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth < 0) {
                break;
            } else if (c == ';' && depth == 0) {
                out.add(value.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("-D" + property + ": unbalanced braces in " + value);
        }
        if (!value.substring(start).isBlank()) {
            out.add(value.substring(start));
        }
        return out;
    }
}
