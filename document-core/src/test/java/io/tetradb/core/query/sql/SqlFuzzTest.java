package io.tetradb.core.query.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random inputs: token soup and mutated queries must either parse (and then round-trip) or throw
 * {@link SqlSyntaxException}, never anything else; random ASTs must survive unparse → parse unchanged.
 */
class SqlFuzzTest {
    private static final String[] VOCAB = {
        "SELECT", "select", "DISTINCT", "TOP", "VALUE", "*", "FROM", "WHERE", "JOIN", "IN", "AS", "ORDER", "BY", "ASC",
        "DESC", "GROUP", "OFFSET", "LIMIT", "RANK", "AND", "OR", "NOT", "BETWEEN", "LIKE", "ESCAPE", "EXISTS", "ARRAY",
        "udf", "LEFT", "RIGHT", "true", "false", "null", "undefined", "root", "c", "x", "f", "ALL", "FIRST",
        "c.a", "c.arr[0]", "c[\"a-b\"]", "@p", "@", "0", "1", "1.5", "1e3", "0x1F", "0x", "1e", "99999999999999999999999",
        "'s'", "\"d\"", "'\\u00e9'", "'\\q'", "'open", "\"", "(", ")", "[", "]", "{", "}", ",", ".", ":", "?", "??",
        "=", "!=", "<>", "<", "<=", ">", ">=", "<<", ">>", ">>>", "+", "-", "*", "/", "%", "~", "&", "|", "^", "||",
        "--", "\n", "#", "$", "\u00e9", "\u0000", ";",
    };

    @Test
    void tokenSoupOnlyEverThrowsSqlSyntaxException() {
        Random rnd = new Random(20261121L);
        int parsed = 0;
        for (int i = 0; i < 30_000; i++) {
            StringBuilder sb = new StringBuilder();
            if (rnd.nextInt(3) > 0) {
                sb.append("SELECT ");
            }
            int n = 1 + rnd.nextInt(25);
            for (int k = 0; k < n; k++) {
                sb.append(VOCAB[rnd.nextInt(VOCAB.length)]);
                if (rnd.nextInt(4) > 0) {
                    sb.append(' ');
                }
            }
            if (check(sb.toString())) {
                parsed++;
            }
        }
        // sanity: the soup is not all rejected by the first token
        if (parsed == 0) {
            fail("no random query parsed at all");
        }
    }

    @Test
    void mutatedQueriesOnlyEverThrowSqlSyntaxException() {
        String[] seeds = {
            "SELECT c.name, c.date FROM c WHERE STARTSWITH(c.id, 'C12345-I34562') ORDER BY c.id OFFSET 0 LIMIT 10",
            "SELECT VALUE l FROM c JOIN l IN c.links WHERE l.target = 'S12345'",
            "SELECT * FROM c WHERE EXISTS(SELECT VALUE l FROM l IN c.links WHERE l.target = 'S12345')",
            "SELECT DISTINCT TOP 3 {\"a\": c.x, b: [1, 2]} AS o FROM root r WHERE r.a ?? 1 > 0 ? true : false",
            "SELECT * FROM c WHERE c.s NOT LIKE '%x^%' ESCAPE '^' AND c.n NOT BETWEEN -1 AND 0x10 GROUP BY c.s",
        };
        String alphabet = "abcSELECTFROMWHERE @.,()[]{}'\"\\?:=<>!+-*/%~&|^0123456789xe\n";
        Random rnd = new Random(42);
        for (int i = 0; i < 30_000; i++) {
            StringBuilder sb = new StringBuilder(seeds[rnd.nextInt(seeds.length)]);
            int edits = 1 + rnd.nextInt(4);
            for (int k = 0; k < edits; k++) {
                int at = rnd.nextInt(sb.length() + 1);
                switch (rnd.nextInt(3)) {
                    case 0 -> sb.insert(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                    case 1 -> {
                        if (at < sb.length()) {
                            sb.deleteCharAt(at);
                        }
                    }
                    default -> {
                        if (at < sb.length()) {
                            sb.setCharAt(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                        }
                    }
                }
            }
            check(sb.toString());
        }
    }

    /** True when it parsed (and round-tripped); false on SqlSyntaxException; fails the test otherwise. */
    private static boolean check(String q) {
        SqlQuery ast;
        try {
            ast = SqlParser.parse(q);
        } catch (SqlSyntaxException e) {
            if (e.offset() < 0 || e.offset() > q.length() || e.line() < 1 || e.column() < 1) {
                fail("bad position for " + q + ": " + e.getMessage());
            }
            return false;
        } catch (Throwable t) {
            throw new AssertionError("unexpected " + t + " for query: " + q, t);
        }
        String text = ast.toString();
        try {
            assertEquals(ast, SqlParser.parse(text), () -> "round trip of " + q + " via " + text);
        } catch (SqlSyntaxException e) {
            throw new AssertionError("unparse of " + q + " does not parse: " + text, e);
        }
        return true;
    }

    // ---- random ASTs --------------------------------------------------------------------------------------------

    @Test
    void randomExpressionsRoundTrip() {
        Random rnd = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            Expr e = randomExpr(rnd, 4);
            SqlQuery q = new SqlQuery(new SelectClause(false, null, new Projection.Value(e)), null, null, null, null,
                    null);
            String text = q.toString();
            SqlQuery back;
            try {
                back = SqlParser.parse(text);
            } catch (SqlSyntaxException ex) {
                throw new AssertionError("unparse does not parse: " + text, ex);
            }
            assertEquals(q, back, () -> "round trip via " + text);
        }
    }

    private static final String[] NAMES = {"c", "a", "b_1", "Root", "all", "first", "_x"};

    private static Expr randomExpr(Random rnd, int depth) {
        int choice = depth <= 0 ? rnd.nextInt(7) : rnd.nextInt(20);
        return switch (choice) {
            case 0 -> new Expr.NumberLiteral(switch (rnd.nextInt(4)) {
                case 0 -> rnd.nextInt(1000);
                case 1 -> rnd.nextDouble() * 1e6;
                case 2 -> Math.pow(10, rnd.nextInt(40) - 20) * rnd.nextInt(100);
                default -> 1e300 * rnd.nextInt(10);
            });
            case 1 -> new Expr.StringLiteral(randomString(rnd));
            case 2 -> new Expr.BooleanLiteral(rnd.nextBoolean());
            case 3 -> rnd.nextBoolean() ? new Expr.NullLiteral() : new Expr.UndefinedLiteral();
            case 4 -> new Expr.Identifier(NAMES[rnd.nextInt(NAMES.length)]);
            case 5 -> new Expr.Parameter("p" + rnd.nextInt(5));
            case 6 -> new Expr.PropertyAccess(new Expr.Identifier("c"), NAMES[rnd.nextInt(NAMES.length)]);
            case 7 -> new Expr.PropertyAccess(randomExpr(rnd, depth - 1), NAMES[rnd.nextInt(NAMES.length)]);
            case 8 -> new Expr.IndexAccess(randomExpr(rnd, depth - 1), randomExpr(rnd, depth - 1));
            case 9 -> new Expr.Unary(Expr.UnaryOp.values()[rnd.nextInt(Expr.UnaryOp.values().length)],
                    randomExpr(rnd, depth - 1));
            case 10, 11, 12 -> new Expr.Binary(Expr.BinaryOp.values()[rnd.nextInt(Expr.BinaryOp.values().length)],
                    randomExpr(rnd, depth - 1), randomExpr(rnd, depth - 1));
            case 13 -> new Expr.Conditional(randomExpr(rnd, depth - 1), randomExpr(rnd, depth - 1),
                    randomExpr(rnd, depth - 1));
            case 14 -> new Expr.In(randomExpr(rnd, depth - 1), randomList(rnd, depth - 1, 1), rnd.nextBoolean());
            case 15 -> new Expr.Between(randomExpr(rnd, depth - 1), randomExpr(rnd, depth - 1),
                    randomExpr(rnd, depth - 1), rnd.nextBoolean());
            case 16 -> new Expr.Like(randomExpr(rnd, depth - 1), randomExpr(rnd, depth - 1),
                    rnd.nextBoolean() ? null : randomString(rnd), rnd.nextBoolean());
            case 17 -> new Expr.FunctionCall(rnd.nextBoolean() ? "IS_DEFINED" : "myFn", rnd.nextBoolean(),
                    randomList(rnd, depth - 1, 0));
            case 18 -> rnd.nextBoolean() ? new Expr.ArrayLiteral(randomList(rnd, depth - 1, 0))
                    : new Expr.ObjectLiteral(List.of(new Expr.ObjectProperty(randomString(rnd),
                    randomExpr(rnd, depth - 1))));
            default -> new Expr.Subquery(Expr.SubqueryKind.values()[rnd.nextInt(3)], new SqlQuery(
                    new SelectClause(rnd.nextBoolean(), null, new Projection.Value(randomExpr(rnd, depth - 2))),
                    new FromClause(new FromSource(new FromCollection.Path("c",
                            List.of(new PathSegment.Property("tags", false))), "t", true), List.of()),
                    rnd.nextBoolean() ? null : randomExpr(rnd, depth - 2), null, null, null));
        };
    }

    private static List<Expr> randomList(Random rnd, int depth, int min) {
        int n = min + rnd.nextInt(3);
        List<Expr> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(randomExpr(rnd, depth));
        }
        return out;
    }

    private static String randomString(Random rnd) {
        String chars = "ab'\"\\\n\t\u0001\u00e9\u20ac%_-- ";
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(6);
        for (int i = 0; i < n; i++) {
            sb.append(chars.charAt(rnd.nextInt(chars.length())));
        }
        return sb.toString();
    }
}
