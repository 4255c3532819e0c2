package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * Calls the user-defined functions of the container a query runs on ({@code udf.name(args)}). One resolver serves
 * one query page; the script runtime behind it lives in {@code io.tetradb.core.script}.
 */
public interface UdfResolver {
    /** The function's value; {@link com.fasterxml.jackson.databind.node.MissingNode} for undefined. */
    JsonNode call(String name, List<JsonNode> args);

    /** The request units the calls so far cost in CPU (deterministic: counted instructions), added to the page's. */
    default double cpuCharge() {
        return 0;
    }
}
