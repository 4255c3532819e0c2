package io.tetradb.server.gremlin.charge;

import io.tetradb.graph.TetraGraph;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The request charges (RU) Gremlin Server reports, as Cosmos DB's Gremlin API does, in the status attributes of
 * every response: {@value #REQUEST_CHARGE} (the work done since the previous response of the same request) and
 * {@value #TOTAL_REQUEST_CHARGE} (the whole request so far).
 *
 * <p>Each graph counts the core's charges per thread ({@link TetraGraph#requestCharges()}), and Gremlin Server
 * evaluates a request, iterates it and serializes its results on one executor thread: {@link #start} clears that
 * thread's counters when the request begins, and {@link #take} drains them into the next response. A response
 * written from another thread (an error found before evaluation, a timeout) drains nothing: no graph work ran there.
 */
public final class ChargeMeter {
    public static final String REQUEST_CHARGE = "x-ms-request-charge";
    public static final String TOTAL_REQUEST_CHARGE = "x-ms-total-request-charge";

    private final List<TetraGraph> graphs;
    /** Requests that started and have not had their final response, with their charge so far. */
    private final Map<UUID, double[]> totals = new ConcurrentHashMap<>();
    /** The request whose work this thread's graph counters hold. */
    private final ThreadLocal<UUID> current = new ThreadLocal<>();

    public ChargeMeter(List<TetraGraph> graphs) {
        this.graphs = List.copyOf(graphs);
    }

    /** Called on the thread that is about to evaluate request {@code requestId}. */
    public void start(UUID requestId) {
        drainThread();
        current.set(requestId);
        totals.put(requestId, new double[1]);
    }

    /**
     * The charge attributes for the next response of {@code requestId}: what this thread's graphs did for it since
     * the last response, and the total. {@code finalResponse} forgets the request afterwards.
     */
    public Map<String, Object> take(UUID requestId, boolean finalResponse) {
        double[] total = finalResponse ? totals.remove(requestId) : totals.get(requestId);
        double batch = 0;
        if (requestId != null && requestId.equals(current.get())) {
            batch = drainThread();
            if (finalResponse) {
                current.remove();
            }
        }
        double sum = batch;
        if (total != null) {
            total[0] += batch;
            sum = total[0];
        }
        Map<String, Object> attributes = new HashMap<>();
        attributes.put(REQUEST_CHARGE, round(batch));
        attributes.put(TOTAL_REQUEST_CHARGE, round(sum));
        return attributes;
    }

    /** Requests still waiting for their final response (for tests: nothing must leak). */
    public int openRequests() {
        return totals.size();
    }

    private double drainThread() {
        double sum = 0;
        for (TetraGraph g : graphs) {
            sum += g.requestCharges().reset();
        }
        return sum;
    }

    /** Two decimals, as Cosmos DB shows charges (sums of doubles otherwise print as 2.1500000000000004). */
    private static double round(double ru) {
        return Math.round(ru * 100.0) / 100.0;
    }
}
