package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Cosmos DB NoSQL built-in scalar functions by name. Lookup is case-insensitive ({@code upper}, {@code UPPER}
 * and {@code Upper} are one function), as in Cosmos. An unknown name or a wrong argument count is a 400.
 *
 * <p>{@link #standard()} holds every family; each family class ({@link StringFunctions}, {@link MathFunctions}, ...)
 * registers its functions in {@code registerAll}.
 */
public final class FunctionRegistry {
    private static final FunctionRegistry STANDARD = createStandard();

    private final Map<String, ScalarFunction> functions = new TreeMap<>();

    public FunctionRegistry() {
    }

    /** The shared registry with every built-in family. Do not register into it; build your own instead. */
    public static FunctionRegistry standard() {
        return STANDARD;
    }

    /** A new registry with every built-in family, to which more functions may be added. */
    public static FunctionRegistry createStandard() {
        FunctionRegistry r = new FunctionRegistry();
        StringFunctions.registerAll(r);
        MathFunctions.registerAll(r);
        IntegerMathFunctions.registerAll(r);
        TypeCheckFunctions.registerAll(r);
        ArrayFunctions.registerAll(r);
        ConditionalFunctions.registerAll(r);
        DateTimeFunctions.registerAll(r);
        ItemFunctions.registerAll(r);
        SeekHintFunctions.registerAll(r);
        return r;
    }

    public FunctionRegistry register(ScalarFunction f) {
        String key = key(f.name());
        if (functions.putIfAbsent(key, f) != null) {
            throw new IllegalArgumentException("function " + f.name() + " is already registered");
        }
        return this;
    }

    /** Registers a function given by its body. */
    public FunctionRegistry register(String name, int minArgs, int maxArgs, ScalarFunction.Body body) {
        return register(ScalarFunction.of(name, minArgs, maxArgs, body));
    }

    public boolean contains(String name) {
        return functions.containsKey(key(name));
    }

    /** The function called {@code name} (any case); 400 when there is none. */
    public ScalarFunction lookup(String name) {
        ScalarFunction f = functions.get(key(name));
        if (f == null) {
            throw new StoreException(Status.BAD_REQUEST, "Unknown function '" + name + "'.");
        }
        return f;
    }

    /** The function called {@code name}, after checking that it accepts {@code argCount} arguments (400 if not). */
    public ScalarFunction resolve(String name, int argCount) {
        ScalarFunction f = lookup(name);
        if (argCount < f.minArgs() || argCount > f.maxArgs()) {
            String expected = f.minArgs() == f.maxArgs() ? String.valueOf(f.minArgs())
                    : f.maxArgs() == Integer.MAX_VALUE ? "at least " + f.minArgs()
                    : "between " + f.minArgs() + " and " + f.maxArgs();
            throw new StoreException(Status.BAD_REQUEST, "The function '" + f.name() + "' takes " + expected
                    + " argument(s), but " + argCount + " were given.");
        }
        return f;
    }

    /** Looks up, checks the argument count and applies. */
    public JsonNode invoke(String name, List<JsonNode> args, FunctionContext ctx) {
        return resolve(name, args.size()).apply(args, ctx);
    }

    public Collection<ScalarFunction> all() {
        return Collections.unmodifiableCollection(functions.values());
    }

    private static String key(String name) {
        return name.toUpperCase(Locale.ROOT);
    }
}
