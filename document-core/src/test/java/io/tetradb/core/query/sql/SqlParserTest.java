package io.tetradb.core.query.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tetradb.core.query.sql.Expr.Binary;
import io.tetradb.core.query.sql.Expr.BinaryOp;
import io.tetradb.core.query.sql.Expr.Identifier;
import io.tetradb.core.query.sql.Expr.IndexAccess;
import io.tetradb.core.query.sql.Expr.NumberLiteral;
import io.tetradb.core.query.sql.Expr.Parameter;
import io.tetradb.core.query.sql.Expr.PropertyAccess;
import io.tetradb.core.query.sql.Expr.StringLiteral;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlParserTest {

    // ---- helpers ------------------------------------------------------------------------------------------------

    /** Parses and checks the round trip {@code parse(unparse(parse(q))) == parse(q)}. */
    static SqlQuery parse(String q) {
        SqlQuery ast = SqlParser.parse(q);
        String text = ast.toString();
        SqlQuery again = SqlParser.parse(text);
        assertEquals(ast, again, () -> "round trip of " + q + " via " + text);
        assertEquals(text, again.toString());
        return ast;
    }

    /** The expression of {@code SELECT VALUE <e>}. */
    static Expr expr(String e) {
        return ((Projection.Value) parse("SELECT VALUE " + e).select().projection()).expr();
    }

    /** Fully parenthesized form of an expression: shows how it grouped. */
    static String grouped(String e) {
        return SqlUnparser.unparseGrouped(expr(e));
    }

    static Expr c(String... path) {
        Expr e = new Identifier("c");
        for (String p : path) {
            e = new PropertyAccess(e, p);
        }
        return e;
    }

    static Expr num(double d) {
        return new NumberLiteral(d);
    }

    static Expr str(String s) {
        return new StringLiteral(s);
    }

    static Expr where(String q) {
        return parse(q).where();
    }

    // ---- SELECT -------------------------------------------------------------------------------------------------

    @Test
    void selectStar() {
        SqlQuery q = parse("SELECT * FROM c");
        assertEquals(new SelectClause(false, null, new Projection.Star()), q.select());
        assertEquals(new FromClause(new FromSource(new FromCollection.Path("c", List.of()), null, false), List.of()),
                q.from());
        assertNull(q.where());
        assertEquals("SELECT * FROM c", q.toString());
    }

    @Test
    void selectWithoutFrom() {
        SqlQuery q = parse("SELECT 1 + 2 AS three");
        assertNull(q.from());
        assertEquals(new Projection.Items(List.of(new Projection.SelectItem(
                new Binary(BinaryOp.ADD, num(1), num(2)), "three"))), q.select().projection());
    }

    @Test
    void selectDistinctTopValue() {
        SqlQuery q = parse("select distinct top 5 value c.category from c");
        assertTrue(q.select().distinct());
        assertEquals(num(5), q.select().top());
        assertEquals(new Projection.Value(c("category")), q.select().projection());
        assertEquals("SELECT DISTINCT TOP 5 VALUE c.category FROM c", q.toString());
    }

    @Test
    void topParameter() {
        assertEquals(new Parameter("n"), parse("SELECT TOP @n * FROM c").select().top());
    }

    @Test
    void selectListWithAliases() {
        SqlQuery q = parse("SELECT c.id, c.name AS n, c.a.b FROM c");
        assertEquals(new Projection.Items(List.of(
                new Projection.SelectItem(c("id"), null),
                new Projection.SelectItem(c("name"), "n"),
                new Projection.SelectItem(c("a", "b"), null))), q.select().projection());
    }

    @Test
    void objectAndArrayLiteralsInProjection() {
        SqlQuery q = parse("SELECT {\"a\": c.x, b: 1} AS o, [c.a, 1] AS arr FROM c");
        List<Projection.SelectItem> items = ((Projection.Items) q.select().projection()).items();
        assertEquals(new Expr.ObjectLiteral(List.of(new Expr.ObjectProperty("a", c("x")),
                new Expr.ObjectProperty("b", num(1)))), items.get(0).expr());
        assertEquals(new Expr.ArrayLiteral(List.of(c("a"), num(1))), items.get(1).expr());
        assertEquals("SELECT {\"a\": c.x, \"b\": 1} AS o, [c.a, 1] AS arr FROM c", q.toString());
        assertEquals(new Expr.ObjectLiteral(List.of()), expr("{}"));
        assertEquals(new Expr.ArrayLiteral(List.of()), expr("[]"));
    }

    // ---- FROM / JOIN --------------------------------------------------------------------------------------------

    @Test
    void fromRootWithAlias() {
        FromSource s = parse("SELECT * FROM root r").from().source();
        assertEquals(new FromSource(new FromCollection.Path("root", List.of()), "r", false), s);
        assertEquals("r", s.effectiveAlias());
        // ROOT is not a reserved word (Cosmos SDK grammar): it is an identifier, kept as written
        assertEquals(new FromSource(new FromCollection.Path("ROOT", List.of()), "r", false),
                parse("SELECT * FROM ROOT AS r").from().source());
    }

    @Test
    void fromSubrootInfersAlias() {
        FromSource s = parse("SELECT * FROM c.children").from().source();
        assertEquals(new FromSource(new FromCollection.Path("c",
                List.of(new PathSegment.Property("children", false))), null, false), s);
        assertEquals("children", s.effectiveAlias());
        assertEquals("c", parse("SELECT * FROM c").from().source().effectiveAlias());
    }

    @Test
    void fromPathWithQuotedPropertyAndIndex() {
        FromSource s = parse("SELECT * FROM c[\"a-b\"][0] x").from().source();
        assertEquals(new FromCollection.Path("c", List.of(new PathSegment.Property("a-b", true),
                new PathSegment.Index(0))), s.collection());
        assertEquals("x", s.alias());
    }

    @Test
    void fromArrayIterator() {
        FromSource s = parse("SELECT VALUE x FROM x IN c.arr").from().source();
        assertEquals(new FromSource(new FromCollection.Path("c", List.of(new PathSegment.Property("arr", false))),
                "x", true), s);
    }

    @Test
    void joins() {
        FromClause f = parse("SELECT * FROM c JOIN t IN c.tags JOIN s IN c.sizes JOIN k IN t.kids").from();
        assertEquals(3, f.joins().size());
        assertEquals(new JoinClause(new FromSource(new FromCollection.Path("t",
                List.of(new PathSegment.Property("kids", false))), "k", true)), f.joins().get(2));
    }

    @Test
    void joinSubqueryWithoutAlias() {
        // https://learn.microsoft.com/azure/cosmos-db/nosql/query/subquery (optimize self-join expressions)
        SqlQuery q = parse("SELECT VALUE COUNT(1) FROM products p "
                + "JOIN (SELECT VALUE t FROM t IN p.tags WHERE t.name IN (\"winter\", \"fall\")) "
                + "JOIN (SELECT VALUE q FROM q IN p.onHandQuantities WHERE q.quantity BETWEEN 0 AND 10) "
                + "JOIN (SELECT VALUE s FROM s IN p.warehouseStock WHERE NOT s.backstock)");
        assertEquals(3, q.from().joins().size());
        FromSource j = q.from().joins().get(0).source();
        assertInstanceOf(FromCollection.Subquery.class, j.collection());
        assertNull(j.alias());
        assertEquals(FromSource.UNNAMED_SUBQUERY, j.effectiveAlias()); // bound, but not referenceable
    }

    // ---- WHERE / ORDER BY / GROUP BY / OFFSET LIMIT -------------------------------------------------------------

    @Test
    void orderBy() {
        SqlQuery q = parse("SELECT * FROM c ORDER BY c.a, c.b DESC, c.c ASC");
        assertEquals(List.of(new OrderByItem(c("a"), false), new OrderByItem(c("b"), true),
                new OrderByItem(c("c"), false)), q.orderBy());
    }

    @Test
    void orderByRankIsRejected() {
        SqlSyntaxException e = assertThrows(SqlSyntaxException.class,
                () -> SqlParser.parse("SELECT * FROM c ORDER BY RANK FullTextScore(c.text, 'x')"));
        assertTrue(e.getMessage().contains("ORDER BY RANK"), e.getMessage());
        assertEquals(26, e.column());
    }

    @Test
    void groupBy() {
        SqlQuery q = parse("SELECT c.team, COUNT(1) AS n FROM c GROUP BY c.team, c.level");
        assertEquals(List.of(c("team"), c("level")), q.groupBy());
    }

    @Test
    void offsetLimit() {
        assertEquals(new OffsetLimit(num(0), num(10)), parse("SELECT * FROM c OFFSET 0 LIMIT 10").offsetLimit());
        assertEquals(new OffsetLimit(new Parameter("o"), new Parameter("l")),
                parse("SELECT * FROM c OFFSET @o LIMIT @l").offsetLimit());
    }

    @Test
    void allClausesTogether() {
        SqlQuery q = parse("SELECT DISTINCT TOP 3 c.a FROM c JOIN x IN c.xs WHERE x > 1 GROUP BY c.a "
                + "ORDER BY c.a DESC OFFSET 1 LIMIT 2");
        assertEquals("SELECT DISTINCT TOP 3 c.a FROM c JOIN x IN c.xs WHERE x > 1 GROUP BY c.a ORDER BY c.a DESC "
                + "OFFSET 1 LIMIT 2", q.toString());
    }

    // ---- expressions --------------------------------------------------------------------------------------------

    @Test
    void propertyAndIndexAccess() {
        assertEquals(new IndexAccess(new Identifier("c"), str("a-b")), expr("c[\"a-b\"]"));
        assertEquals(new IndexAccess(c("arr"), num(0)), expr("c.arr[0]"));
        assertEquals(new IndexAccess(c("arr"), new Parameter("i")), expr("c.arr[@i]"));
        assertEquals(new PropertyAccess(new IndexAccess(c("arr"), num(0)), "x"), expr("c.arr[0].x"));
        assertEquals(c("a", "b", "c"), expr("c.a.b.c"));
        // reserved words only through brackets
        assertEquals(new IndexAccess(new Identifier("c"), str("value")), expr("c['value']"));
    }

    @Test
    void literals() {
        assertEquals(new Expr.BooleanLiteral(true), expr("true"));
        assertEquals(new Expr.BooleanLiteral(false), expr("FALSE"));
        assertEquals(new Expr.NullLiteral(), expr("null"));
        assertEquals(new Expr.UndefinedLiteral(), expr("undefined"));
        assertEquals(num(42), expr("42"));
        assertEquals(num(1.5), expr("1.5"));
        assertEquals(num(0.5), expr(".5"));
        assertEquals(num(1e3), expr("1e3"));
        assertEquals(num(2.5e-3), expr("2.5E-3"));
        assertEquals(num(255), expr("0xFF"));
        assertEquals(num(1.7976931348623157E308), expr("1.7976931348623157E308"));
        assertEquals(num(4.9E-324), expr("4.9E-324"));
        assertEquals(new Expr.Unary(Expr.UnaryOp.NEGATE, num(7)), expr("-7"));
        assertEquals(new Parameter("p1"), expr("@p1"));
    }

    @Test
    void stringEscapes() {
        assertEquals(str("it's"), expr("'it\\'s'"));
        assertEquals(str("say \"hi\""), expr("\"say \\\"hi\\\"\""));
        assertEquals(str("a\\b"), expr("'a\\\\b'"));
        assertEquals(str("l1\nl2\tx"), expr("'l1\\nl2\\tx'"));
        assertEquals(str("\u00e9/\u20ac"), expr("'\\u00e9\\/\\u20AC'"));
        assertEquals(str("dq\"in single"), expr("'dq\"in single'"));
        assertEquals(str("sq'in double"), expr("\"sq'in double\""));
        assertEquals(str(""), expr("''"));
        assertEquals(str("\u0001"), expr("'\\u0001'"));
    }

    @Test
    void functionCalls() {
        Expr.FunctionCall f = (Expr.FunctionCall) expr("StartsWith(c.id, 'x', true)");
        assertEquals("StartsWith", f.name());
        assertEquals("STARTSWITH", f.normalizedName());
        assertFalse(f.udf());
        assertEquals(List.of(c("id"), str("x"), new Expr.BooleanLiteral(true)), f.args());
        assertEquals(new Expr.FunctionCall("ST_DISTANCE", false, List.of(c("loc"), c("p"))),
                expr("ST_DISTANCE(c.loc, c.p)"));
        assertEquals(new Expr.FunctionCall("getTax", true, List.of(c("income"))), expr("udf.getTax(c.income)"));
        assertEquals(new Expr.FunctionCall("GetCurrentDateTime", false, List.of()), expr("GetCurrentDateTime()"));
        assertEquals(new Expr.FunctionCall("LEFT", false, List.of(c("s"), num(2))), expr("LEFT(c.s, 2)"));
        assertEquals(new Expr.FunctionCall("right", false, List.of(c("s"), num(2))), expr("right(c.s, 2)"));
        assertEquals("udf.getTax(c.income)", grouped("udf.getTax(c.income)"));
    }

    @Test
    void subqueries() {
        Expr.Subquery s = (Expr.Subquery) expr("(SELECT VALUE COUNT(1) FROM t IN c.tags)");
        assertEquals(Expr.SubqueryKind.SCALAR, s.kind());
        assertEquals(Expr.SubqueryKind.EXISTS, ((Expr.Subquery) expr("EXISTS(SELECT VALUE t FROM t IN c.tags)")).kind());
        assertEquals(Expr.SubqueryKind.ARRAY, ((Expr.Subquery) expr("ARRAY(SELECT VALUE t.name FROM t IN c.tags)"))
                .kind());
        assertEquals(new PropertyAccess(s, "x"), expr("(SELECT VALUE COUNT(1) FROM t IN c.tags).x"));
    }

    @Test
    void inBetweenLike() {
        assertEquals(new Expr.In(c("id"), List.of(str("s1"), str("s2")), false), where(
                "SELECT * FROM c WHERE c.id IN ('s1','s2')"));
        assertEquals(new Expr.In(c("id"), List.of(num(1)), true), expr("c.id NOT IN (1)"));
        assertEquals(new Expr.Between(c("p"), num(1), num(2), false), expr("c.p BETWEEN 1 AND 2"));
        assertEquals(new Expr.Between(c("p"), num(1), num(2), true), expr("c.p NOT BETWEEN 1 AND 2"));
        assertEquals(new Expr.Like(c("n"), str("a%"), null, false), expr("c.n LIKE 'a%'"));
        assertEquals(new Expr.Like(c("n"), str("a!%%"), "!", true), expr("c.n NOT LIKE 'a!%%' ESCAPE '!'"));
    }

    @Test
    void keywordsAreCaseInsensitive() {
        assertEquals(parse("SELECT * FROM c WHERE c.a = 1 AND NOT c.b ORDER BY c.a DESC"),
                parse("select * from c where c.a = 1 and not c.b order by c.a desc"));
        assertEquals(parse("SELECT * FROM c WHERE c.a BETWEEN 1 AND 2"),
                parse("SeLeCt * FrOm c WhErE c.a bEtWeEn 1 AnD 2"));
    }

    @Test
    void commentsAreSkipped() {
        assertEquals(parse("SELECT * FROM c WHERE c.a = 1"),
                parse("-- all items\nSELECT * -- star\nFROM c\n-- filter\nWHERE c.a = 1 -- trailing"));
    }

    @Test
    void notEqualSpellings() {
        assertEquals(expr("c.a != 1"), expr("c.a <> 1"));
        assertEquals(new Binary(BinaryOp.NOT_EQUAL, c("a"), num(1)), expr("c.a <> 1"));
    }

    // ---- precedence ---------------------------------------------------------------------------------------------

    @Test
    void arithmeticPrecedence() {
        assertEquals("1 + (2 * 3)", grouped("1 + 2 * 3"));
        assertEquals("(1 * 2) + 3", grouped("1 * 2 + 3"));
        assertEquals("(1 - 2) - 3", grouped("1 - 2 - 3"));
        assertEquals("(8 / 4) % 3", grouped("8 / 4 % 3"));
        assertEquals("(1 + 2) * 3", grouped("(1 + 2) * 3"));
        assertEquals("(-1) + 2", grouped("-1 + 2"));
        assertEquals("-c.a", grouped("-c.a"));
        assertEquals("-(-1)", grouped("- -1"));
        assertEquals("~(~1)", grouped("~~1"));
    }

    @Test
    void shiftAndBitwisePrecedence() {
        assertEquals("(1 + 2) << 3", grouped("1 + 2 << 3"));
        assertEquals("(1 << 2) < 3", grouped("1 << 2 < 3"));
        assertEquals("(100 >>> 2) >> 1", grouped("100 >>> 2 >> 1"));
        // as in the Cosmos SDK grammar (and C/JavaScript): & ^ | bind looser than comparisons
        assertEquals("c.f & (4 = 4)", grouped("c.f & 4 = 4"));
        assertEquals("1 | (2 ^ (3 & 4))", grouped("1 | 2 ^ 3 & 4"));
        assertEquals("(1 < 2) = true", grouped("1 < 2 = true"));
    }

    @Test
    void concatIsLoosestBinaryOperator() {
        // Cosmos SDK grammar: '||' is the last (loosest) binary alternative
        assertEquals("(c.a || 'b') || 'c'", grouped("c.a || 'b' || 'c'"));
        assertEquals("c.a || ('b' = 'c')", grouped("c.a || 'b' = 'c'"));
        assertEquals("(c.a + 1) || 'x'", grouped("c.a + 1 || 'x'"));
        assertEquals("(c.a || 'x') IN ('ax')", grouped("c.a || 'x' IN ('ax')"));
    }

    @Test
    void logicalPrecedence() {
        assertEquals("(c.a = 1) OR ((c.b = 2) AND (c.c = 3))", grouped("c.a = 1 OR c.b = 2 AND c.c = 3"));
        assertEquals("(NOT (c.a = 1)) AND (c.b = 2)", grouped("NOT c.a = 1 AND c.b = 2"));
        assertEquals("NOT (NOT c.a)", grouped("NOT NOT c.a"));
        assertEquals("(c.a IN (1, 2)) AND (c.b LIKE 'x%')", grouped("c.a IN (1, 2) AND c.b LIKE 'x%'"));
        assertEquals("(c.p BETWEEN 1 AND 2) AND (c.q = 3)", grouped("c.p BETWEEN 1 AND 2 AND c.q = 3"));
        assertEquals("NOT (c.a IN (1))", grouped("NOT c.a IN (1)"));
        assertEquals("c.p BETWEEN (1 + 1) AND (2 * 3)", grouped("c.p BETWEEN 1 + 1 AND 2 * 3"));
        assertEquals("(c.a + 1) IN (2)", grouped("c.a + 1 IN (2)"));
        assertEquals("c.a = (NOT c.b)", grouped("c.a = NOT c.b"));
    }

    @Test
    void conditionalAndCoalescePrecedence() {
        assertEquals("(c.a ?? c.b) ?? c.c", grouped("c.a ?? c.b ?? c.c"));
        assertEquals("(c.a OR c.b) ?? c.c", grouped("c.a OR c.b ?? c.c"));
        assertEquals("(c.a ?? c.b) ? 1 : 2", grouped("c.a ?? c.b ? 1 : 2"));
        assertEquals("(c.a > 1) ? 'big' : ((c.a > 0) ? 'small' : 'none')",
                grouped("c.a > 1 ? 'big' : c.a > 0 ? 'small' : 'none'"));
        assertEquals("c.a ? (c.b ? 1 : 2) : 3", grouped("c.a ? c.b ? 1 : 2 : 3"));
        assertEquals("((c.a AND c.b) OR c.c) ? (1 + 2) : (3 ?? 4)",
                grouped("c.a AND c.b OR c.c ? 1 + 2 : 3 ?? 4"));
    }

    @Test
    void postfixBindsTightest() {
        assertEquals("-c.a.b[0]", grouped("-c.a.b[0]"));
        assertEquals(new Expr.Unary(Expr.UnaryOp.NEGATE, new IndexAccess(c("a", "b"), num(0))), expr("-c.a.b[0]"));
        assertEquals("(c.a + c.b).x", grouped("(c.a + c.b).x"));
    }

    // ---- seed scenarios (examples/) --------------------------------------------------------------------

    @Test
    void seedBooksOfOnePublisher() {
        SqlQuery q = parse("SELECT * FROM c WHERE c[\"pub-id\"] = 'mspress'");
        assertEquals(new Binary(BinaryOp.EQUAL, new IndexAccess(new Identifier("c"), str("pub-id")), str("mspress")),
                q.where());
    }

    @Test
    void seedStocksInPortfolio() {
        assertEquals(new Expr.In(c("id"), List.of(str("s1"), str("s2")), false),
                where("SELECT * FROM c WHERE c.id IN ('s1','s2')"));
    }

    @Test
    void seedLinksOfStudentJoin() {
        SqlQuery q = parse("SELECT VALUE l FROM c JOIN l IN c.links WHERE l.target = 'S12345'");
        assertEquals(new Projection.Value(new Identifier("l")), q.select().projection());
        assertEquals(List.of(new JoinClause(new FromSource(new FromCollection.Path("c",
                List.of(new PathSegment.Property("links", false))), "l", true))), q.from().joins());
        assertEquals(new Binary(BinaryOp.EQUAL, new PropertyAccess(new Identifier("l"), "target"), str("S12345")),
                q.where());
    }

    @Test
    void seedLinksOfStudentExists() {
        Expr w = where("SELECT * FROM c WHERE EXISTS(SELECT VALUE l FROM l IN c.links WHERE l.target = 'S12345')");
        Expr.Subquery s = (Expr.Subquery) w;
        assertEquals(Expr.SubqueryKind.EXISTS, s.kind());
        assertEquals(new FromSource(new FromCollection.Path("c", List.of(new PathSegment.Property("links", false))),
                "l", true), s.query().from().source());
    }

    @Test
    void seedCommentsOfPost() {
        SqlQuery q = parse("SELECT c.name, c.date FROM c WHERE STARTSWITH(c.id, 'C12345-I34562') "
                + "ORDER BY c.id OFFSET 0 LIMIT 10");
        assertEquals(new Expr.FunctionCall("STARTSWITH", false, List.of(c("id"), str("C12345-I34562"))), q.where());
        assertEquals(List.of(new OrderByItem(c("id"), false)), q.orderBy());
        assertEquals(new OffsetLimit(num(0), num(10)), q.offsetLimit());
        assertEquals("SELECT c.name, c.date FROM c WHERE STARTSWITH(c.id, 'C12345-I34562') ORDER BY c.id "
                + "OFFSET 0 LIMIT 10", q.toString());
    }

    // ---- size limit ---------------------------------------------------------------------------------------------

    @Test
    void queryOver512KbIs413() {
        String pad = "SELECT * FROM c WHERE c.a = '" + "x".repeat(512 * 1024) + "'";
        io.tetradb.core.StoreException e = assertThrows(io.tetradb.core.StoreException.class,
                () -> SqlParser.parse(pad));
        assertEquals(413, e.status());
        assertFalse(e instanceof SqlSyntaxException);
        // counted in UTF-8 bytes: 200k three-byte chars are 600 KB
        String wide = "SELECT VALUE '" + "\u20ac".repeat(200_000) + "'";
        assertEquals(413, assertThrows(io.tetradb.core.StoreException.class, () -> SqlParser.parse(wide)).status());
        // just under the limit parses
        String ok = "SELECT VALUE '" + "x".repeat(512 * 1024 - 20) + "'";
        assertInstanceOf(StringLiteral.class, ((Projection.Value) SqlParser.parse(ok).select().projection()).expr());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT * FROM c",
        "SELECT c.a AS x, [1, 2, {\"k\": c.b}] AS y FROM c WHERE (c.a ?? 1) > 0 ? true : false",
        "SELECT VALUE udf.f(c.a, @p) FROM c JOIN x IN c.xs JOIN y IN x.ys WHERE x.n NOT BETWEEN -1 AND +1",
        "SELECT * FROM c WHERE c.s NOT LIKE '50^%' ESCAPE '^' OR c.t LIKE \"%x%\"",
        "SELECT ARRAY(SELECT VALUE t FROM t IN c.tags WHERE t != 'a') AS tags FROM c",
        "SELECT * FROM c WHERE (SELECT VALUE COUNT(1) FROM t IN c.tags) > 1 ORDER BY c._ts DESC",
        "SELECT 1e300 * 10, 0.1 + 0.2, 12345678901234567890, 0x7FFFFFFF, 'q\\'\\u0007' FROM c",
        "SELECT * FROM (SELECT VALUE c.a FROM c) x WHERE x > 1",
        "SELECT NOT (c.a = 1), NOT c.b, -(-c.c), ~c.d, +c.e FROM c",
    })
    void roundTrips(String q) {
        parse(q);
    }
}
