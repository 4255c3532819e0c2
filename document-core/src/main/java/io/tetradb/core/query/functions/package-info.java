/**
 * The Cosmos DB NoSQL built-in scalar functions, evaluated on Jackson trees.
 *
 * <p>Values are {@link com.fasterxml.jackson.databind.JsonNode}s; {@link com.fasterxml.jackson.databind.node.MissingNode}
 * is Cosmos "undefined" ({@link io.tetradb.core.query.functions.Args#UNDEFINED}). As in Cosmos, most functions return
 * undefined instead of failing when an argument is undefined or of the wrong type; only an unknown function name or a
 * wrong number of arguments is an error (400, from {@link io.tetradb.core.query.functions.FunctionRegistry}).
 *
 * <p>Layout: one class per family of the Cosmos reference, each with a {@code registerAll(FunctionRegistry)} that
 * registers small lambdas —
 * {@link io.tetradb.core.query.functions.StringFunctions},
 * {@link io.tetradb.core.query.functions.MathFunctions},
 * {@link io.tetradb.core.query.functions.IntegerMathFunctions},
 * {@link io.tetradb.core.query.functions.TypeCheckFunctions},
 * {@link io.tetradb.core.query.functions.ArrayFunctions},
 * {@link io.tetradb.core.query.functions.ConditionalFunctions},
 * {@link io.tetradb.core.query.functions.DateTimeFunctions},
 * {@link io.tetradb.core.query.functions.ItemFunctions} — and {@link io.tetradb.core.query.functions.Args} for the
 * shared argument checks, result builders and the numeric deep equality (5 == 5.0) used by the array functions.
 *
 * <p>To add a function: register it in its family's {@code registerAll} with its Cosmos name, minimum and maximum
 * argument counts and a lambda {@code (args, ctx) -> result}; add the examples of its Cosmos doc page to the family's
 * test. Evaluation: {@code FunctionRegistry.standard().resolve(name, argc)} once at plan time (400 if unknown or the
 * count is wrong), then {@code apply(args, ctx)} per item, with one {@link io.tetradb.core.query.functions.FunctionContext}
 * per query ({@code forQuery(clock)}) narrowed per item with {@code withItemRid(rid)}.
 *
 * <p>Spatial (ST_*), vector (VectorDistance) and full-text (FullText*) functions are not here.
 */
package io.tetradb.core.query.functions;
