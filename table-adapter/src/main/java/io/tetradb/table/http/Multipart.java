package io.tetradb.table.http;

import io.tetradb.table.model.TableException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The MIME multipart framing of {@code $batch} bodies (RFC 2046 §5.1): parts between {@code --boundary} lines, each
 * with its own header block. Bytes are handled as ISO-8859-1 text, which maps every byte to one char and back, so
 * part contents come out byte for byte.
 */
final class Multipart {
    /** One part: its headers (names lower-cased) and its content. */
    record Part(Map<String, String> headers, byte[] content) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private Multipart() {
    }

    /** The {@code boundary} parameter of a multipart Content-Type, or a 400. */
    static String boundary(String contentType) {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/mixed")) {
            throw TableException.invalidInput("a batch needs Content-Type multipart/mixed, got " + contentType);
        }
        for (String param : contentType.split(";")) {
            String p = param.trim();
            if (p.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
                String b = p.substring("boundary=".length()).trim();
                if (b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")) {
                    b = b.substring(1, b.length() - 1);
                }
                if (!b.isEmpty()) {
                    return b;
                }
            }
        }
        throw TableException.invalidInput("the multipart Content-Type has no boundary");
    }

    static List<Part> parts(byte[] body, String boundary) {
        String text = new String(body, StandardCharsets.ISO_8859_1);
        String delimiter = "--" + boundary;
        int start = text.indexOf(delimiter);
        if (start < 0) {
            throw TableException.invalidInput("the multipart body has no part delimited by " + delimiter);
        }
        List<Part> parts = new ArrayList<>();
        int pos = start + delimiter.length();
        while (true) {
            if (text.startsWith("--", pos)) {
                return parts; // the close delimiter
            }
            int lineEnd = text.indexOf('\n', pos);
            if (lineEnd < 0) {
                throw TableException.invalidInput("the multipart body ends without its close delimiter");
            }
            int next = text.indexOf("\n" + delimiter, lineEnd);
            if (next < 0) {
                throw TableException.invalidInput("the multipart body ends without its close delimiter");
            }
            int contentEnd = next > 0 && text.charAt(next - 1) == '\r' ? next - 1 : next;
            parts.add(part(text.substring(lineEnd + 1, Math.max(lineEnd + 1, contentEnd))));
            pos = next + 1 + delimiter.length();
        }
    }

    private static Part part(String s) {
        Map<String, String> headers = new LinkedHashMap<>();
        int pos = 0;
        while (true) {
            int eol = s.indexOf('\n', pos);
            String line = (eol < 0 ? s.substring(pos) : s.substring(pos, eol));
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            if (line.isEmpty()) {
                pos = eol < 0 ? s.length() : eol + 1;
                break;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw TableException.invalidInput("a multipart part has a malformed header line: " + line);
            }
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            if (eol < 0) {
                pos = s.length();
                break;
            }
            pos = eol + 1;
        }
        return new Part(headers, s.substring(pos).getBytes(StandardCharsets.ISO_8859_1));
    }
}
