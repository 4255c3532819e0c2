package io.tetradb.server.gremlin.charge;

import io.netty.channel.ChannelHandlerContext;
import io.tetradb.server.gremlin.security.AbandonedEvaluations;
import org.apache.tinkerpop.gremlin.server.Context;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.server.op.standard.StandardOpProcessor;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;

/** Gremlin Server's script processor (gremlin-groovy, gremlin-lang) with charge attributes on every result batch. */
final class ChargingStandardOpProcessor extends StandardOpProcessor {
    private final ChargeMeter meter;

    ChargingStandardOpProcessor(ChargeMeter meter) {
        this.meter = meter;
    }

    @Override
    protected void handleIterator(Context context, Iterator itty) throws InterruptedException {
        try {
            super.handleIterator(context, MaterializedResults.of(context, itty));
        } finally {
            AbandonedEvaluations.end();
        }
    }

    /** The bindings are made on the evaluating thread just before the script runs: skip it if its client has gone. */
    @Override
    protected Function<Context, BindingSupplier> getBindingMaker() {
        Function<Context, BindingSupplier> stock = super.getBindingMaker();
        return ctx -> {
            BindingSupplier bindings = stock.apply(ctx);
            return () -> {
                AbandonedEvaluations.begin(ctx);
                return bindings.get();
            };
        };
    }

    @Override
    protected Map<String, Object> generateStatusAttributes(ChannelHandlerContext ctx, RequestMessage msg,
                                                           ResponseStatusCode code, Iterator itty, Settings settings) {
        Map<String, Object> attributes = new HashMap<>(super.generateStatusAttributes(ctx, msg, code, itty, settings));
        attributes.putAll(meter.take(msg.getRequestId(), code.isFinalResponse()));
        return attributes;
    }
}
