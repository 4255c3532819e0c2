package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.value.IndexKeyEncoding;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The addresses of the items holding a value at a single path, read from the index entries' keys alone
 * ({@code collId · pathId · enc(value) · EPK · pk · id}): no item is read. A graph finds the vertices of a label
 * this way and reads them through its own exact cache instead of having a query parse every item.
 */
final class TermAddresses {
    private final ContainerStore container;

    TermAddresses(ContainerStore container) {
        this.container = container;
    }

    /**
     * In index order (by EPK, partition key, id). A superset: strings match on their indexed form (cut to
     * {@value IndexTerms#MAX_STRING_CHARS} characters), expired items not yet purged are listed, and a value under
     * an array path lists its item once per occurrence; callers check the items they read. Null when the settled
     * policy does not index {@code path} (or a rebuild runs): the entries would be incomplete.
     */
    List<ItemAddress> of(List<String> path, JsonNode value) {
        IndexingState state = container.indexingState();
        if (state.rebuilding() || !state.current().indexes(path)) {
            return null;
        }
        StringBuilder flat = new StringBuilder();
        for (String segment : path) {
            flat.append('/').append(IndexTerms.escape(segment));
        }
        Integer pathId = container.paths().find(flat.toString());
        List<ItemAddress> out = new ArrayList<>();
        if (pathId == null) {
            return out; // never written: no item holds it
        }
        byte[] prefix = Keys.concat(container.collIdBytes(), Keys.collId(pathId),
                IndexKeyEncoding.encode(IndexTerms.bounded(value)));
        int levels = container.definition().partitionKey().levels();
        try (KeyCursor cursor = container.reads().entries(prefix, Keys.prefixEnd(prefix), false)) {
            while (cursor.next()) {
                byte[] key = cursor.key();
                int pkAt = prefix.length + 16 * levels;
                int idAt = pkAt + PartitionKeyValue.encodedLength(key, pkAt, levels);
                out.add(new ItemAddress(PartitionKeyValue.decode(key, pkAt, idAt),
                        new String(key, idAt, key.length - idAt, StandardCharsets.UTF_8)));
            }
        }
        return out;
    }
}
