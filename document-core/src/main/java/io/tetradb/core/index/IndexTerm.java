package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One index entry of an item: a scalar value at a path. Paths are flattened the way MongoDB's multikey indexes
 * flatten them: an array's elements are indexed under the array's own path ({@code /links/target} for every
 * {@code links[i].target}), so that Cosmos {@code ARRAY_CONTAINS}/{@code JOIN} predicates and Mongo's
 * {@code "links.target"} seek the same entries; positional predicates ({@code c.tags[0]}) filter the candidates.
 * Property names are escaped as in JSON pointers ({@code ~0} for ~, {@code ~1} for /). {@code underArray}: the value
 * was reached through an array, so its path is multikey (one item may hold several values under it).
 */
public record IndexTerm(String path, JsonNode value, boolean underArray) {
    /** A term that is not an array element (at any level of its path). */
    public IndexTerm(String path, JsonNode value) {
        this(path, value, false);
    }
}
