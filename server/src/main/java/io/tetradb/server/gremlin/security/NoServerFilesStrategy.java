package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.IoStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.verification.VerificationException;

/**
 * Refuses {@code g.io(file)}: it reads or writes a file on the server's disk, which no client of a database may
 * name (Cosmos DB's Gremlin API has no io() either). Added to every traversal source the server binds; gremlin-lang
 * cannot remove it (it names only globally registered strategies) and bytecode that tries is refused
 * ({@link RequestChecks}).
 */
public final class NoServerFilesStrategy extends AbstractTraversalStrategy<TraversalStrategy.VerificationStrategy>
        implements TraversalStrategy.VerificationStrategy {
    private static final NoServerFilesStrategy INSTANCE = new NoServerFilesStrategy();

    private NoServerFilesStrategy() {
    }

    public static NoServerFilesStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (TraversalHelper.hasStepOfAssignableClassRecursively(IoStep.class, traversal)) {
            throw new VerificationException("io() is not supported: the server's files are not reachable", traversal);
        }
    }
}
