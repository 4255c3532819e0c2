package io.tetradb.table.filter;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.query.functions.SeekHintFunctions;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.value.TypedNode;
import io.tetradb.core.value.UuidNode;
import io.tetradb.table.model.DateTimes;
import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.store.EdmTypedValues;
import io.tetradb.table.store.EntityItems;
import io.tetradb.table.store.EntityLayout;
import io.tetradb.table.store.RowKeys;

import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A {@link Filter} → the core's expression over the stored items ({@link EntityItems}' layout), bound to the alias
 * {@code d}, with its typed literals as parameters. The core compares typed values exactly and only within a type
 * (a DateTime never equals a string), so a comparison is type-exact by itself — except numbers: Int32, Int64 and
 * Double compare by value with each other (OData's numeric promotion, as Azure and Cosmos DB compare them).
 * <ul>
 *   <li>String, Boolean and numbers: {@code d.P op literal}, a sargable conjunct — the planner seeks the index on
 *       {@code /P}, routes {@code PartitionKey eq} to one logical partition and turns RowKey ranges into id ranges;
 *       String and Boolean also {@code AND NOT IS_DEFINED(d._types.P)}, so an entity in the earlier shape whose
 *       DateTime, Guid or Binary was stored as text does not match a string.</li>
 *   <li>DateTime, Guid, Binary: {@code d.P op @typed} (the exact comparison of typed values) {@code OR} the same
 *       comparison with the earlier shape's text where {@code d._types.P} names the type; and, so the index is
 *       still sought, {@code SEEK_HINT(d.P op 'json view')} — the core indexes a typed value under its JSON view,
 *       whose text order is the value order for DateTimes (seven-digit UTC) and Guids (lower-case hex), which are
 *       also how the earlier shape stored them. A Binary is sought only by equality, under its base64 view and
 *       the earlier shape's hex (base64 does not keep the byte order). A Guid range is bracketed to Guids (in the core's order a Guid is the 16-byte binary
 *       of subtype 4, among binaries of other lengths).</li>
 * </ul>
 */
public final class FilterCompiler {
    public static final String ALIAS = "d";
    private static final Expr D = new Expr.Identifier(ALIAS);
    private static final HexFormat HEX = HexFormat.of();
    private static final JsonNode LOWEST_GUID = UuidNode.of(new UUID(0, 0));
    private static final JsonNode HIGHEST_GUID = UuidNode.of(new UUID(-1, -1));

    /** An expression and the typed values its parameters stand for. */
    public record Compiled(Expr condition, Map<String, JsonNode> parameters) {
    }

    private final EntityLayout layout;
    private final Map<String, JsonNode> parameters = new LinkedHashMap<>();

    private FilterCompiler(EntityLayout layout) {
        this.layout = layout;
    }

    public static Compiled compile(Filter f, EntityLayout layout) {
        FilterCompiler c = new FilterCompiler(layout);
        Expr e = c.expr(f);
        return new Compiled(e, Map.copyOf(c.parameters));
    }

    private Expr expr(Filter f) {
        if (f instanceof Filter.And a) {
            return new Expr.Binary(Expr.BinaryOp.AND, expr(a.left()), expr(a.right()));
        } else if (f instanceof Filter.Or o) {
            return new Expr.Binary(Expr.BinaryOp.OR, expr(o.left()), expr(o.right()));
        } else if (f instanceof Filter.Not n) {
            return new Expr.Unary(Expr.UnaryOp.NOT, expr(n.operand()));
        } else if (f instanceof Filter.Constant c) {
            return new Expr.BooleanLiteral(c.value());
        }
        return comparison((Filter.Comparison) f);
    }

    /** The expression of the partition key property in {@code layout}'s items. */
    public static Expr partitionKeyExpr(EntityLayout layout) {
        Expr e = D;
        for (String segment : layout.partitionKeyPath()) {
            e = new Expr.PropertyAccess(e, segment);
        }
        return e;
    }

    private Expr comparison(Filter.Comparison c) {
        EdmValue lit = c.literal();
        switch (c.property()) {
            case "PartitionKey":
                if (lit.type() != EdmType.STRING) {
                    return new Expr.BooleanLiteral(false);
                }
                Expr pk = compare(partitionKeyExpr(layout), c.op(), literal(lit));
                if (!layout.isTables() && ((String) lit.value()).isEmpty()
                        && (c.op() == Filter.Op.EQ || c.op() == Filter.Op.GE || c.op() == Filter.Op.LE)) {
                    // another face's items without a partition key value show the PartitionKey ""
                    return new Expr.Binary(Expr.BinaryOp.OR, pk, new Expr.Unary(Expr.UnaryOp.NOT,
                            new Expr.FunctionCall("IS_DEFINED", false, List.of(partitionKeyExpr(layout)))));
                }
                return pk;
            case "RowKey":
                return lit.type() == EdmType.STRING
                        ? compare(new Expr.PropertyAccess(D, "id"), c.op(),
                        new Expr.StringLiteral(RowKeys.toId((String) lit.value())))
                        : new Expr.BooleanLiteral(false);
            case "Timestamp":
                // another face's items take their Timestamp from _ts and their version: not comparable here
                return lit.type() == EdmType.DATETIME && layout.isTables()
                        ? typed(EntityItems.TIMESTAMP, c.op(), lit)
                        : new Expr.BooleanLiteral(false);
            default:
                break;
        }
        String name = EntityItems.storedName(c.property());
        return switch (lit.type()) {
            // numbers compare by value across Int32, Int64 and Double (OData's numeric promotion: 'd eq 5' matches
            // 5.0, 'n eq 5L' an Int32 5), and with nothing else
            case INT32, INT64, DOUBLE -> compare(property(name), c.op(), literal(lit));
            // a string or boolean never equals a typed value (a DateTime, Guid, Binary), which SQL sees as its text
            case STRING, BOOLEAN -> and(new Expr.Binary(Expr.BinaryOp.AND, compare(property(name), c.op(), literal(lit)),
                    new Expr.Unary(Expr.UnaryOp.NOT, new Expr.FunctionCall("IS_DEFINED", false, List.of(tag(name))))),
                    new Expr.Unary(Expr.UnaryOp.NOT, new Expr.FunctionCall(
                            io.tetradb.core.query.eval.ExpressionEvaluator.IS_TYPED_VALUE, false,
                            List.of(property(name)))));
            default -> typed(name, c.op(), lit);
        };
    }

    /** A comparison with a DateTime, Guid or Binary (see the class comment). */
    private Expr typed(String name, Filter.Op op, EdmValue lit) {
        Expr p = property(name);
        Expr exact = compare(p, op, parameter(EdmTypedValues.node(lit)));
        if (lit.type() == EdmType.GUID && op != Filter.Op.EQ && op != Filter.Op.NE) {
            exact = and(exact, and(new Expr.Binary(Expr.BinaryOp.GREATER_OR_EQUAL, p, parameter(LOWEST_GUID)),
                    new Expr.Binary(Expr.BinaryOp.LESS_OR_EQUAL, p, parameter(HIGHEST_GUID))));
        }
        // false, never undefined, for typed entities (IS_DEFINED / IS_STRING first), so that NOT over it stays exact;
        // the earlier shape kept the Timestamp as untagged text
        Expr legacyShape = name.equals(EntityItems.TIMESTAMP)
                ? new Expr.FunctionCall("IS_STRING", false, List.of(p))
                : and(new Expr.FunctionCall("IS_DEFINED", false, List.of(tag(name))),
                new Expr.Binary(Expr.BinaryOp.EQUAL, tag(name), new Expr.StringLiteral(lit.type().odataName())));
        Expr legacy = and(legacyShape, compare(p, op, new Expr.StringLiteral(legacyText(lit))));
        Expr condition = new Expr.Binary(Expr.BinaryOp.OR, exact, legacy);
        boolean seekable = op != Filter.Op.NE && (lit.type() != EdmType.BINARY || op == Filter.Op.EQ);
        if (!seekable) {
            return condition;
        }
        String view = ((TypedNode) EdmTypedValues.node(lit)).jsonView().textValue();
        Expr sought = lit.type() == EdmType.BINARY // base64 now, hex in the earlier shape
                ? new Expr.In(p, List.of(new Expr.StringLiteral(view), new Expr.StringLiteral(legacyText(lit))), false)
                : compare(p, op, new Expr.StringLiteral(view));
        Expr hint = new Expr.FunctionCall(SeekHintFunctions.SEEK_HINT, false, List.of(sought));
        return and(hint, condition);
    }

    /** How the earlier shape stored a DateTime, Guid or Binary: seven-digit UTC text, lower-case text, hex. */
    private static String legacyText(EdmValue v) {
        return switch (v.type()) {
            case DATETIME -> DateTimes.format((Instant) v.value());
            case BINARY -> HEX.formatHex((byte[]) v.value());
            default -> v.value().toString();
        };
    }

    private Expr parameter(JsonNode value) {
        String name = "@t" + parameters.size();
        parameters.put(name, value);
        return new Expr.Parameter(name);
    }

    private static Expr property(String name) {
        return new Expr.PropertyAccess(D, name);
    }

    private static Expr tag(String name) {
        return new Expr.PropertyAccess(new Expr.PropertyAccess(D, EntityItems.TYPES), name);
    }

    private static Expr and(Expr a, Expr b) {
        return new Expr.Binary(Expr.BinaryOp.AND, a, b);
    }

    private static Expr compare(Expr property, Filter.Op op, Expr value) {
        Expr.BinaryOp bop = switch (op) {
            case EQ -> Expr.BinaryOp.EQUAL;
            case NE -> Expr.BinaryOp.NOT_EQUAL;
            case GT -> Expr.BinaryOp.GREATER;
            case GE -> Expr.BinaryOp.GREATER_OR_EQUAL;
            case LT -> Expr.BinaryOp.LESS;
            case LE -> Expr.BinaryOp.LESS_OR_EQUAL;
        };
        return new Expr.Binary(bop, property, value);
    }

    /** A String, Boolean or number literal. */
    private static Expr literal(EdmValue v) {
        return switch (v.type()) {
            case STRING -> new Expr.StringLiteral((String) v.value());
            case BOOLEAN -> new Expr.BooleanLiteral((Boolean) v.value());
            case INT32, INT64 -> {
                long l = ((Number) v.value()).longValue();
                yield new Expr.NumberLiteral((double) l, l);
            }
            case DOUBLE -> new Expr.NumberLiteral((Double) v.value());
            default -> throw new IllegalArgumentException("not a JSON literal: " + v);
        };
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
