package io.tetradb.table.http;

import io.tetradb.table.model.TableException;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A Tables URL taken apart: {@code /account/Tables}, {@code /account/Tables('t')}, {@code /account/t()},
 * {@code /account/t(PartitionKey='p',RowKey='r')} (quotes doubled inside keys), {@code /account/$batch} — path-style,
 * the account in the path — or the same without the account segment when the Host names the account
 * ({@code devstoreaccount1.table.localhost:10002}: host-style, {@code hostStyle}). One trailing slash on the resource
 * ({@code /Tables/}, {@code /t()/}) is ignored, as Azure does.
 */
record ResourcePath(String account, Kind kind, String table, String partitionKey, String rowKey, boolean hostStyle) {

    enum Kind { SERVICE, TABLES, TABLE, ENTITIES, ENTITY, BATCH }

    ResourcePath(String account, Kind kind, String table, String partitionKey, String rowKey) {
        this(account, kind, table, partitionKey, rowKey, false);
    }

    /**
     * The account the {@code Host} header names (its first label, when that is an account served here and the host
     * has more labels: {@code devstoreaccount1.table.localhost}), or null (path-style).
     */
    static String hostAccount(String host, java.util.function.Predicate<String> known) {
        if (host == null) {
            return null;
        }
        int dot = host.indexOf('.');
        if (dot <= 0) {
            return null;
        }
        String label = host.substring(0, dot).toLowerCase(java.util.Locale.ROOT); // host names ignore case
        return known.test(label) ? label : null;
    }

    /**
     * Parses a path; {@code hostAccount} (null: none) is the account the Host names. A path that starts with that
     * account's own segment is still read path-style ({@code http://devstoreaccount1.table.localhost/devstoreaccount1/Tables}).
     */
    static ResourcePath parse(String rawPath, String hostAccount) {
        if (hostAccount != null && !rawPath.equals("/" + hostAccount) && !rawPath.startsWith("/" + hostAccount + "/")) {
            ResourcePath p = parse("/" + hostAccount + (rawPath.startsWith("/") ? rawPath : "/" + rawPath));
            return new ResourcePath(p.account, p.kind, p.table, p.partitionKey, p.rowKey, true);
        }
        return parse(rawPath);
    }

    static ResourcePath parse(String rawPath) {
        String path;
        try {
            // a '+' in a path is a plus, not a space
            path = URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw TableException.invalidInput("the request URL is not validly percent-encoded");
        }
        if (!path.startsWith("/")) {
            throw TableException.invalidInput("the request URL has no path");
        }
        int slash = path.indexOf('/', 1);
        String account = slash < 0 ? path.substring(1) : path.substring(1, slash);
        String rest = slash < 0 ? "" : path.substring(slash + 1);
        if (account.isEmpty()) {
            throw TableException.invalidInput("path-style URLs start with the account: /devstoreaccount1/...");
        }
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        if (rest.isEmpty()) {
            return new ResourcePath(account, Kind.SERVICE, null, null, null);
        }
        if (rest.equals("$batch")) {
            return new ResourcePath(account, Kind.BATCH, null, null, null);
        }
        if (rest.equals("Tables") || rest.equals("Tables()")) {
            return new ResourcePath(account, Kind.TABLES, null, null, null);
        }
        if (rest.startsWith("Tables('") && rest.endsWith("')")) {
            String name = rest.substring("Tables('".length(), rest.length() - 2).replace("''", "'");
            return new ResourcePath(account, Kind.TABLE, name, null, null);
        }
        int paren = rest.indexOf('(');
        if (paren < 0) {
            return new ResourcePath(account, Kind.ENTITIES, rest, null, null);
        }
        if (!rest.endsWith(")")) {
            throw TableException.invalidInput("the resource '" + rest + "' is not a table or an entity");
        }
        String table = rest.substring(0, paren);
        String keys = rest.substring(paren + 1, rest.length() - 1);
        if (keys.isEmpty()) {
            return new ResourcePath(account, Kind.ENTITIES, table, null, null);
        }
        KeyReader r = new KeyReader(keys);
        String pk = r.key("PartitionKey");
        r.expect(',');
        String rk = r.key("RowKey");
        if (!r.atEnd()) {
            throw TableException.invalidInput("the entity address '" + keys + "' is malformed");
        }
        return new ResourcePath(account, Kind.ENTITY, table, pk, rk);
    }

    /** Reads {@code Name='value'} pairs. */
    private static final class KeyReader {
        private final String s;
        private int pos;

        KeyReader(String s) {
            this.s = s;
        }

        String key(String name) {
            if (!s.startsWith(name + "='", pos)) {
                throw TableException.invalidInput("the entity address needs " + name + "='...'");
            }
            pos += name.length() + 2;
            StringBuilder b = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw TableException.invalidInput("unterminated " + name + " in the entity address");
                }
                char c = s.charAt(pos++);
                if (c == '\'') {
                    if (pos < s.length() && s.charAt(pos) == '\'') {
                        b.append('\'');
                        pos++;
                    } else {
                        return b.toString();
                    }
                } else {
                    b.append(c);
                }
            }
        }

        void expect(char c) {
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw TableException.invalidInput("the entity address is malformed");
            }
            pos++;
        }

        boolean atEnd() {
            return pos == s.length();
        }
    }
}
