package io.tetradb.core.script;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import org.mozilla.javascript.BaseFunction;
import org.mozilla.javascript.CompilerEnvirons;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.ContextFactory;
import org.mozilla.javascript.EcmaError;
import org.mozilla.javascript.EvaluatorException;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.JavaScriptException;
import org.mozilla.javascript.NativeObject;
import org.mozilla.javascript.Parser;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.Script;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;
import org.mozilla.javascript.ast.AstNode;
import org.mozilla.javascript.ast.AstRoot;
import org.mozilla.javascript.ast.FunctionNode;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JavaScript runtime of server-side scripts, on Mozilla Rhino (compiled to JVM bytecode; the choice is argued in
 * document-core/README.md). One sealed scope holds the standard objects and the API prelude; each execution gets a
 * fresh child scope, so executions share nothing. Scripts see no Java at all: safe standard objects (no
 * {@code Packages}, {@code java}, {@code JavaImporter}), a class shutter that refuses every class, and a single host
 * function that passes JSON strings. Time and allocation are bounded by Rhino's instruction observer, which also
 * counts the instructions a script runs: its deterministic CPU cost.
 */
public final class ScriptEngine {
    /** Instructions between two observer calls: the granularity of the time check and of the CPU count. */
    static final int OBSERVER_THRESHOLD = 10_000;
    /** Instructions are charged in whole steps of this many (see {@link #charged}). */
    static final int CHARGE_STEP = 10_000;
    /** Request units per counted instruction: 1 RU per 100,000 instructions. */
    public static final double RU_PER_INSTRUCTION = 1.0 / 100_000;
    private static final Object BUDGET = new Object();
    private static final Set<String> COLLECTION_OPS =
            Set.of("create", "upsert", "replace", "read", "delete", "patch", "query", "documents");

    private final ContextFactory factory = new LimitedFactory();
    /** The sealed shared scope and the prelude's install function, made on first use (stores that run no script
     * never pay for them). */
    private record Runtime(ScriptableObject shared, Function install, JsValues values, Scriptable ok) {
    }

    private volatile Runtime runtime;
    private final Map<String, Compiled> cache = new ConcurrentHashMap<>();
    private volatile ScriptLimits limits = ScriptLimits.DEFAULTS;

    /** A compiled script body and the name of the function it declares (null: the body is that function). */
    record Compiled(Script script, String entry) {
    }

    /** What an execution left: the response body and the (pre-trigger's) request body as JSON, and its CPU count. */
    public record Result(String body, String request, long instructions) {
        public double cpuCharge() {
            return charged(instructions) * RU_PER_INSTRUCTION;
        }
    }

    /**
     * The instructions charged: whole steps of {@link #CHARGE_STEP}, not the exact count, which can differ by an
     * instruction or two between runs of the same code (call sites linked on first use) and must not change a
     * charge; so a short script's CPU rounds to 0.
     */
    static long charged(long instructions) {
        return instructions / CHARGE_STEP * CHARGE_STEP;
    }

    private static final class LimitedFactory extends ContextFactory {
        @Override
        protected Context makeContext() {
            Context cx = super.makeContext();
            cx.setLanguageVersion(Context.VERSION_ES6);
            cx.setInterpretedMode(false);
            cx.setGenerateObserverCount(true);
            cx.setInstructionObserverThreshold(OBSERVER_THRESHOLD);
            cx.setClassShutter(className -> false);
            return cx;
        }

        @Override
        protected boolean hasFeature(Context cx, int featureIndex) {
            if (featureIndex == Context.FEATURE_ENHANCED_JAVA_ACCESS) {
                return false;
            }
            return super.hasFeature(cx, featureIndex);
        }

        @Override
        protected void observeInstructionCount(Context cx, int instructionCount) {
            Object b = cx.getThreadLocal(BUDGET);
            if (b instanceof ScriptBudget budget) {
                // whole steps, not the exact count: Rhino's count can differ between runs of the same code (call
                // sites linked on first use), which must not change a charge
                budget.instructions += OBSERVER_THRESHOLD;
                budget.check();
            }
        }
    }

    private Runtime runtime() {
        Runtime r = runtime;
        if (r == null) {
            synchronized (this) {
                r = runtime;
                if (r == null) {
                    r = newRuntime();
                    runtime = r;
                }
            }
        }
        return r;
    }

    private Runtime newRuntime() {
        Context cx = factory.enterContext();
        try {
            ScriptableObject shared = cx.initSafeStandardObjects(null, true);
            String prelude;
            try (InputStream in = ScriptEngine.class.getResourceAsStream("prelude.js")) {
                prelude = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException("the script prelude is missing", e);
            }
            Function guards = (Function) cx.evaluateString(shared, resource("guards.js"), "guards.js", 1, null);
            guards.call(cx, shared, shared, new Object[]{new MaxStringLength()});
            Function factory = (Function) cx.evaluateString(shared, prelude, "prelude.js", 1, null);
            Function install = (Function) factory.call(cx, shared, shared, new Object[]{new MakeFunction(), new ReturningFunction(null)});
            Scriptable ok = (Scriptable) cx.evaluateString(shared, "Object.freeze({ok: true})", "ok", 1, null);
            shared.sealObject();
            return new Runtime(shared, install, new JsValues(shared), ok);
        } finally {
            Context.exit();
        }
    }

    private static String resource(String name) {
        try (InputStream in = ScriptEngine.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("the script resource " + name + " is missing", e);
        }
    }

    /**
     * The longest string one built-in call may make, in characters: an eighth of the allocation bound (a Java
     * string of n characters can take 2n bytes, and building it by doubling a buffer about as much again).
     */
    private static final class MaxStringLength extends BaseFunction {
        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            Object b = cx.getThreadLocal(BUDGET);
            long bound = b instanceof ScriptBudget budget ? budget.limits.maxAllocatedBytes()
                    : ScriptLimits.DEFAULTS.maxAllocatedBytes();
            return (double) Math.min(bound / 8, MAX_STRING_LENGTH);
        }
    }

    /** V8's longest string (2^29 - 24 characters), whatever the allocation bound. */
    static final long MAX_STRING_LENGTH = (1L << 29) - 24;

    public ScriptLimits limits() {
        return limits;
    }

    public void setLimits(ScriptLimits limits) {
        this.limits = limits;
    }

    /** Compiles a body (cached by its text); a syntax error, or a body that declares no function, is 400. */
    Compiled compile(String body) {
        Compiled c = cache.get(body);
        if (c != null) {
            return c;
        }
        c = compileNew(body);
        if (cache.size() > 4096) {
            cache.clear(); // a crude bound; bodies are few per container
        }
        cache.put(body, c);
        return c;
    }

    /** Checks that a body compiles and defines a function (Cosmos DB refuses a bad body at create time). */
    public void validate(String body) {
        Context cx = factory.enterContext();
        try {
            compile(body);
        } finally {
            Context.exit();
        }
    }

    private Compiled compileNew(String body) {
        Context cx = factory.enterContext();
        try {
            String entry = declaredFunction(body);
            if (entry != null) {
                return new Compiled(cx.compileString(body, "script", 1, null), entry);
            }
            // an anonymous function: its value is the function
            return new Compiled(cx.compileString("(" + body + "\n)", "script", 1, null), null);
        } catch (EvaluatorException e) {
            throw new StoreException(Status.BAD_REQUEST, "the script body is not valid JavaScript: "
                    + e.details() + " (line " + e.lineNumber() + ")");
        } finally {
            Context.exit();
        }
    }

    /** The name of the first function the body declares at its top level, or null. */
    private static String declaredFunction(String body) {
        CompilerEnvirons env = new CompilerEnvirons();
        env.setLanguageVersion(Context.VERSION_ES6);
        AstRoot root;
        try {
            root = new Parser(env).parse(body, "script", 1);
        } catch (EvaluatorException e) {
            return null; // perhaps an anonymous function expression; compiled as one, else its error is shown
        }
        for (org.mozilla.javascript.Node n : root) {
            if (n instanceof FunctionNode f && f.getFunctionName() != null
                    && f.getFunctionType() == FunctionNode.FUNCTION_STATEMENT) {
                return f.getFunctionName().getIdentifier();
            }
        }
        throw new StoreException(Status.BAD_REQUEST, "the script body must declare a function, e.g. "
                + "function name(args) { ... }");
    }

    /**
     * Runs a stored procedure or trigger body: its function gets {@code paramsJson}'s elements as arguments, then
     * every queued callback runs. {@code kind} is "sproc" or "trigger"; {@code requestJson} carries a trigger's
     * request ({@code body}, {@code operationType}, {@code responseBody}). A thrown script error is 400, the time
     * bound 408 (StoreException); the caller rolls back.
     */
    public Result execute(String kind, String body, ScriptHost host, String paramsJson, String requestJson,
                          ScriptLimits limits) {
        Compiled compiled = compile(body);
        Runtime rt = runtime();
        ScriptableObject shared = rt.shared();
        Function install = rt.install();
        Context cx = factory.enterContext();
        Object previous = cx.getThreadLocal(BUDGET);
        ScriptBudget budget = new ScriptBudget(limits);
        cx.putThreadLocal(BUDGET, budget);
        try {
            Scriptable scope = cx.newObject(shared);
            scope.setPrototype(shared);
            scope.setParentScope(null);
            Scriptable driver = (Scriptable) install.call(cx, shared, shared,
                    new Object[]{new HostFunction(host, budget, rt), scope, kind, requestJson});
            Object value = compiled.script().exec(cx, scope);
            Object fn = compiled.entry() == null ? value : ScriptableObject.getProperty(scope, compiled.entry());
            Function run = (Function) ScriptableObject.getProperty(driver, "run");
            Scriptable out = (Scriptable) run.call(cx, scope, driver, new Object[]{fn, paramsJson});
            return new Result(text(out, "body"), text(out, "request"), budget.instructions);
        } catch (ScriptStop e) {
            throw stopped(e, limits);
        } catch (RhinoException e) {
            throw scriptError(e);
        } catch (StackOverflowError e) {
            throw new StoreException(Status.BAD_REQUEST, "Encountered exception while executing function. "
                    + "Exception = RangeError: Maximum call stack size exceeded");
        } catch (OutOfMemoryError e) {
            throw outOfMemory(limits);
        } finally {
            cx.putThreadLocal(BUDGET, previous);
            Context.exit();
        }
    }

    private static String text(Scriptable o, String name) {
        Object v = ScriptableObject.getProperty(o, name);
        return v instanceof CharSequence cs ? cs.toString() : null;
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    static StoreException stopped(ScriptStop e, ScriptLimits limits) {
        if (e.reason == ScriptStop.Reason.TIMEOUT) {
            return new StoreException(Status.REQUEST_TIMEOUT, "The script did not finish within its bound of "
                    + limits.timeout().toMillis() + " ms; it was stopped and everything it did was rolled back.");
        }
        return new StoreException(Status.BAD_REQUEST, "The script allocated more than its bound of "
                + limits.maxAllocatedBytes() + " bytes; it was stopped and everything it did was rolled back.");
    }

    /**
     * One allocation of the script's thread did not fit in the heap (a built-in asked for more than there is): what
     * the script made is garbage as soon as its scope is dropped, so the server goes on.
     */
    static StoreException outOfMemory(ScriptLimits limits) {
        return new StoreException(Status.BAD_REQUEST, "The script needed more memory than the server has for it "
                + "(bound: " + limits.maxAllocatedBytes() + " bytes allocated); it was stopped and everything it did "
                + "was rolled back.");
    }

    static StoreException scriptError(RhinoException e) {
        String what;
        if (e instanceof JavaScriptException js) {
            Object v = js.getValue();
            what = v instanceof Scriptable s && ScriptableObject.getProperty(s, "message") instanceof CharSequence m
                    ? errorName(s) + ": " + m : js.details();
        } else if (e instanceof EcmaError ee) {
            what = ee.getName() + ": " + ee.getErrorMessage();
        } else {
            what = e.details();
        }
        return new StoreException(Status.BAD_REQUEST, "Encountered exception while executing function. Exception = "
                + what + (e.lineNumber() > 0 ? " (line " + e.lineNumber() + ")" : ""));
    }

    private static String errorName(Scriptable s) {
        Object n = ScriptableObject.getProperty(s, "name");
        return n instanceof CharSequence c ? c.toString() : "Error";
    }

    /**
     * The prelude's {@code make(proto, s)}: a new object of prototype {@code proto} holding the execution's state
     * {@code s} in a hidden, read-only, permanent {@code __s} (what {@code Object.create(proto, {__s: {value: s}})}
     * makes, without building and reading the descriptor objects on every execution).
     */
    private static final class MakeFunction extends BaseFunction {
        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            NativeObject o = new NativeObject();
            o.setPrototype((Scriptable) args[0]);
            o.setParentScope(ScriptableObject.getTopLevelScope(scope));
            o.defineProperty("__s", args[1], ScriptableObject.READONLY | ScriptableObject.DONTENUM
                    | ScriptableObject.PERMANENT);
            return o;
        }
    }

    /** The prelude's {@code returning(value)}: a function that returns {@code value} (an execution's getContext). */
    private static final class ReturningFunction extends BaseFunction {
        private final transient Object value;

        ReturningFunction(Object value) {
            this.value = value;
        }

        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            if (value == null) { // the factory itself
                ReturningFunction f = new ReturningFunction(args[0]);
                ScriptRuntime.setFunctionProtoAndParent(f, cx, ScriptableObject.getTopLevelScope(scope));
                return f;
            }
            return value;
        }
    }

    /** The one function a script can call into Java: counts and bounds collection operations, passes JSON. */
    private static final class HostFunction extends BaseFunction {
        private static final String OK = "{\"ok\":true}";
        private final transient ScriptHost host;
        private final transient ScriptBudget budget;
        private final transient Runtime runtime;

        HostFunction(ScriptHost host, ScriptBudget budget, Runtime runtime) {
            this.host = host;
            this.budget = budget;
            this.runtime = runtime;
        }

        /**
         * {@code host(op, args)}, or {@code host(op, null, link, doc, options, want)} for a document operation, whose
         * arguments are passed one by one so that no wrapper object is built in the script and walked here.
         */
        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            budget.check();
            String op = Context.toString(args[0]);
            if (COLLECTION_OPS.contains(op) && !budget.accept()) {
                return "{\"accepted\":false}";
            }
            JsValues values = runtime.values();
            com.fasterxml.jackson.databind.JsonNode json;
            try {
                if (args.length > 2) {
                    ObjectNode a = JSON.createObjectNode();
                    putIfDefined(a, "link", values.toJson(cx, scope, args[2]));
                    putIfDefined(a, "doc", args.length > 3 ? values.toJson(cx, scope, args[3]) : null);
                    putIfDefined(a, "options", args.length > 4 ? values.toJson(cx, scope, args[4]) : null);
                    a.put("want", args.length > 5 && ScriptRuntime.toBoolean(args[5]));
                    json = a;
                } else {
                    json = args.length > 1 ? values.toJson(cx, scope, args[1]) : null;
                }
            } catch (StoreException e) {
                return JSON.createObjectNode().put("ok", false).put("status", e.status()).put("message", e.getMessage())
                        .toString();
            }
            String out = host.call(op, json == null ? JSON.createObjectNode() : json);
            return OK.equals(out) ? runtime.ok() : out; // a bare success is the shared frozen {ok: true}
        }

        private static void putIfDefined(ObjectNode a, String name, com.fasterxml.jackson.databind.JsonNode v) {
            if (v != null) {
                a.set(name, v);
            }
        }
    }

    // ---- UDFs -------------------------------------------------------------------------------------------------

    /** Looks up a UDF body by name (null: no such UDF). */
    public interface UdfBodies {
        String body(String name);
    }

    /**
     * UDF calls of one query page: one scope, each UDF compiled once, every call bounded by the page's budget. UDFs
     * get no context (no {@code getContext}, no {@code __}): they are pure functions of their arguments.
     */
    public final class UdfSession {
        private final UdfBodies bodies;
        private final ScriptLimits sessionLimits = limits;
        private final ScriptBudget budget = new ScriptBudget(sessionLimits);
        private Scriptable scope;
        private Scriptable driver;
        private final Map<String, Object> functions = new java.util.HashMap<>();

        UdfSession(UdfBodies bodies) {
            this.bodies = bodies;
        }

        /** The instructions the session's calls ran (their CPU cost). */
        public synchronized long instructions() {
            return budget.instructions;
        }

        /**
         * The UDF's value, or null for undefined. Arguments and value cross as trees ({@link JsValues}), as
         * {@code JSON.parse} and {@code JSON.stringify} would carry them, without JSON text in between.
         */
        public synchronized com.fasterxml.jackson.databind.JsonNode call(String name,
                                                                          List<com.fasterxml.jackson.databind.JsonNode> args) {
            Context cx = factory.enterContext();
            Object previous = cx.getThreadLocal(BUDGET);
            cx.putThreadLocal(BUDGET, budget);
            try {
                ScriptableObject shared = runtime().shared();
                if (scope == null) {
                    Function install = runtime().install();
                    scope = cx.newObject(shared);
                    scope.setPrototype(shared);
                    scope.setParentScope(null);
                    ScriptHost none = (op, a) -> "{\"ok\":false,\"status\":400,\"message\":\"a UDF has no context\"}";
                    driver = (Scriptable) install.call(cx, shared, shared,
                            new Object[]{new HostFunction(none, budget, runtime()), scope, "udf", null});
                }
                Object fn = functions.get(name);
                if (fn == null) {
                    String body = bodies.body(name);
                    if (body == null) {
                        throw new StoreException(Status.BAD_REQUEST, "Unknown user-defined function 'udf." + name + "'.");
                    }
                    Compiled c = compile(body);
                    Scriptable own = cx.newObject(shared);
                    own.setPrototype(scope);
                    own.setParentScope(null);
                    Object value = c.script().exec(cx, own);
                    fn = c.entry() == null ? value : ScriptableObject.getProperty(own, c.entry());
                    if (!(fn instanceof Function)) {
                        throw new StoreException(Status.BAD_REQUEST, "udf." + name + " does not define a function");
                    }
                    functions.put(name, fn);
                }
                JsValues values = runtime().values();
                Object[] jsArgs = new Object[args.size()];
                for (int i = 0; i < jsArgs.length; i++) {
                    jsArgs[i] = values.fromJson(cx, scope, args.get(i));
                }
                Object out = ((Function) fn).call(cx, scope, scope, jsArgs);
                return values.toJson(cx, scope, out);
            } catch (ScriptStop e) {
                throw stopped(e, sessionLimits);
            } catch (RhinoException e) {
                StoreException se = scriptError(e);
                throw new StoreException(Status.BAD_REQUEST, "udf." + name + ": " + se.getMessage());
            } catch (StackOverflowError e) {
                throw new StoreException(Status.BAD_REQUEST, "udf." + name + ": Maximum call stack size exceeded");
            } catch (OutOfMemoryError e) {
                throw new StoreException(Status.BAD_REQUEST, "udf." + name + ": " + outOfMemory(sessionLimits).getMessage());
            } finally {
                cx.putThreadLocal(BUDGET, previous);
                Context.exit();
            }
        }
    }

    public UdfSession udfSession(UdfBodies bodies) {
        return new UdfSession(bodies);
    }
}
