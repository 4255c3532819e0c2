package io.tetradb.server.gremlin.charge;

import io.netty.channel.ChannelHandlerContext;
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

    @Override
    protected Map<String, Object> generateStatusAttributes(ChannelHandlerContext ctx, RequestMessage msg,
                                                           ResponseStatusCode code, Iterator itty, Settings settings) {
        Map<String, Object> attributes = new HashMap<>(super.generateStatusAttributes(ctx, msg, code, itty, settings));
        attributes.putAll(meter.take(msg.getRequestId(), code.isFinalResponse()));
        return attributes;
    }
}
