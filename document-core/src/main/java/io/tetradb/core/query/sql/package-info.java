/**
 * Cosmos DB NoSQL query language ("Cosmos SQL"): a hand-written lexer ({@code SqlLexer}), a recursive-descent
 * {@link io.tetradb.core.query.sql.SqlParser} and an immutable AST ({@link io.tetradb.core.query.sql.SqlQuery} and the
 * records it holds, expressions in {@link io.tetradb.core.query.sql.Expr}) with an unparser
 * ({@link io.tetradb.core.query.sql.SqlUnparser}, also every node's {@code toString()}).
 *
 * <p>Grammar decisions where the Cosmos docs are silent follow the Cosmos .NET SDK's ANTLR grammar ({@code sql.g4}):
 * <ul>
 * <li>Binary precedence, tightest first: {@code * / %}, {@code + -}, shifts {@code << >> >>>} (not in the SDK grammar;
 * placed as in JavaScript), {@code < <= > >=}, {@code = != <>}, {@code &}, {@code ^}, {@code |}, {@code ||}. So
 * {@code ||} is the loosest binary operator and bitwise operators bind looser than comparisons, as in C and JavaScript.
 * Then {@code [NOT] IN/LIKE/BETWEEN} (their operands are binary expressions), prefix {@code NOT}, {@code AND},
 * {@code OR}, {@code ??}, {@code ? :}. {@code NOT}, {@code -}, {@code +}, {@code ~} are also accepted as unary
 * operators in operand position ({@code c.a = NOT c.b}).</li>
 * <li>Reserved words (case-insensitive): AND ARRAY AS ASC BETWEEN BY DESC DISTINCT ESCAPE EXISTS FALSE FROM GROUP IN
 * JOIN LEFT LIKE LIMIT NOT NULL OFFSET OR ORDER RANK RIGHT SELECT TOP TRUE UDF UNDEFINED VALUE WHERE. A property with
 * such a name is written {@code c["value"]}. {@code ROOT}, {@code ALL}, {@code FIRST}, {@code LAST} are plain
 * identifiers. {@code LEFT(...)} and {@code RIGHT(...)} are function calls.</li>
 * <li>A select-list alias needs {@code AS}; a FROM/JOIN alias may omit it. Without an alias, a FROM source's alias is
 * inferred as the container name or the last property name of its path ({@link
 * io.tetradb.core.query.sql.FromSource#effectiveAlias()}).</li>
 * <li>FROM paths allow {@code .name}, {@code ["name"]} and {@code [n]} only (no parameters), as in the SDK grammar.</li>
 * <li>Numbers: decimal, scientific, {@code 0x} hexadecimal; always unsigned in the lexer (a sign is a unary operator).
 * Strings: single or double quotes, escapes {@code \' \" \\ \/ \b \f \n \r \t \}{@code uXXXX}; raw control characters
 * must be escaped.</li>
 * <li>{@code TOP}, {@code OFFSET}, {@code LIMIT} take a non-negative integer literal or a parameter.</li>
 * <li>{@code ORDER BY RANK} (full-text/vector scoring) is rejected with a syntax error.</li>
 * <li>Limits (TetraDB's, as syntax errors): parser recursion 200 levels (about 100 nested parentheses or
 * subqueries), expression tree depth 2000 (a left-associative chain counts its length), 256 {@code .name}/{@code [i]}
 * steps after one operand, number literals must be finite doubles. A text over 512 KB (UTF-8) is a 413.</li>
 * </ul>
 * Semantic checks (unknown functions, unbound aliases, aggregates in the wrong place) belong to the binder, not here.
 */
package io.tetradb.core.query.sql;
