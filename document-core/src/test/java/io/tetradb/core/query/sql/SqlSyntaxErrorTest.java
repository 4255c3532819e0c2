package io.tetradb.core.query.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed queries: status 400, the right position and token, and a useful expectation. */
class SqlSyntaxErrorTest {

    static SqlSyntaxException fail(String q) {
        return assertThrows(SqlSyntaxException.class, () -> SqlParser.parse(q));
    }

    @Test
    void messageFormat() {
        SqlSyntaxException e = fail("SELECT c.name, c.date FORM c");
        assertEquals(400, e.status());
        assertEquals("Syntax error at line 1, column 23 (offset 22) near 'FORM': expected FROM, WHERE, GROUP BY, "
                + "ORDER BY, OFFSET or end of input", e.getMessage());
        assertEquals(1, e.line());
        assertEquals(23, e.column());
        assertEquals(22, e.offset());
        assertEquals("'FORM'", e.token());
    }

    @Test
    void multiLinePosition() {
        SqlSyntaxException e = fail("SELECT *\nFROM c\nWHERE c.a = = 1");
        assertEquals(3, e.line());
        assertEquals(13, e.column());
        assertEquals(28, e.offset());
        assertEquals("'='", e.token());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // query | offset | token | part of the message
        "SELECT * FROM c WHERE|21|<end of input>|expected an expression",
        "SELECT * FROM c WHERE c.a =|27|<end of input>|expected an expression",
        "SELECT c.value FROM c|9|'value'|reserved keyword",
        "SELECT * FROM c WHERE c.a = 'abc|28|''abc'|unterminated string literal",
        "SELECT * FROM c WHERE c.a IN ()|30|')'|at least one value",
        "SELECT * FROM c ORDER c.a|22|'c'|expected BY after ORDER",
        "SELECT * FROM c OFFSET 1|24|<end of input>|expected LIMIT",
        "SELECT * FROM c LIMIT 10|16|'LIMIT'|needs OFFSET",
        "SELECT TOP -1 * FROM c|11|'-'|non-negative integer",
        "SELECT TOP 1.5 * FROM c|11|'1.5'|non-negative integer",
        "SELECT *, c.id FROM c|8|','|expected FROM",
        "SELECT VALUE * FROM c|13|'*'|SELECT VALUE * is not valid",
        "SELECT * FROM c WHERE c.a # 1|26|'#'|unexpected character",
        "SELECT * FROM c WHERE (c.a = 1|30|<end of input>|expected ')'",
        "SELECT * FROM c WHERE c.a BETWEEN 1 2|36|'2'|expected AND",
        "SELECT * FROM c WHERE c.s LIKE 'x' ESCAPE 1|42|'1'|string literal after ESCAPE",
        "SELECT * FROM c WHERE c.s = 'a\\q'|30|'\\q'|invalid escape",
        "SELECT * FROM c WHERE c.a ? 1|29|<end of input>|expected ':'",
        "SELECT * FROM c JOIN c.tags[@i]|28|'@i'|array index in a FROM path",
        "FROM c SELECT *|0|'FROM'|expected SELECT",
        "SELECT * FROM c WHERE 12abc = 1|22|'12abc'|malformed number",
        "SELECT @ FROM c|7|'@'|parameter name",
        "SELECT * FROM c WHERE c.a NOT 1|30|'1'|expected IN, LIKE or BETWEEN after NOT",
        "SELECT * FROM c WHERE udf.f|27|<end of input>|expected '(' after udf.f",
        "SELECT * FROM c WHERE EXISTS(c.a)|29|'c'|expected a subquery",
        "SELECT * FROM x IN|18|<end of input>|expected a container name",
        "SELECT {a 1} FROM c|10|'1'|expected ':'",
        "SELECT [1, 2 FROM c|13|'FROM'|expected ',' or ']'",
        "SELECT f(1, FROM c|12|'FROM'|reserved keyword",
        "SELECT * FROM c WHERE c.a = 1 WHERE c.b = 2|30|'WHERE'|expected GROUP BY, ORDER BY, OFFSET or end of input",
        "SELECT * FROM c ORDER BY c.a OFFSET 1 LIMIT 2 3|46|'3'|expected end of input",
        "SELECT|6|<end of input>|expected *, VALUE or a select list",
        "SELECT VALUE 1e999|13|'1e999'|number out of range",
    })
    void malformed(String query, int offset, String token, String detail) {
        SqlSyntaxException e = fail(query);
        assertEquals(offset, e.offset(), e.getMessage());
        assertEquals(offset + 1, e.column(), e.getMessage());
        assertEquals(1, e.line());
        assertEquals(token, e.token(), e.getMessage());
        assertTrue(e.getMessage().contains(detail), e.getMessage());
        assertTrue(e.getMessage().startsWith("Syntax error at line 1, column " + (offset + 1) + " (offset " + offset
                + ") near " + token + ": "), e.getMessage());
    }

    @Test
    void deepNestingIsASyntaxErrorNotAStackOverflow() {
        SqlSyntaxException e = fail("SELECT VALUE " + "(".repeat(50_000) + "1" + ")".repeat(50_000));
        assertTrue(e.getMessage().contains("nested too deeply"), e.getMessage());
        fail("SELECT VALUE " + "-".repeat(1).concat(" -").repeat(5_000) + "1");
        fail("SELECT VALUE " + "NOT ".repeat(5_000) + "true");
        fail("SELECT VALUE " + "[".repeat(5_000));
        fail("SELECT VALUE " + "{a:".repeat(5_000));
        fail("SELECT VALUE " + "EXISTS(SELECT VALUE ".repeat(5_000));
        fail("SELECT VALUE " + "c ? ".repeat(5_000));
        // long operator chains and postfix chains are iterative in the parser but deep in the tree
        e = fail("SELECT * FROM c WHERE " + "c.a = 1 OR ".repeat(20_000) + "true");
        assertTrue(e.getMessage().contains("nested too deeply"), e.getMessage());
        fail("SELECT VALUE 1" + " + 1".repeat(50_000));
        fail("SELECT VALUE c" + ".a".repeat(50_000));
        assertTrue(fail("SELECT VALUE c" + ".a".repeat(300)).getMessage().contains("property path is too long"));
        SqlParser.parse("SELECT VALUE c" + ".a".repeat(200));
        fail("SELECT VALUE c" + "[0]".repeat(50_000));
        fail("SELECT VALUE (SELECT VALUE 1" + " * 2".repeat(1999) + ")");
        // a long but legal chain parses and survives unparse/equals/hashCode
        SqlQuery big = SqlParser.parse("SELECT * FROM c WHERE " + "c.a = 1 OR ".repeat(1900) + "true");
        assertEquals(big, SqlParser.parse(big.toString()));
        assertEquals(big.hashCode(), SqlParser.parse(big.toString()).hashCode());
        SqlParser.parse("SELECT VALUE [" + "1, ".repeat(20_000) + "1]");
        SqlParser.parse("SELECT * FROM c WHERE c.id IN (" + "'x', ".repeat(20_000) + "'y')");
        // moderate nesting is fine
        SqlParser.parse("SELECT VALUE " + "(".repeat(50) + "1" + ")".repeat(50));
    }

    @Test
    void positionCountsCommentsAndCrLf() {
        SqlSyntaxException e = fail("-- find it\r\nSELECT *\r\n  FROM c -- all\r\n  WHERE c.a >\r\n");
        assertEquals(5, e.line(), e.getMessage());
        assertEquals(1, e.column());
        assertEquals("<end of input>", e.token());
        e = fail("SELECT *\r\nFROM c\r\nWHERE c.a ! 1");
        assertEquals(3, e.line());
        assertEquals(11, e.column());
        assertEquals("'!'", e.token());
    }

    @Test
    void nullTextIsASyntaxError() {
        assertEquals(400, fail(null).status());
    }
}
