package io.tetradb.server.gremlin.charge;

import io.netty.channel.ChannelHandlerContext;
import org.apache.tinkerpop.gremlin.groovy.engine.GremlinExecutor;
import org.apache.tinkerpop.gremlin.server.Context;
import org.apache.tinkerpop.gremlin.server.GraphManager;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.server.handler.Frame;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Gremlin Server's per-request {@link Context} that adds the charge attributes to the responses the op processors
 * build as {@link ResponseMessage}s (errors, timeouts, "no content"); result batches are serialized
 * {@link Frame}s that already carry them (see {@link ChargingStandardOpProcessor}). It also tells the meter when the
 * request's final response goes out.
 */
final class ChargedContext extends Context {
    private final ChargeMeter meter;

    ChargedContext(RequestMessage request, ChannelHandlerContext ctx, Settings settings, GraphManager graphManager,
                   GremlinExecutor gremlinExecutor, ScheduledExecutorService scheduled, ChargeMeter meter) {
        super(request, ctx, settings, graphManager, gremlinExecutor, scheduled);
        this.meter = meter;
    }

    @Override
    public void writeAndFlush(ResponseStatusCode code, Object response) {
        super.writeAndFlush(code, charged(code, response));
    }

    @Override
    public void write(ResponseStatusCode code, Object response) {
        super.write(code, charged(code, response));
    }

    private Object charged(ResponseStatusCode code, Object response) {
        if (response instanceof ResponseMessage message
                && !message.getStatus().getAttributes().containsKey(ChargeMeter.REQUEST_CHARGE)) {
            Map<String, Object> attributes = new HashMap<>(message.getStatus().getAttributes());
            attributes.putAll(meter.take(message.getRequestId(), code.isFinalResponse()));
            ThrottleAttributes.addTo(message, attributes); // a 429 from the core, as Cosmos DB's Gremlin API shows it
            return ResponseMessage.build(message.getRequestId())
                    .code(message.getStatus().getCode())
                    .statusMessage(message.getStatus().getMessage())
                    .statusAttributes(attributes)
                    .responseMetaData(message.getResult().getMeta())
                    .result(message.getResult().getData())
                    .create();
        }
        if (code.isFinalResponse()) {
            meter.take(getRequestMessage().getRequestId(), true);  // the frame carries the charge: just forget it
        }
        return response;
    }
}
