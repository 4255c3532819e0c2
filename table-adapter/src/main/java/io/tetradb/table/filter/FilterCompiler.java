package io.tetradb.table.filter;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.store.EntityItems;
import io.tetradb.table.store.RowKeys;

import java.util.List;

/**
 * A {@link Filter} → the core's expression over the stored items ({@link EntityItems}' layout), bound to the alias
 * {@code d}. Each comparison becomes {@code d.P op value} — a sargable conjunct, so the planner seeks the index on
 * {@code /P}, routes {@code PartitionKey eq} to one logical partition and turns RowKey ranges into id ranges —
 * {@code AND} a type check on {@code d._types.P} (a residual test), so that a comparison is true only between values
 * of the same Edm type — except numbers: Int32, Int64 and Double compare by value with each other (OData's numeric
 * promotion, as Azure and Cosmos DB compare them), never with strings.
 */
public final class FilterCompiler {
    public static final String ALIAS = "d";
    private static final Expr D = new Expr.Identifier(ALIAS);

    private FilterCompiler() {
    }

    public static Expr compile(Filter f) {
        if (f instanceof Filter.And a) {
            return new Expr.Binary(Expr.BinaryOp.AND, compile(a.left()), compile(a.right()));
        } else if (f instanceof Filter.Or o) {
            return new Expr.Binary(Expr.BinaryOp.OR, compile(o.left()), compile(o.right()));
        } else if (f instanceof Filter.Not n) {
            return new Expr.Unary(Expr.UnaryOp.NOT, compile(n.operand()));
        } else if (f instanceof Filter.Constant c) {
            return new Expr.BooleanLiteral(c.value());
        }
        return comparison((Filter.Comparison) f);
    }

    private static Expr comparison(Filter.Comparison c) {
        EdmValue lit = c.literal();
        switch (c.property()) {
            case "PartitionKey":
                return lit.type() == EdmType.STRING
                        ? compare(new Expr.PropertyAccess(D, EntityItems.PARTITION_KEY), c.op(), lit)
                        : new Expr.BooleanLiteral(false);
            case "RowKey":
                return lit.type() == EdmType.STRING
                        ? compare(new Expr.PropertyAccess(D, "id"), c.op(),
                        EdmValue.string(RowKeys.toId((String) lit.value())))
                        : new Expr.BooleanLiteral(false);
            case "Timestamp":
                return lit.type() == EdmType.DATETIME
                        ? compare(new Expr.PropertyAccess(D, EntityItems.TIMESTAMP), c.op(), lit)
                        : new Expr.BooleanLiteral(false);
            default:
                break;
        }
        String name = EntityItems.storedName(c.property());
        Expr value = compare(new Expr.PropertyAccess(D, name), c.op(), lit);
        Expr tag = new Expr.PropertyAccess(new Expr.PropertyAccess(D, EntityItems.TYPES), name);
        Expr typeCheck = switch (lit.type()) {
            // numbers compare by value across Int32, Int64 and Double (OData's numeric promotion: 'd eq 5' matches
            // 5.0, 'n eq 5L' an Int32 5); only those are stored as JSON numbers, so the comparison is the check
            case INT32, INT64, DOUBLE -> null;
            case STRING, BOOLEAN -> new Expr.Unary(Expr.UnaryOp.NOT,
                    new Expr.FunctionCall("IS_DEFINED", false, List.of(tag)));
            default -> new Expr.Binary(Expr.BinaryOp.EQUAL, tag, new Expr.StringLiteral(lit.type().odataName()));
        };
        if (typeCheck == null) {
            return value;
        }
        return new Expr.Binary(Expr.BinaryOp.AND, value, typeCheck);
    }

    private static Expr compare(Expr property, Filter.Op op, EdmValue literal) {
        Expr.BinaryOp bop = switch (op) {
            case EQ -> Expr.BinaryOp.EQUAL;
            case NE -> Expr.BinaryOp.NOT_EQUAL;
            case GT -> Expr.BinaryOp.GREATER;
            case GE -> Expr.BinaryOp.GREATER_OR_EQUAL;
            case LT -> Expr.BinaryOp.LESS;
            case LE -> Expr.BinaryOp.LESS_OR_EQUAL;
        };
        return new Expr.Binary(bop, property, literal(EntityItems.storedValue(literal)));
    }

    private static Expr literal(JsonNode v) {
        if (v.isTextual()) {
            return new Expr.StringLiteral(v.textValue());
        } else if (v.isBoolean()) {
            return new Expr.BooleanLiteral(v.booleanValue());
        } else if (v.isIntegralNumber()) {
            long l = v.longValue();
            return new Expr.NumberLiteral((double) l, l);
        }
        return new Expr.NumberLiteral(v.doubleValue());
    }

    /**
     * The single PartitionKey a filter pins by a top-level {@code PartitionKey eq '…'} conjunct, or null: such a
     * query reads one logical partition, already in RowKey order.
     */
    public static String pinnedPartitionKey(Filter f) {
        if (f instanceof Filter.And a) {
            String left = pinnedPartitionKey(a.left());
            return left != null ? left : pinnedPartitionKey(a.right());
        }
        if (f instanceof Filter.Comparison c && c.property().equals("PartitionKey") && c.op() == Filter.Op.EQ
                && c.literal().type() == EdmType.STRING) {
            return (String) c.literal().value();
        }
        return null;
    }
}
