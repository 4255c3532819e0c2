package io.tetradb.core.store;

import io.tetradb.core.item.BinaryItemStreamWriter;
import io.tetradb.core.item.SystemNames;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mongo-encode: the TB1 stream writer notes, as it writes them, whether a name of the outermost object is a system
 * property's ({@code _rid _self _etag _attachments _ts}), and {@link EncodedItem#of} hands that note to the store in
 * place of a face's promise: an item so made is searched for system properties exactly when one was written, whether
 * the name came as a String or as UTF-8 bytes; nested ones, look-alikes and escaped names are user fields.
 */
class EncodedItemSystemNamesTest {
    private final BinaryItemStreamWriter w = new BinaryItemStreamWriter(64, 32);

    @Test
    void aTopLevelSystemNameIsNotedAsStringOrBytesAndTheStoreThenLooksForIt() {
        for (String name : SystemNames.NAMES) {
            for (boolean asBytes : new boolean[]{false, true}) {
                EncodedItem e = item(List.of("id", name, "x"), asBytes);
                assertTrue(w.wroteTopLevelSystemName(), name + (asBytes ? " as bytes" : ""));
                assertTrue(e.hasSystemProperty(), name);
                // and one written last (the note is not only of the first names)
                e = item(List.of("id", "a", "b", name), asBytes);
                assertTrue(e.hasSystemProperty(), name + " last");
            }
        }
    }

    @Test
    void nestedLookAlikeAndEscapedNamesAreUserFields() {
        for (String name : List.of("_id", "ttl", "_t", "_tsx", "_TS", "~_ts", "_ts ", "__ts", "_attachment",
                "_attachmentsx", "rid", "_selfie", "é_ts")) {
            for (boolean asBytes : new boolean[]{false, true}) {
                EncodedItem e = item(List.of("id", name), asBytes); // "id" itself is a user field
                assertFalse(w.wroteTopLevelSystemName(), name);
                assertFalse(e.hasSystemProperty(), name);
            }
        }
        // a system property's name inside a sub-object or an array's object is the user's
        w.reset();
        w.startObject();
        w.name("id");
        w.string("a");
        w.name("sub");
        w.startObject();
        w.name("_ts");
        w.int32(1);
        w.endObject();
        w.name("list");
        w.startArray();
        w.startObject();
        w.name("_etag");
        w.string("e");
        w.endObject();
        w.endArray();
        w.endObject();
        assertFalse(w.wroteTopLevelSystemName());
        assertFalse(EncodedItem.of(w).hasSystemProperty());
    }

    @Test
    void resetForgetsTheNoteAndBytesFromElsewhereAreSearched() {
        item(List.of("id", "_rid"), false);
        assertTrue(w.wroteTopLevelSystemName());
        EncodedItem clean = item(List.of("id", "n"), true);
        assertFalse(w.wroteTopLevelSystemName(), "a reused writer keeps no note of the item before");
        assertFalse(clean.hasSystemProperty());
        // bytes handed over without their writer: the store looks (found, and not found)
        EncodedItem withTs = item(List.of("id", "_ts"), false);
        assertTrue(new EncodedItem(withTs.body()).hasSystemProperty());
        assertFalse(new EncodedItem(clean.body()).hasSystemProperty());
        assertEquals(clean.tree(), new EncodedItem(clean.body()).tree());
    }

    /** An object of these names (each with a number), written by {@link #w}, names as Strings or as UTF-8 bytes. */
    private EncodedItem item(List<String> names, boolean asBytes) {
        w.reset();
        w.startObject();
        int i = 0;
        for (String n : names) {
            if (asBytes) {
                byte[] b = ("." + n + ".").getBytes(StandardCharsets.UTF_8); // a view inside a larger array
                w.name(b, 1, b.length - 2);
            } else {
                w.name(n);
            }
            w.int32(i++);
        }
        w.endObject();
        return EncodedItem.of(w);
    }
}
