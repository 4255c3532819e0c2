package io.tetradb.bench.mongo;

import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.DocumentCodec;

import java.util.Date;
import java.util.List;

/**
 * The benchmark's documents: document {@code i} is a pure function of {@code i}, so the expected answer of every
 * query is known without asking either server. Exactly 1024 bytes of BSON each: every variable part has a fixed
 * width (numbers padded, statuses of one length; {@code DocsTest}).
 *
 * <ul>
 *   <li>{@code _id}: {@code i} (Int32)</li>
 *   <li>{@code owner}: {@code i % owners} — the indexed secondary field; every owner has {@link #PER_OWNER} documents</li>
 *   <li>{@code status}: one of {@link #STATUSES} ({@code i % 5}); {@code amount}: {@code i % 1000} (Int32, so sums
 *   are exact on both sides)</li>
 *   <li>{@code counter}: 0, the target of {@code $inc}</li>
 *   <li>a name, an e-mail, a nested address, a date, an array of tags and a text filler up to 1 KB</li>
 * </ul>
 */
final class Docs {
    static final int PER_OWNER = 10;
    static final List<String> STATUSES = List.of("active", "closed", "frozen", "queued", "review");
    private static final int TARGET_BYTES = 1024;
    private static final String FILLER = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod "
            .repeat(20);

    private final int count;
    private final int owners;
    private final int notesLength;

    Docs(int count) {
        if (count % PER_OWNER != 0) {
            throw new IllegalArgumentException("count must be a multiple of " + PER_OWNER);
        }
        this.count = count;
        this.owners = count / PER_OWNER;
        Document probe = build(0, 0);
        this.notesLength = TARGET_BYTES - bsonSize(probe);
        if (notesLength <= 0 || notesLength > FILLER.length()) {
            throw new IllegalStateException("document without notes is " + bsonSize(probe) + " bytes");
        }
    }

    int count() {
        return count;
    }

    int owners() {
        return owners;
    }

    Document doc(int i) {
        return build(i, notesLength);
    }

    static int owner(int i, int owners) {
        return i % owners;
    }

    int owner(int i) {
        return owner(i, owners);
    }

    static String status(int i) {
        return STATUSES.get(i % STATUSES.size());
    }

    static int amount(int i) {
        return i % 1000;
    }

    private Document build(int i, int notes) {
        // fixed-width numbers keep every document the same size
        String n = String.format("%07d", i);
        return new Document("_id", i)
                .append("owner", owner(i, owners))
                .append("status", status(i))
                .append("amount", amount(i))
                .append("counter", 0)
                .append("name", "customer " + n)
                .append("email", "c" + n + "@example.com")
                .append("address", new Document("street", n + " Main Street").append("city", "Springfield")
                        .append("zip", String.format("%05d", i % 100_000)))
                .append("createdAt", new Date(1_767_225_600_000L + i * 1000L))
                .append("tags", List.of(tag(i % 7), tag(i % 11), tag(i % 13)))
                .append("notes", FILLER.substring(i % 50, i % 50 + notes));
    }

    private static String tag(int n) {
        return String.format("t%02d", n);
    }

    static int bsonSize(Document d) {
        return new RawBsonDocument(d, new DocumentCodec()).getByteBuffer().remaining();
    }
}
