package io.tetradb.server.gremlin.charge;

import org.apache.tinkerpop.gremlin.process.remote.traversal.DefaultRemoteTraverser;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.server.Context;
import org.apache.tinkerpop.gremlin.structure.util.detached.DetachedFactory;
import org.apache.tinkerpop.gremlin.structure.util.reference.ReferenceFactory;
import org.apache.tinkerpop.gremlin.util.Tokens;

import java.util.Iterator;

/**
 * Detaches each result as it is taken from the traversal, with the properties the request asks for
 * ({@code materializeProperties}: {@code all}, the default, or {@code tokens}). Gremlin Server would otherwise read
 * the elements' properties while serializing a batch, after that batch's status attributes were computed, so the
 * charge of those reads would land in the next batch (or in none, for the last).
 */
final class MaterializedResults implements Iterator<Object> {
    private final Iterator<?> results;
    private final boolean withProperties;

    private MaterializedResults(Iterator<?> results, boolean withProperties) {
        this.results = results;
        this.withProperties = withProperties;
    }

    static Iterator<Object> of(Context context, Iterator<?> results) {
        return new MaterializedResults(results,
                Tokens.MATERIALIZE_PROPERTIES_ALL.equals(context.getMaterializeProperties()));
    }

    @Override
    public boolean hasNext() {
        return results.hasNext();
    }

    @Override
    public Object next() {
        Object o = results.next();
        if (o instanceof Traverser<?> t) {
            return new DefaultRemoteTraverser<>(detach(t.get()), t.bulk());
        }
        return detach(o);
    }

    private Object detach(Object o) {
        return withProperties ? DetachedFactory.detach(o, true) : ReferenceFactory.detach(o);
    }
}
