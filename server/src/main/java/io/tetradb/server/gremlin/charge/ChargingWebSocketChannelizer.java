package io.tetradb.server.gremlin.charge;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.tetradb.server.gremlin.TetraGraphManager;
import io.tetradb.server.gremlin.security.OneLineErrors;
import io.tetradb.server.gremlin.security.RequestChecks;
import io.tetradb.server.gremlin.security.SafeRequestDecoders;
import org.apache.tinkerpop.gremlin.server.Context;
import org.apache.tinkerpop.gremlin.server.OpProcessor;
import org.apache.tinkerpop.gremlin.server.channel.WebSocketChannelizer;
import org.apache.tinkerpop.gremlin.server.handler.OpExecutorHandler;
import org.apache.tinkerpop.gremlin.server.handler.OpSelectorHandler;
import org.apache.tinkerpop.gremlin.server.op.OpProcessorException;
import org.apache.tinkerpop.gremlin.server.op.standard.StandardOpProcessor;
import org.apache.tinkerpop.gremlin.server.op.traversal.TraversalOpProcessor;
import org.apache.tinkerpop.gremlin.server.util.ServerGremlinExecutor;
import org.apache.tinkerpop.gremlin.util.function.ThrowingConsumer;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.javatuples.Pair;

import java.util.List;
import java.util.Map;

/**
 * Gremlin Server's WebSocket channelizer with request charges: scripts ({@code ""} processor) and bytecode
 * ({@code traversal}) go to {@link ChargingStandardOpProcessor} and {@link ChargingTraversalOpProcessor} instead of
 * the stock processors (which Gremlin Server finds once per JVM by ServiceLoader and cannot be given a meter), and
 * every request runs with a {@link ChargedContext}. Other processors (sessions) are the stock ones.
 *
 * <p>Needs the {@link TetraGraphManager} (it owns the meter). Configured by class name in the server settings.
 */
public final class ChargingWebSocketChannelizer extends WebSocketChannelizer {
    private ChargeMeter meter;
    private Map<String, OpProcessor> processors;
    private ChannelHandler selector;
    private ChannelHandler executor;
    private ChannelHandler textDecoder;
    private ChannelHandler binaryDecoder;
    private final ChannelHandler oneLineErrors = new OneLineErrors();

    /** {@code -Dtetradb.gremlin.loginOffLoop=false}: logins hashed on the event loop, as before (for A/B runs). */
    private static final boolean LOGIN_OFF_LOOP = !"false".equals(System.getProperty("tetradb.gremlin.loginOffLoop"));

    /** Names WebSocketChannelizer gives its handlers. */
    private static final String TEXT_DECODER = "request-text-decoder";
    private static final String BINARY_DECODER = "request-binary-decoder";
    private static final String RESPONSE_ENCODER = "response-frame-encoder";

    @Override
    public void init(ServerGremlinExecutor serverGremlinExecutor) {
        super.init(serverGremlinExecutor);
        meter = ((TetraGraphManager) graphManager).chargeMeter();
        OpProcessor scripts = new ChargingStandardOpProcessor(meter);
        OpProcessor bytecode = new ChargingTraversalOpProcessor(meter);
        scripts.init(settings);
        bytecode.init(settings);
        processors = Map.of(StandardOpProcessor.OP_PROCESSOR_NAME, scripts,
                TraversalOpProcessor.OP_PROCESSOR_NAME, bytecode);
        selector = new Selector();
        executor = new Executor();
        textDecoder = new SafeRequestDecoders.Text(serializers);
        binaryDecoder = new SafeRequestDecoders.Binary(serializers);
    }

    @Override
    public void finalize(ChannelPipeline pipeline) {
        if (settings instanceof io.tetradb.server.gremlin.EmbeddedSettings embedded
                && !embedded.connectionGuard().admit(pipeline.channel())) {
            return; // over the connection limits: already closed
        }
        if (settings instanceof io.tetradb.server.gremlin.EmbeddedSettings embedded
                && embedded.optionalTls() != null) {
            // wss:// and ws:// on one port: the first bytes tell (an HTTP upgrade is ASCII, a TLS record is not)
            pipeline.addFirst("optional-tls", new io.netty.handler.ssl.OptionalSslHandler(embedded.optionalTls()));
        }
        if (settings instanceof io.tetradb.server.gremlin.EmbeddedSettings embedded) {
            // slow clients: the upgrade request (whole after the aggregator), then each WebSocket frame (whole after
            // the frame decoder the handshake puts ahead of this point), has the read timeout to arrive
            embedded.connectionGuard().install(pipeline, PIPELINE_HTTP_AGGREGATOR);
            // requests per connection (--max-requests-per-second), counted once decoded, so the refusal can answer
            // the request by its id; pings and close frames do not count
            ChannelHandler rate = embedded.connectionGuard().rateGate(
                    io.tetradb.server.gremlin.security.RateLimitResponse.INSTANCE);
            if (rate != null) {
                pipeline.addBefore(PIPELINE_OP_SELECTOR, "guard-request-rate", rate);
            }
        }
        if (authenticator instanceof io.tetradb.server.gremlin.security.GremlinAuthenticator logins
                && pipeline.get(io.tetradb.server.gremlin.security.OffLoopLogin.AUTHENTICATOR) != null
                && LOGIN_OFF_LOOP) {
            // a login's password hash runs on the login threads, not on the event loop every connection shares
            pipeline.addBefore(io.tetradb.server.gremlin.security.OffLoopLogin.AUTHENTICATOR, "login-off-loop",
                    new io.tetradb.server.gremlin.security.OffLoopLogin(logins));
        }
        pipeline.replace(PIPELINE_OP_SELECTOR, PIPELINE_OP_SELECTOR, selector);
        pipeline.replace(PIPELINE_OP_EXECUTOR, PIPELINE_OP_EXECUTOR, executor);
        // every frame answered, even one that cannot be read; every error answered on one line
        pipeline.replace(TEXT_DECODER, TEXT_DECODER, textDecoder);
        pipeline.replace(BINARY_DECODER, BINARY_DECODER, binaryDecoder);
        pipeline.addAfter(RESPONSE_ENCODER, "one-line-errors", oneLineErrors);
        pipeline.addLast("quiet-connection-errors", io.tetradb.server.gremlin.security.QuietConnectionErrors.INSTANCE);
        super.finalize(pipeline);
    }

    private ChargedContext context(RequestMessage msg, ChannelHandlerContext ctx) {
        return new ChargedContext(msg, ctx, settings, graphManager, gremlinExecutor, scheduledExecutorService, meter);
    }

    /** Picks our processors for scripts and bytecode, the stock selection for the rest. */
    @ChannelHandler.Sharable
    private final class Selector extends OpSelectorHandler {
        Selector() {
            super(settings, graphManager, gremlinExecutor, scheduledExecutorService, ChargingWebSocketChannelizer.this);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, RequestMessage request, List<Object> out) throws Exception {
            RequestChecks.Checked checked = RequestChecks.check(request, settings.getEvaluationTimeout());
            if (checked.refusal() != null) {
                ctx.writeAndFlush(checked.refusal());
                return;
            }
            RequestMessage msg = checked.request();
            try {
                OpProcessor processor = processors.get(msg.getProcessor());
                if (processor == null) {
                    super.decode(ctx, msg, out);
                    return;
                }
                out.add(Pair.with(msg, processor.select(context(msg, ctx))));
            } catch (OpProcessorException e) {
                context(msg, ctx).writeAndFlush(e.getResponseMessage());
            } catch (RuntimeException e) {
                // arguments of the wrong type (a map where a string belongs…): the processors do not expect them
                context(msg, ctx).writeAndFlush(ResponseMessage.build(msg)
                        .code(ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST)
                        .statusMessage("malformed request: " + e.getMessage()).create());
            }
        }
    }

    /** Runs the selected operation with a {@link ChargedContext} (the stock handler makes a plain one). */
    @ChannelHandler.Sharable
    private final class Executor extends OpExecutorHandler {
        Executor() {
            super(settings, graphManager, gremlinExecutor, scheduledExecutorService);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Pair<RequestMessage, ThrowingConsumer<Context>> pair) {
            RequestMessage msg = pair.getValue0();
            Context context = context(msg, ctx);
            try {
                pair.getValue1().accept(context);
            } catch (OpProcessorException e) {
                context.writeAndFlush(e.getResponseMessage());
            } catch (Exception e) {
                context.writeAndFlush(ResponseMessage.build(msg).code(ResponseStatusCode.SERVER_ERROR)
                        .statusAttributeException(e).statusMessage(e.getMessage()).create());
            }
        }
    }
}
