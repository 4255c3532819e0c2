package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.query.eval.PlanExecutor;
import io.tetradb.core.value.IndexKeyEncoding;
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
    private final List<String> names;
    private final boolean reverse;
    private final ArrayDeque<PlanExecutor.SourceDoc> ready = new ArrayDeque<>();
    private PlanExecutor.SourceDoc lookahead;

    LongStringRuns(PlanExecutor.DocSource in, int valueStart, List<String> names, boolean reverse) {
        this.in = in;
        this.valueStart = valueStart;
        this.names = names;
        this.reverse = reverse;
    }

    @Override
    public PlanExecutor.SourceDoc next() {
        if (!ready.isEmpty()) {
            return ready.poll();
        }
        PlanExecutor.SourceDoc d = lookahead != null ? lookahead : in.next();
        lookahead = null;
        if (d == null || !isCut(value(d))) {
            return d;
        }
        byte[] key = d.position();
        int end = IndexKeyEncoding.skip(key, valueStart, false);
        List<PlanExecutor.SourceDoc> run = new ArrayList<>();
        run.add(d);
        for (PlanExecutor.SourceDoc n = in.next(); n != null; n = in.next()) {
            if (!Arrays.equals(key, valueStart, end, n.position(), valueStart,
                    IndexKeyEncoding.skip(n.position(), valueStart, false))) {
                lookahead = n;
                break;
            }
            run.add(n);
        }
        run.sort((a, b) -> {
            int c = ValueOrder.compareValues(value(a), value(b));
            return reverse ? -c : c; // ties keep the index's order
        });
        for (PlanExecutor.SourceDoc r : run) {
            ready.add(new PlanExecutor.SourceDoc(r.item(), key, r.storedBytes()));
        }
        return ready.poll();
    }

    private JsonNode value(PlanExecutor.SourceDoc d) {
        JsonNode v = d.item();
        for (String n : names) {
            v = v.path(n);
        }
        return v;
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
