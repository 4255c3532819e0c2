package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;

/** How a computed number becomes a JSON value, the same for functions and operators. */
public final class Numbers {
    private static final double EXACT_LONG_LIMIT = 9007199254740992d; // 2^53

    private Numbers() {
    }

    /**
     * Cosmos numbers are doubles and print without a fraction when they have none, so an integral value within 2^53
     * becomes an integer node (5, not 5.0; -0.0 becomes 0, as JSON serializers print it); everything else a double.
     */
    public static JsonNode of(double d) {
        if (d == Math.rint(d) && Math.abs(d) <= EXACT_LONG_LIMIT) {
            return LongNode.valueOf((long) d);
        }
        return DoubleNode.valueOf(d);
    }
}
