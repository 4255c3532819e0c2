package io.tetradb.bench.mongo;

import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DocsTest {
    @Test
    void everyDocumentIsOneKilobyteOfBson() {
        Docs docs = new Docs(20_000);
        for (int i : new int[]{0, 1, 9_999, 19_999, 12_345}) {
            assertEquals(1024, Docs.bsonSize(docs.doc(i)), "document " + i);
        }
    }

    @Test
    void everyOwnerHasTenDocuments() {
        Docs docs = new Docs(1_000);
        Map<Object, Integer> perOwner = new HashMap<>();
        for (int i = 0; i < docs.count(); i++) {
            Document d = docs.doc(i);
            assertEquals(docs.owner(i), d.get("owner"));
            perOwner.merge(d.get("owner"), 1, Integer::sum);
        }
        assertEquals(docs.owners(), perOwner.size());
        perOwner.values().forEach(n -> assertEquals(Docs.PER_OWNER, n));
    }
}
