package io.tetradb.core.query.sql;

import static io.tetradb.core.query.sql.SqlParserTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Example queries of the Azure Cosmos DB for NoSQL query reference (learn.microsoft.com), reformatted onto one line
 * where the doc breaks lines. Each test names its page. Every query also checks the unparse round trip.
 */
class SqlDocExamplesTest {

    private static String unparsed(String q) {
        return parse(q).toString();
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/keywords (BETWEEN)
    @Test
    void keywordsBetween() {
        assertEquals("SELECT VALUE p.price FROM products p WHERE p.price BETWEEN 17.25 AND 25.5",
                unparsed("SELECT VALUE\n    p.price\nFROM\n    products p\nWHERE\n    p.price BETWEEN 17.25 AND 25.50"));
        assertEquals("SELECT p.price BETWEEN 0 AND 10 AS booleanLessThanTen, p.price FROM products p",
                unparsed("SELECT \n    (p.price BETWEEN 0 AND 10) AS booleanLessThanTen,\n    p.price\nFROM\n"
                        + "    products p"));
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/keywords (DISTINCT)
    @Test
    void keywordsDistinct() {
        SqlQuery q = parse("SELECT DISTINCT VALUE p.category FROM products p");
        assertEquals(true, q.select().distinct());
        assertEquals("SELECT DISTINCT p.category FROM products p", unparsed("SELECT DISTINCT\n    p.category\nFROM\n"
                + "    products p"));
    }

    // https://learn.microsoft.com/cosmos-db/query/operators (bitwise operators example)
    @Test
    void operatorsBitwise() {
        SqlQuery q = parse("SELECT (100 >> 2) AS rightShift, (100 << 2) AS leftShift, (100 >>> 0) AS zeroFillRightShift,"
                + " (100 & 1000) AS logicalAnd, (100 | 1000) AS logicalOr, (100 ^ 1000) AS logicalExclusiveOr");
        List<Projection.SelectItem> items = ((Projection.Items) q.select().projection()).items();
        assertEquals(6, items.size());
        assertEquals(new Expr.Binary(Expr.BinaryOp.ZERO_FILL_RIGHT_SHIFT, new Expr.NumberLiteral(100),
                new Expr.NumberLiteral(0)), items.get(2).expr());
        assertEquals("logicalExclusiveOr", items.get(5).alias());
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/ternary-coalesce-operators (style of its examples)
    @Test
    void operatorsTernaryAndCoalesce() {
        parse("SELECT p.name, p.price > 50 ? \"expensive\" : \"affordable\" AS priceLevel FROM products p");
        parse("SELECT p.name, p.price < 10 ? \"cheap\" : (p.price < 50 ? \"mid\" : \"expensive\") AS tier "
                + "FROM products p");
        parse("SELECT p.name, p.details.salePrice ?? p.price AS price FROM products p");
    }

    // https://learn.microsoft.com/cosmos-db/query/like
    @Test
    void like() {
        parse("SELECT VALUE p.name FROM products p WHERE p.name LIKE \"%driver%\"");
        parse("SELECT VALUE p.name FROM products p WHERE p.name LIKE \"fruit%\"");
        parse("SELECT VALUE p.name FROM products p WHERE p.name LIKE \"%Road\"");
        parse("SELECT VALUE p.name FROM products p WHERE p.name NOT LIKE \"%winter%\"");
        SqlQuery q = parse("SELECT VALUE p.name FROM products p WHERE p.description LIKE \"%20^%%\" ESCAPE \"^\"");
        assertEquals(new Expr.Like(new Expr.PropertyAccess(new Expr.Identifier("p"), "description"),
                new Expr.StringLiteral("%20^%%"), "^", false), q.where());
        parse("SELECT * FROM c WHERE c.description LIKE \"%SO[^abc]PS%\"");
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/from
    @Test
    void from() {
        parse("SELECT VALUE p.name FROM products p");
        SqlQuery q = parse("SELECT VALUE s FROM products.sizes s");
        assertEquals("s", q.from().source().effectiveAlias());
        parse("SELECT p.id FROM products AS p");
        parse("SELECT * FROM products");
        parse("SELECT * FROM ROOT");
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/join
    @Test
    void join() {
        SqlQuery q = parse("SELECT p.id, p.name, t.name AS tag FROM products p JOIN t IN p.tags "
                + "WHERE t.name = \"winter\"");
        assertEquals(1, q.from().joins().size());
        parse("SELECT p.name, s.description AS size, c AS color FROM products p JOIN s IN p.sizes "
                + "JOIN c IN p.colors WHERE s[\"order\"] >= 3 AND c LIKE \"%gray%\"");
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/subquery
    @Test
    void subqueries() {
        parse("SELECT VALUE COUNT(1) FROM products p JOIN t in p.tags JOIN s in p.sizes JOIN c in p.colors "
                + "WHERE t.key IN (\"fabric\", \"material\") AND s[\"order\"] >= 3 AND c LIKE \"%gray%\"");
        parse("SELECT VALUE COUNT(1) FROM products p "
                + "JOIN (SELECT VALUE t FROM t IN p.tags WHERE t.key IN (\"fabric\", \"material\")) "
                + "JOIN (SELECT VALUE s FROM s IN p.sizes WHERE s[\"order\"] >= 3) "
                + "JOIN (SELECT VALUE c FROM c in p.colors WHERE c LIKE \"%gray%\")");
        Expr e = ((Projection.Items) parse("SELECT p.name, EXISTS(SELECT VALUE t FROM t IN p.tags "
                + "WHERE t.key = \"season\") AS hasSeason FROM products p").select().projection()).items().get(1).expr();
        assertInstanceOf(Expr.Subquery.class, e);
        parse("SELECT p.id, ARRAY(SELECT VALUE t.name FROM t in p.tags) AS tagNames FROM products p");
        parse("SELECT p.id, (SELECT VALUE MAX(s[\"order\"]) FROM s IN p.sizes) AS maxOrder FROM products p");
        // "order" is reserved: s.order does not parse, as in Cosmos
        org.junit.jupiter.api.Assertions.assertThrows(SqlSyntaxException.class,
                () -> SqlParser.parse("SELECT VALUE s.order FROM s IN p.sizes"));
        parse("SELECT TOP 5 p.id, p.price FROM products p JOIN (SELECT VALUE t FROM t IN p.tags "
                + "WHERE t.name = \"sale\") ORDER BY p.price DESC");
    }

    // https://learn.microsoft.com/cosmos-db/query/offset-limit
    @Test
    void offsetLimit() {
        SqlQuery q = parse("SELECT VALUE {\n  name: e.name\n}\nFROM\n  employees e\nWHERE\n"
                + "  e.team = \"Leadership team\"\nORDER BY\n  e.name\nOFFSET 1 LIMIT 3");
        assertEquals(new OffsetLimit(new Expr.NumberLiteral(1), new Expr.NumberLiteral(3)), q.offsetLimit());
        assertEquals("SELECT VALUE {\"name\": e.name} FROM employees e WHERE e.team = 'Leadership team' "
                + "ORDER BY e.name OFFSET 1 LIMIT 3", q.toString());
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/group-by (shape of its examples)
    @Test
    void groupBy() {
        parse("SELECT COUNT(1) AS trainedEmployees FROM employees e WHERE e.capabilities.mediaTrained = true");
        SqlQuery q = parse("SELECT e.capabilities.softwareDevelopment AS developmentLang, COUNT(1) AS "
                + "employeesWithLang FROM employees e GROUP BY e.capabilities.softwareDevelopment");
        assertEquals(1, q.groupBy().size());
        parse("SELECT e.team, e.capabilities.mediaTrained AS trained, COUNT(1) AS n FROM employees e "
                + "GROUP BY e.team, e.capabilities.mediaTrained");
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/order-by
    @Test
    void orderBy() {
        parse("SELECT VALUE p.name FROM products p ORDER BY p.name");
        parse("SELECT VALUE p.name FROM products p ORDER BY p.price DESC, p.name ASC");
        parse("SELECT p.name, p.price FROM products p WHERE p.category = \"Accessories\" ORDER BY p.price DESC");
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/parameterized-queries
    @Test
    void parameterized() {
        SqlQuery q = parse("SELECT * FROM Families f WHERE f.lastName = @lastName AND f.address.state = @addressState");
        assertEquals("SELECT * FROM Families f WHERE f.lastName = @lastName AND f.address.state = @addressState",
                q.toString());
        parse("SELECT TOP @n * FROM Families");
        parse("SELECT * FROM Families f WHERE f.children[@i].grade = @grade");
        parse("SELECT * FROM c ORDER BY c._ts OFFSET @skip LIMIT @take");
    }

    // https://learn.microsoft.com/cosmos-db/query/constants
    @Test
    void constants() {
        SqlQuery q = parse("SELECT undefined AS u, null AS n, true AS t, false AS f, 1.5e3 AS d, 0x1F AS h, "
                + "'single' AS s1, \"double\" AS s2, [1, 'a', null] AS a, {\"k\": 1, \"nested\": {\"x\": [true]}} AS o");
        List<Projection.SelectItem> items = ((Projection.Items) q.select().projection()).items();
        assertEquals(new Expr.NumberLiteral(31), items.get(5).expr());
        assertEquals(new Expr.NumberLiteral(1500), items.get(4).expr());
    }

    // https://learn.microsoft.com/cosmos-db/query/overview
    @Test
    void overview() {
        parse("SELECT p.id, p.name FROM products p WHERE p.price > 20 ORDER BY p.price ASC");
        parse("SELECT p.manufacturer.name, p[\"metadata\"].sku FROM products p");
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/udfs (calling a UDF)
    @Test
    void udf() {
        SqlQuery q = parse("SELECT p.name, udf.tax(p.price) AS priceWithTax FROM products p "
                + "WHERE udf.tax(p.price) > 20");
        assertEquals(new Expr.FunctionCall("tax", true, List.of(new Expr.PropertyAccess(new Expr.Identifier("p"),
                "price"))), ((Expr.Binary) q.where()).left());
    }

    // https://learn.microsoft.com/azure/cosmos-db/nosql/query/geospatial (spatial function call, parse only)
    @Test
    void spatial() {
        parse("SELECT f.id FROM Families f WHERE ST_DISTANCE(f.location, {\"type\": \"Point\", "
                + "\"coordinates\": [31.9, -4.8]}) < 30000");
    }
}
