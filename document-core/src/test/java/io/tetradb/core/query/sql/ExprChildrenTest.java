package io.tetradb.core.query.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Expr#children}: the direct sub-expressions of each node kind in its own scope, in source order. */
class ExprChildrenTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "c.a + 1                              | c.a; 1",
        "NOT c.a                              | c.a",
        "c.a ? c.b : c.c                      | c.a; c.b; c.c",
        "c.a IN (1, 2, c.b)                   | c.a; 1; 2; c.b",
        "c.a BETWEEN c.b AND 3                | c.a; c.b; 3",
        "c.a LIKE 'x%'                        | c.a; 'x%'",
        "{'p': c.a, 'q': 2}                   | c.a; 2",
        "[c.a, 2]                             | c.a; 2",
        "c.a.b                                | c.a",
        "c.a[c.i]                             | c.a; c.i",
        "LOWER(c.a)                           | c.a",
        "COUNT(c.a)                           | c.a",
        "c                                    | ''",
        "@p                                   | ''",
        "'s'                                  | ''",
        "ARRAY(SELECT VALUE t FROM t IN c.a)  | ''",
    })
    void childrenOfEachKind(String expr, String expected) {
        Expr e = SqlParserTest.expr(expr);
        String children = Expr.children(e).stream().map(Expr::toString).collect(Collectors.joining("; "));
        assertEquals(expected.equals("''") ? "" : expected, children, expr);
    }
}
