package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.query.eval.PlanExecutor;
import io.tetradb.core.value.ValueOrder;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Restores the exact order of an index-ordered read where the index cannot: strings are indexed by their first
 * {@link IndexTerms#MAX_STRING_CHARS} characters, so items whose long strings share that prefix arrive in key order.
 * Such a run (equal entry values, the value a cut string) is read whole, sorted by the full value, and every item
 * of it gets the run's first position, so a page that ends inside the run resumes by re-reading and skipping.
 */
final class LongStringRuns implements PlanExecutor.DocSource {
    private final PlanExecutor.DocSource in;
    private final int valueStart;
    private final boolean[] stored;
    private final List<List<String>> paths;
    private final boolean[] descending;
    private final ArrayDeque<PlanExecutor.SourceDoc> ready = new ArrayDeque<>();
    private PlanExecutor.SourceDoc lookahead;

    /**
     * @param valueStart where the sort values start in an entry key (after the index's prefix)
     * @param stored whether each sort value is stored complemented (a DESC component of a composite index)
     * @param paths the sort keys' property paths, {@code descending} their directions as the query wants them
     */
    LongStringRuns(PlanExecutor.DocSource in, int valueStart, boolean[] stored,
                   List<List<String>> paths, boolean[] descending) {
        this.in = in;
        this.valueStart = valueStart;
        this.stored = stored;
        this.paths = paths;
        this.descending = descending;
    }

    @Override
    public PlanExecutor.SourceDoc next() {
        if (!ready.isEmpty()) {
            return ready.poll();
        }
        PlanExecutor.SourceDoc d = lookahead != null ? lookahead : in.next();
        lookahead = null;
        int cut = d == null ? -1 : firstCut(d);
        if (cut < 0) {
            return d;
        }
        // the run: the entries that share the sort values up to the cut one, whose true order the index lost
        byte[] key = d.position();
        int end = end(key, cut);
        List<PlanExecutor.SourceDoc> run = new ArrayList<>();
        run.add(d);
        for (PlanExecutor.SourceDoc n = in.next(); n != null; n = in.next()) {
            if (!Arrays.equals(key, valueStart, end, n.position(), valueStart,
                    end(n.position(), cut))) {
                lookahead = n;
                break;
            }
            run.add(n);
        }
        run.sort((a, b) -> { // ties keep the index's order
            for (int i = 0; i < paths.size(); i++) {
                int c = ValueOrder.compareValues(value(a, i), value(b, i));
                if (c != 0) {
                    return descending[i] ? -c : c;
                }
            }
            return 0;
        });
        for (PlanExecutor.SourceDoc r : run) {
            ready.add(new PlanExecutor.SourceDoc(r.item(), key, r.storedBytes()));
        }
        return ready.poll();
    }

    private JsonNode value(PlanExecutor.SourceDoc d, int key) {
        JsonNode v = d.item();
        for (String n : paths.get(key)) {
            v = v.path(n);
        }
        return v;
    }

    private int firstCut(PlanExecutor.SourceDoc d) {
        for (int i = 0; i < paths.size(); i++) {
            if (isCut(value(d, i))) {
                return i;
            }
        }
        return -1;
    }

    /** Where sort value {@code last} ends in an entry key. */
    private int end(byte[] key, int last) {
        int at = valueStart;
        for (int i = 0; i <= last; i++) {
            at = io.tetradb.core.value.IndexKeyEncoding.skip(key, at, stored[i]);
        }
        return at;
    }

    private static boolean isCut(JsonNode v) {
        // a string of the indexed length shares its entry with the longer strings it begins
        return v.isTextual() && v.textValue().length() >= IndexTerms.MAX_STRING_CHARS - 1;
    }

    @Override
    public void close() {
        in.close();
    }
}
