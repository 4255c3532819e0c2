package io.tetradb.server.gremlin.charge;

import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request the core throttled (its partition spent its RU/s) is answered as Cosmos DB's Gremlin API answers it: the
 * server error status with the attributes {@code x-ms-status-code: 429}, {@code x-ms-substatus-code: 3200} and
 * {@code x-ms-retry-after-ms} (a .NET TimeSpan string such as {@code "00:00:00.1250000"}). Gremlin Server gives the
 * response only the exception's class names and message, so the wait is read back from the message the core wrote.
 */
final class ThrottleAttributes {
    static final String STATUS_CODE = "x-ms-status-code";
    static final String SUB_STATUS_CODE = "x-ms-substatus-code";
    static final String RETRY_AFTER = "x-ms-retry-after-ms";
    private static final String THROTTLED = io.tetradb.core.throughput.RequestRateTooLargeException.class.getName();
    private static final Pattern RETRY_AFTER_MS = Pattern.compile("Retry after (\\d+) ms");

    private ThrottleAttributes() {
    }

    /** Adds the throttling attributes to {@code attributes} when {@code message} reports a throttled request. */
    static void addTo(ResponseMessage message, Map<String, Object> attributes) {
        if (message.getStatus().getCode().isSuccess()
                || !(attributes.get(Tokens.STATUS_ATTRIBUTE_EXCEPTIONS) instanceof List<?> exceptions)
                || exceptions.stream().noneMatch(e -> THROTTLED.equals(String.valueOf(e)))) {
            return;
        }
        attributes.put(STATUS_CODE, 429L);
        attributes.put(SUB_STATUS_CODE, (long) io.tetradb.core.throughput.RequestRateTooLargeException
                .SUB_STATUS_RU_BUDGET_EXCEEDED);
        Matcher m = RETRY_AFTER_MS.matcher(String.valueOf(message.getStatus().getMessage()));
        long ms = m.find() ? Long.parseLong(m.group(1)) : 1;
        attributes.put(RETRY_AFTER, timeSpan(ms));
    }

    /** A .NET TimeSpan's text ({@code hh:mm:ss.fffffff}) for {@code ms} milliseconds. */
    static String timeSpan(long ms) {
        long s = ms / 1000;
        return String.format("%02d:%02d:%02d.%07d", s / 3600, (s / 60) % 60, s % 60, (ms % 1000) * 10_000);
    }
}
