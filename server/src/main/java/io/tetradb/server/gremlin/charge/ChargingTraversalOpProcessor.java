package io.tetradb.server.gremlin.charge;

import io.netty.channel.ChannelHandlerContext;
import io.tetradb.server.gremlin.security.AbandonedEvaluations;
import org.apache.tinkerpop.gremlin.server.Context;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.server.op.traversal.TraversalOpProcessor;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/** Gremlin Server's bytecode processor ({@code withRemote}) with charge attributes on every result batch. */
final class ChargingTraversalOpProcessor extends TraversalOpProcessor {
    private final ChargeMeter meter;

    ChargingTraversalOpProcessor(ChargeMeter meter) {
        this.meter = meter;
    }

    @Override
    protected void handleIterator(Context context, Iterator itty, Graph graph) throws InterruptedException {
        super.handleIterator(context, MaterializedResults.of(context, itty), graph);
    }

    /** On the evaluating thread before the traversal runs: skip it if its client has gone. */
    @Override
    protected void beforeProcessing(Graph graph, Context context) {
        try {
            AbandonedEvaluations.begin(context);
        } catch (org.apache.tinkerpop.gremlin.server.op.OpProcessorException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        super.beforeProcessing(graph, context);
    }

    @Override
    protected void onTraversalSuccess(Graph graph, Context context) {
        AbandonedEvaluations.end();
        super.onTraversalSuccess(graph, context);
    }

    @Override
    protected void onError(Graph graph, Context context, Throwable error) {
        AbandonedEvaluations.end();
        super.onError(graph, context, error);
    }

    @Override
    protected Map<String, Object> generateStatusAttributes(ChannelHandlerContext ctx, RequestMessage msg,
                                                           ResponseStatusCode code, Iterator itty, Settings settings) {
        Map<String, Object> attributes = new HashMap<>(super.generateStatusAttributes(ctx, msg, code, itty, settings));
        attributes.putAll(meter.take(msg.getRequestId(), code.isFinalResponse()));
        return attributes;
    }
}
