package io.tetradb.core.query.sql;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

/**
 * A Cosmos SQL query text that does not parse: status 400, with the 1-based line and column, the 0-based character
 * offset and the offending token in the message (and as accessors).
 */
public final class SqlSyntaxException extends StoreException {
    private final int line;
    private final int column;
    private final int offset;
    private final String token;

    public SqlSyntaxException(int line, int column, int offset, String token, String detail) {
        super(Status.BAD_REQUEST, "Syntax error at line " + line + ", column " + column + " (offset " + offset + ") near "
                + token + ": " + detail);
        this.line = line;
        this.column = column;
        this.offset = offset;
        this.token = token;
    }

    /** 1-based line of the offending token. */
    public int line() {
        return line;
    }

    /** 1-based column (in UTF-16 chars) of the offending token. */
    public int column() {
        return column;
    }

    /** 0-based character offset of the offending token in the query text. */
    public int offset() {
        return offset;
    }

    /** The offending token as shown in the message: quoted text, or {@code <end of input>}. */
    public String token() {
        return token;
    }

    static SqlSyntaxException at(String text, int offset, String token, String detail) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new SqlSyntaxException(line, col, offset, token, detail);
    }
}
