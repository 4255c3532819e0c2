package io.tetradb.core.store;

import io.tetradb.core.query.eval.PlanExecutor;

import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The k-way merge of index reads that share an order but not a key prefix: one read per value of an {@code IN} on
 * the leading components of a composite index ({@code WHERE c.pk IN ('a','b') ORDER BY c.ts}), each ordered by the
 * rest of its key. Documents come out ordered by that rest (the key after each read's own prefix), so a position
 * from any input tells every input where to resume.
 */
final class MergedSource implements PlanExecutor.DocSource {
    private record Head(PlanExecutor.SourceDoc doc, int input) {
    }

    private final List<PlanExecutor.DocSource> inputs;
    private final int[] prefixLengths;
    private final PriorityQueue<Head> heads;

    MergedSource(List<PlanExecutor.DocSource> inputs, int[] prefixLengths, boolean reverse) {
        this.inputs = inputs;
        this.prefixLengths = prefixLengths;
        this.heads = new PriorityQueue<>((a, b) -> {
            byte[] x = a.doc().position();
            byte[] y = b.doc().position();
            int c = Arrays.compareUnsigned(x, prefixLengths[a.input()], x.length, y, prefixLengths[b.input()], y.length);
            return reverse ? -c : c;
        });
        for (int i = 0; i < inputs.size(); i++) {
            advance(i);
        }
    }

    private void advance(int input) {
        PlanExecutor.SourceDoc d = inputs.get(input).next();
        if (d != null) {
            heads.add(new Head(d, input));
        }
    }

    @Override
    public PlanExecutor.SourceDoc next() {
        Head h = heads.poll();
        if (h == null) {
            return null;
        }
        advance(h.input());
        return h.doc();
    }

    @Override
    public void close() {
        inputs.forEach(PlanExecutor.DocSource::close);
    }
}
