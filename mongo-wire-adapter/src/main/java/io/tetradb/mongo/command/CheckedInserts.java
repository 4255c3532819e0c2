package io.tetradb.mongo.command;

import io.tetradb.core.store.EncodedItem;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.mongo.bson.UncheckedRawDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * bounds-fold (issue 17): an insert's documents, every one's bounds checked before the first of them is written, so
 * a broken one fails the whole message with InvalidBSON or Overflow and nothing of it is stored, as when the event
 * loop checked them. A document still in its wire bytes is checked by its transcode to the core's item, one walk
 * instead of a check and a transcode, and the item is kept for its write; past {@link #MAPPED_AHEAD_BYTES} of items
 * a document is checked by {@code BsonBounds} alone and transcoded when its batch is written, so a 48 MB message
 * does not hold all its items at once.
 */
final class CheckedInserts {
    /** Items kept ahead of their writes: a bulk load's 1,000-document messages are well within it. */
    static final int MAPPED_AHEAD_BYTES = 8 << 20;

    private final List<BsonValue> documents;
    private final ItemOperation[] mapped;
    /** Per document, its core id when its item reads back as exactly its bytes (insert-replies), else null. */
    private final String[] readsBackAsIs;

    private CheckedInserts(List<BsonValue> documents, ItemOperation[] mapped, String[] readsBackAsIs) {
        this.documents = documents;
        this.mapped = mapped;
        this.readsBackAsIs = readsBackAsIs;
    }

    /** Checks every document of {@code docs}; MongoError InvalidBSON or Overflow for the first broken one. */
    static CheckedInserts of(List<BsonValue> docs, ItemCodec codec) {
        List<BsonValue> checked = new ArrayList<>(docs.size());
        ItemOperation[] mapped = new ItemOperation[docs.size()];
        String[] asIs = new String[docs.size()];
        long ahead = 0;
        for (int i = 0; i < docs.size(); i++) {
            BsonValue v = docs.get(i);
            if (v instanceof UncheckedRawDocument raw) {
                // a document without _id first gets one added as a tree (WriteCommands.withId): its item is later's
                if (ahead < MAPPED_AHEAD_BYTES && raw.firstNameIsId()) {
                    EncodedItem item = raw.encodedOrNull(codec);
                    if (item != null) {
                        mapped[i] = ItemOperation.create(item);
                        asIs[i] = raw.readsBackAsIs();
                        ahead += item.bodyLength();
                    }
                }
                v = raw.checked(); // no second walk after the transcode, nor after a decline (checked there)
            }
            checked.add(v);
        }
        return new CheckedInserts(checked, mapped, asIs);
    }

    /** The documents, each one checked (an unchecked one replaced by its checked bytes). */
    List<BsonValue> documents() {
        return documents;
    }

    /** The create of document {@code i}, already transcoded, or null (mapped when it is written). */
    ItemOperation mapped(int i) {
        return mapped[i];
    }

    /**
     * The core id of document {@code i} when it was transcoded ({@link #mapped}) and its item reads back as exactly
     * its bytes, else null: the insert keeps those bytes as its point-find reply (insert-replies).
     */
    String readsBackAsIs(int i) {
        return readsBackAsIs[i];
    }
}
