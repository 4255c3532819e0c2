package io.tetradb.mongo.bson;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;

import java.nio.ByteBuffer;

/**
 * Walks a BSON document's bytes and checks that every declared length (documents, strings, binaries, code with
 * scope) fits inside what contains it, that every element type is known, and that nesting stays within MongoDB's
 * {@code maxBSONDepth}, before org.mongodb:bson decodes it. Why: the bson decoder allocates a binary's declared length
 * before it reads the bytes, so a 40-byte message declaring a 2 GB binary made the heap grow by 2 GB; and its codec
 * recurses once per level, so 10,000 levels would overflow the stack. Allocates nothing and does not recurse.
 * bounds-fold (issue 17): an insert's documents are not walked here on the event loop any more; they are checked by
 * their transcode ({@link UncheckedRawDocument}), which calls this walk only for a document it declines or refuses.
 */
public final class BsonBounds {
    /** MongoDB's default {@code maxBSONDepth}: deeper documents are refused in any command. */
    public static final int MAX_DEPTH = 200;

    private BsonBounds() {
    }

    /**
     * Checks the document at {@code start} (absolute position in {@code buf}), which must end at or before
     * {@code end}. Throws a {@link MongoError} carrying InvalidBSON or Overflow (the request decoder answers it as a
     * message it cannot parse).
     */
    public static void check(ByteBuffer buf, int start, int end) {
        check(buf, start, end, 0);
    }

    /** {@code outer}: levels already open around this document (a code-with-scope's scope counts as one). */
    private static void check(ByteBuffer buf, int start, int end, int outer) {
        if (outer + 1 > MAX_DEPTH) {
            throw tooDeep();
        }
        // ends of the documents we are inside, innermost last; depth bounded by MAX_DEPTH. Grown on demand: most
        // documents nest a few levels, and a full-depth array (800 B) per document was a per-request allocation
        int[] ends = new int[8];
        int depth = 0;
        int p = openDocument(buf, start, end);
        ends[depth] = start + buf.getInt(start);
        while (true) {
            int docEnd = ends[depth];
            int type = buf.get(p) & 0xff;
            if (type == 0) {
                if (p != docEnd - 1) {
                    throw invalid("document ends before its declared size");
                }
                p = docEnd;
                if (depth == 0) {
                    return;
                }
                depth--;
                continue;
            }
            p = skipCString(buf, p + 1, docEnd - 1);
            switch (type) {
                case 0x01, 0x09, 0x11, 0x12 -> p = fixed(p, 8, docEnd);
                case 0x07 -> p = fixed(p, 12, docEnd);
                case 0x08 -> p = fixed(p, 1, docEnd);
                case 0x10 -> p = fixed(p, 4, docEnd);
                case 0x13 -> p = fixed(p, 16, docEnd);
                case 0x06, 0x0A, 0x7F, 0xFF -> { }
                case 0x02, 0x0D, 0x0E -> p = string(buf, p, docEnd - 1);
                case 0x0B -> p = skipCString(buf, skipCString(buf, p, docEnd - 1), docEnd - 1);
                case 0x0C -> p = fixed(string(buf, p, docEnd - 1), 12, docEnd);
                case 0x05 -> {
                    int size = int32(buf, p, docEnd - 1);
                    if (size < 0 || (long) p + 5 + size > docEnd - 1) {
                        throw invalid("binary length " + size + " runs past its document");
                    }
                    p += 5 + size;
                }
                case 0x03, 0x04 -> {
                    if (outer + depth + 2 > MAX_DEPTH) {
                        throw tooDeep();
                    }
                    int inner = openDocument(buf, p, docEnd - 1);
                    if (++depth == ends.length) {
                        ends = java.util.Arrays.copyOf(ends, Math.min(ends.length * 2, MAX_DEPTH + 1));
                    }
                    ends[depth] = p + buf.getInt(p);
                    p = inner;
                }
                case 0x0F -> {
                    // code with scope: total size, then the code string, then the scope document
                    int total = int32(buf, p, docEnd - 1);
                    if (total < 14 || (long) p + total > docEnd - 1) {
                        throw invalid("code with scope length " + total + " runs past its document");
                    }
                    int scope = string(buf, p + 4, p + total);
                    check(buf, scope, p + total, outer + depth + 1);
                    if (scope + buf.getInt(scope) != p + total) {
                        throw invalid("code with scope length does not match its parts");
                    }
                    p += total;
                }
                default -> throw invalid("unknown BSON type " + type);
            }
        }
    }

    /** Checks the size of the document at {@code p} against {@code limit}; returns where its first element starts. */
    private static int openDocument(ByteBuffer buf, int p, int limit) {
        int size = int32(buf, p, limit);
        if (size < 5 || (long) p + size > limit) {
            throw invalid("document size " + size + " runs past what contains it");
        }
        if (buf.get(p + size - 1) != 0) {
            throw invalid("document does not end with a zero byte");
        }
        return p + 4;
    }

    private static int string(ByteBuffer buf, int p, int limit) {
        int size = int32(buf, p, limit);
        if (size < 1 || (long) p + 4 + size > limit) {
            throw invalid("string length " + size + " runs past its document");
        }
        if (buf.get(p + 4 + size - 1) != 0) {
            throw invalid("string is not zero-terminated");
        }
        return p + 4 + size;
    }

    private static int int32(ByteBuffer buf, int p, int limit) {
        if ((long) p + 4 > limit) {
            throw invalid("length runs past its document");
        }
        return buf.getInt(p);
    }

    private static int fixed(int p, int bytes, int docEnd) {
        if ((long) p + bytes > docEnd - 1) {
            throw invalid("value runs past its document");
        }
        return p + bytes;
    }

    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * Past the zero byte ending the string at {@code p}, which must come before {@code limit}. Eight bytes at a time
     * (a zero byte sets its high bit in {@code (w - ONES) & ~w}; the lowest such byte is the first zero, and
     * {@code buf} is little-endian), then byte by byte for the tail.
     */
    private static int skipCString(ByteBuffer buf, int p, int limit) {
        int i = p;
        if (buf.order() == java.nio.ByteOrder.LITTLE_ENDIAN) {
            for (; i + 8 <= limit; i += 8) {
                long w = buf.getLong(i);
                long zeros = (w - ONES) & ~w & HIGHS;
                if (zeros != 0) {
                    return i + (Long.numberOfTrailingZeros(zeros) >>> 3) + 1;
                }
            }
        }
        for (; i < limit; i++) {
            if (buf.get(i) == 0) {
                return i + 1;
            }
        }
        throw invalid("unterminated field name or string");
    }

    private static MongoError tooDeep() {
        return new MongoError(ErrorCode.OVERFLOW, "BSONObj exceeded maximum nested object depth: " + MAX_DEPTH);
    }

    private static MongoError invalid(String why) {
        return new MongoError(ErrorCode.INVALID_BSON, "invalid BSON: " + why);
    }
}
