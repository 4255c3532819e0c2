package io.tetradb.table.classic;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * A classic query: the entity class, an OData filter built with {@link #generateFilterCondition} and
 * {@link #combineFilters}, an optional column selection and an upper bound on results.
 *
 * <pre>
 * String filter = TableQuery.combineFilters(
 *         TableQuery.generateFilterCondition("PartitionKey", QueryComparisons.EQUAL, "Smith"),
 *         Operators.AND,
 *         TableQuery.generateFilterCondition("RowKey", QueryComparisons.GREATER_THAN_OR_EQUAL, "B"));
 * table.execute(TableQuery.from(CustomerEntity.class).where(filter));
 * </pre>
 */
public final class TableQuery<T extends TableServiceEntity> {
    /** The comparison operators of filter conditions. */
    public static final class QueryComparisons {
        public static final String EQUAL = "eq";
        public static final String NOT_EQUAL = "ne";
        public static final String GREATER_THAN = "gt";
        public static final String GREATER_THAN_OR_EQUAL = "ge";
        public static final String LESS_THAN = "lt";
        public static final String LESS_THAN_OR_EQUAL = "le";

        private QueryComparisons() {
        }
    }

    /** The logical operators of {@link #combineFilters}. */
    public static final class Operators {
        public static final String AND = "and";
        public static final String OR = "or";
        public static final String NOT = "not";

        private Operators() {
        }
    }

    private final Class<T> type;
    private String filter;
    private List<String> columns;
    private Integer take;

    private TableQuery(Class<T> type) {
        this.type = type;
    }

    public static <T extends TableServiceEntity> TableQuery<T> from(Class<T> type) {
        return new TableQuery<>(type);
    }

    public TableQuery<T> where(String filter) {
        this.filter = filter;
        return this;
    }

    public TableQuery<T> select(String[] columns) {
        this.columns = List.of(columns);
        return this;
    }

    /** At most this many results. */
    public TableQuery<T> take(Integer take) {
        this.take = take;
        return this;
    }

    public Class<T> getClazzType() {
        return type;
    }

    public String getFilterString() {
        return filter;
    }

    List<String> columns() {
        return columns;
    }

    Integer take() {
        return take;
    }

    public static String generateFilterCondition(String property, String operation, String value) {
        return property + " " + operation + " '" + value.replace("'", "''") + "'";
    }

    public static String generateFilterCondition(String property, String operation, int value) {
        return property + " " + operation + " " + value;
    }

    public static String generateFilterCondition(String property, String operation, long value) {
        return property + " " + operation + " " + value + "L";
    }

    public static String generateFilterCondition(String property, String operation, double value) {
        return property + " " + operation + " " + Double.toString(value);
    }

    public static String generateFilterCondition(String property, String operation, boolean value) {
        return property + " " + operation + " " + value;
    }

    public static String generateFilterCondition(String property, String operation, Date value) {
        return property + " " + operation + " datetime'"
                + OffsetDateTime.ofInstant(value.toInstant(), ZoneOffset.UTC) + "'";
    }

    public static String generateFilterCondition(String property, String operation, UUID value) {
        return property + " " + operation + " guid'" + value + "'";
    }

    public static String generateFilterCondition(String property, String operation, byte[] value) {
        return property + " " + operation + " X'" + HexFormat.of().formatHex(value) + "'";
    }

    /** {@code (a) op (b)}; with {@link Operators#NOT} as the operator, {@code not (a)} when b is empty. */
    public static String combineFilters(String filterA, String operator, String filterB) {
        if (Operators.NOT.equals(operator)) {
            return "not (" + filterA + ")";
        }
        return "(" + filterA + ") " + operator + " (" + filterB + ")";
    }

}
