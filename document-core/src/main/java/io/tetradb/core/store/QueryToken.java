package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.query.eval.PlanExecutor;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A query continuation token: opaque to clients, stateless on the server. It names the query it belongs to (a hash of
 * the plan, parameters and scope), the access path the first page chose (later pages keep it, so a plan cannot change
 * under a paging client), and either a source position (streamed queries: the key of the last document used, rows of
 * it used, results produced) or a result offset (queries that group, sort in memory or de-duplicate re-run and skip).
 * Positions are storage keys, not partition ids, so a token survives splits and restarts.
 */
record QueryToken(int query, String access, byte[] position, int rowsDone, long produced, long offset) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static QueryToken at(int query, String access, PlanExecutor.Resume r) {
        return new QueryToken(query, access, r.position(), r.rowsDone(), r.produced(), -1);
    }

    static QueryToken offset(int query, String access, long offset) {
        return new QueryToken(query, access, null, 0, 0, offset);
    }

    PlanExecutor.Resume resume() {
        return new PlanExecutor.Resume(position, rowsDone, produced);
    }

    String encode() {
        ObjectNode n = JSON.createObjectNode();
        n.put("v", 2).put("q", query).put("a", access);
        if (position != null) {
            n.put("p", Base64.getUrlEncoder().withoutPadding().encodeToString(position)).put("r", rowsDone)
                    .put("n", produced);
        } else {
            n.put("o", offset);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(n.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The token, checked to belong to {@code query}; 400 for anything this server did not make for it. */
    static QueryToken decode(String token, int query) {
        try {
            JsonNode n = JSON.readTree(Base64.getUrlDecoder().decode(token));
            if (n == null || n.path("v").asInt() != 2 || !n.path("a").isTextual()) {
                throw new IllegalArgumentException();
            }
            if (n.path("q").asInt() != query) {
                throw new StoreException(Status.BAD_REQUEST,
                        "The continuation token does not belong to this query (text, parameters or scope differ).");
            }
            if (n.has("p")) {
                int rows = n.path("r").asInt(-1);
                long produced = n.path("n").asLong(-1);
                if (rows < 0 || produced < 0) {
                    throw new IllegalArgumentException();
                }
                return new QueryToken(query, n.get("a").asText(), Base64.getUrlDecoder().decode(n.get("p").asText()),
                        rows, produced, -1);
            }
            long offset = n.path("o").asLong(-1);
            if (offset < 0) {
                throw new IllegalArgumentException();
            }
            return offset(query, n.get("a").asText(), offset);
        } catch (StoreException e) {
            throw e;
        } catch (RuntimeException | java.io.IOException e) {
            throw new StoreException(Status.BAD_REQUEST, "Invalid continuation token.");
        }
    }
}
