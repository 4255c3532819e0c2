package io.tetradb.bench.itemformat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** One item format under measurement: encode a tree, decode to a tree, and read one field / a nested path. */
interface Candidate {
    String name();

    /** False when the format holds the typed values only as their JSON view (so typed items lose their types). */
    boolean typed();

    byte[] encode(ObjectNode item) throws Exception;

    ObjectNode decode(byte[] stored) throws Exception;

    /** The value of top-level field {@code name} (decoded), without decoding the rest when the format can. */
    JsonNode field(byte[] stored, String name) throws Exception;

    /** The value of {@code outer.inner}. */
    JsonNode path(byte[] stored, String outer, String inner) throws Exception;
}
