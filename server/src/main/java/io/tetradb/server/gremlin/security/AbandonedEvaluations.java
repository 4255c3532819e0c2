package io.tetradb.server.gremlin.security;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.util.concurrent.GenericFutureListener;
import org.apache.tinkerpop.gremlin.server.Context;
import org.apache.tinkerpop.gremlin.server.op.OpProcessorException;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Evaluations whose client has gone. Gremlin Server runs every queued request to its end even when the connection that
 * sent it closed, so a client that sends expensive requests and disconnects at once (a flood, or a fuzzer) keeps the
 * small evaluation pool busy and a real client's request waits behind work nobody will read. Here a request whose
 * connection has closed is not started when it leaves the queue, and a running one is interrupted when its connection
 * closes (traversals and sandboxed scripts stop on interruption, as they do at their evaluation timeout).
 *
 * <p>Each evaluating thread registers one close listener on its request's channel in {@link #begin} and removes it
 * in {@link #end}; a registration a failed script never ended is replaced by the thread's next {@code begin}, so a
 * long-lived connection never accumulates listeners.
 */
public final class AbandonedEvaluations {
    private static final Map<Thread, Registration> RUNNING = new ConcurrentHashMap<>();
    private static final AtomicLong SKIPPED = new AtomicLong();
    private static final AtomicLong INTERRUPTED = new AtomicLong();

    private AbandonedEvaluations() {
    }

    private record Registration(Channel channel, GenericFutureListener<ChannelFuture> listener) {
    }

    /**
     * On the evaluating thread, before any work: refuses the request when its client has already gone, else arranges
     * for the thread to be interrupted if the client goes while it runs.
     */
    public static void begin(Context ctx) throws OpProcessorException {
        Thread thread = Thread.currentThread();
        release(thread);
        Thread.interrupted(); // an interruption meant for an earlier request must not stop this one
        Channel channel = ctx.getChannelHandlerContext().channel();
        if (!channel.isActive()) {
            SKIPPED.incrementAndGet();
            throw new OpProcessorException("the client closed its connection before the request ran",
                    ResponseMessage.build(ctx.getRequestMessage()).code(ResponseStatusCode.SERVER_ERROR)
                            .statusMessage("the client closed its connection before the request ran").create());
        }
        Registration[] self = new Registration[1];
        GenericFutureListener<ChannelFuture> listener = f -> {
            if (RUNNING.remove(thread, self[0])) {
                INTERRUPTED.incrementAndGet();
                thread.interrupt();
            }
        };
        self[0] = new Registration(channel, listener);
        RUNNING.put(thread, self[0]);
        channel.closeFuture().addListener(listener); // runs at once if the channel closed meanwhile
    }

    /** On the evaluating thread, once the request is answered (or failed). */
    public static void end() {
        release(Thread.currentThread());
    }

    private static void release(Thread thread) {
        Registration r = RUNNING.remove(thread);
        if (r != null) {
            r.channel().closeFuture().removeListener(r.listener());
        }
    }

    /** Requests not started because their client had gone (since the JVM started). */
    public static long skipped() {
        return SKIPPED.get();
    }

    /** Running requests interrupted because their client went (since the JVM started). */
    public static long interrupted() {
        return INTERRUPTED.get();
    }
}
