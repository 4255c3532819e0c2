package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * One Cosmos DB NoSQL built-in scalar function. Arguments and result are Jackson trees; {@link Args#UNDEFINED}
 * ({@code MissingNode}) stands for Cosmos "undefined". The registry checks the argument count before calling
 * {@link #apply}, so implementations may index {@code args} freely within {@code [minArgs, maxArgs]}.
 */
public interface ScalarFunction {
    /** The canonical name, as the Cosmos docs spell it (lookup is case-insensitive). */
    String name();

    int minArgs();

    /** {@link Integer#MAX_VALUE} for variadic functions such as CONCAT. */
    int maxArgs();

    JsonNode apply(List<JsonNode> args, FunctionContext ctx);

    /** The body of a function: what the family classes register as lambdas. */
    @FunctionalInterface
    interface Body {
        JsonNode apply(List<JsonNode> args, FunctionContext ctx);
    }

    static ScalarFunction of(String name, int minArgs, int maxArgs, Body body) {
        return new ScalarFunction() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int minArgs() {
                return minArgs;
            }

            @Override
            public int maxArgs() {
                return maxArgs;
            }

            @Override
            public JsonNode apply(List<JsonNode> args, FunctionContext ctx) {
                return body.apply(args, ctx);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
