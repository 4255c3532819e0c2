package io.tetradb.core.store;

import io.tetradb.core.query.eval.PlanExecutor;

/** Leaves out the items that have expired but are not purged yet: to every query they are gone at once. */
final class UnexpiredSource implements PlanExecutor.DocSource {
    private final PlanExecutor.DocSource in;
    private final ContainerStore container;

    UnexpiredSource(PlanExecutor.DocSource in, ContainerStore container) {
        this.in = in;
        this.container = container;
    }

    @Override
    public PlanExecutor.SourceDoc next() {
        for (PlanExecutor.SourceDoc d = in.next(); d != null; d = in.next()) {
            if (!container.isExpired(d.item())) {
                return d;
            }
        }
        return null;
    }

    @Override
    public void close() {
        in.close();
    }
}
