package io.tetradb.server.gremlin.security;

import org.codehaus.groovy.ast.ClassHelper;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.MethodNode;
import org.codehaus.groovy.ast.Parameter;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a Groovy Gremlin script may name: Gremlin's own types (traversals, predicates, tokens, elements), standard
 * value types (strings, numbers, dates, collections, {@code java.time}) and Groovy's collection and string helpers.
 * Everything else (files, processes, sockets, reflection, class loaders, {@code System}, threads, the script's own
 * binding and meta-classes) is outside the list, so refused: an allow-list, because a deny-list of the JDK is never
 * complete.
 */
final class SandboxRules {
    private SandboxRules() {
    }

    private static final String TRAVERSAL = "org.apache.tinkerpop.gremlin.process.traversal.";
    private static final String STRUCTURE = "org.apache.tinkerpop.gremlin.structure.";

    /** Types whose every public method, constructor and static field a script may use. */
    private static final Set<String> TYPES = Set.copyOf(List.of(
            // Gremlin
            TRAVERSAL + "dsl.graph.GraphTraversal", TRAVERSAL + "dsl.graph.GraphTraversalSource",
            TRAVERSAL + "dsl.graph.__", TRAVERSAL + "Traversal", TRAVERSAL + "TraversalSource",
            TRAVERSAL + "P", TRAVERSAL + "TextP", TRAVERSAL + "Order", TRAVERSAL + "Scope", TRAVERSAL + "Pop",
            TRAVERSAL + "Operator", TRAVERSAL + "Pick", TRAVERSAL + "Merge", TRAVERSAL + "DT", TRAVERSAL + "N",
            TRAVERSAL + "Compare", TRAVERSAL + "Contains", TRAVERSAL + "Text", TRAVERSAL + "Traverser",
            TRAVERSAL + "Path", TRAVERSAL + "SackFunctions$Barrier", TRAVERSAL + "GType",
            TRAVERSAL + "step.util.WithOptions", TRAVERSAL + "util.ConnectiveP", TRAVERSAL + "util.AndP",
            TRAVERSAL + "util.OrP",
            STRUCTURE + "T", STRUCTURE + "Column", STRUCTURE + "Direction", STRUCTURE + "Element",
            STRUCTURE + "Vertex", STRUCTURE + "Edge", STRUCTURE + "Property", STRUCTURE + "VertexProperty",
            STRUCTURE + "VertexProperty$Cardinality", STRUCTURE + "Transaction",
            // standard values
            "java.lang.String", "java.lang.CharSequence", "java.lang.StringBuilder", "java.lang.Integer",
            "java.lang.Long", "java.lang.Double", "java.lang.Float", "java.lang.Short", "java.lang.Byte",
            "java.lang.Boolean", "java.lang.Character", "java.lang.Number", "java.lang.Math", "java.lang.StrictMath",
            "java.lang.Comparable", "java.lang.Iterable", "java.lang.Enum",
            "java.math.BigDecimal", "java.math.BigInteger", "java.math.RoundingMode", "java.math.MathContext",
            "java.util.Collection", "java.util.List", "java.util.ArrayList", "java.util.LinkedList",
            "java.util.AbstractCollection", "java.util.AbstractList", "java.util.AbstractMap", "java.util.AbstractSet",
            "java.util.Map", "java.util.Map$Entry", "java.util.HashMap", "java.util.LinkedHashMap",
            "java.util.TreeMap", "java.util.SortedMap", "java.util.NavigableMap", "java.util.Set", "java.util.HashSet",
            "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.SortedSet", "java.util.NavigableSet",
            "java.util.Iterator", "java.util.ListIterator", "java.util.Date", "java.util.UUID", "java.util.Optional",
            "java.util.Arrays", "java.util.Collections", "java.util.Objects", "java.util.StringJoiner",
            "java.util.regex.Pattern", "java.util.regex.Matcher",
            // Groovy values
            "groovy.lang.GString", "groovy.lang.Range", "groovy.lang.IntRange", "groovy.lang.ObjectRange",
            "org.codehaus.groovy.runtime.GStringImpl"));

    /** Packages whose types are all values or Gremlin strategy builders (no I/O, no threads). */
    private static final List<String> PACKAGES = List.of("java.time.", TRAVERSAL + "strategy.");

    /** Methods of allowed types that still reach outside: system properties and the graph's own lifecycle. */
    private static final Map<String, Set<String>> REFUSED_METHODS = Map.of(
            "java.lang.Integer", Set.of("getInteger"),
            "java.lang.Long", Set.of("getLong"),
            "java.lang.Boolean", Set.of("getBoolean"),
            // a server-side file (io), another server (withRemote), an OLAP engine (withComputer)
            // ... and the strategies object that every request on this source shares (getStrategies)
            TRAVERSAL + "dsl.graph.GraphTraversalSource", Set.of("io", "withRemote", "withComputer", "getStrategies"),
            TRAVERSAL + "TraversalSource", Set.of("withRemote", "withComputer", "getStrategies"),
            TRAVERSAL + "Traversal", Set.of("forEachRemaining"));

    /** The graph: traversing and writing, not closing it, reading its configuration or files. */
    private static final Set<String> GRAPH_METHODS = Set.of("traversal", "vertices", "edges", "addVertex", "tx",
            "variables", "features", "toString");

    /** {@code Object}'s methods a script may call: not {@code getClass}, {@code wait}, {@code notify}. */
    private static final Set<String> OBJECT_METHODS = Set.of("toString", "equals", "hashCode");

    /** Groovy's extension methods for collections, strings and numbers (not sleep, execute, getText of a file…). */
    private static final Set<String> GROOVY_METHODS = Set.copyOf(List.of("each", "eachWithIndex", "collect", "collectEntries",
            "collectMany", "collectNested", "find", "findAll", "findResult", "findResults", "findIndexOf",
            "findIndexValues", "findLastIndexOf", "any", "every", "inject", "sum", "max", "min", "sort", "toSorted",
            "reverse", "reverseEach", "unique", "toUnique", "groupBy", "countBy", "count", "size", "first", "last",
            "head", "tail", "init", "take", "takeWhile", "drop", "dropWhile", "join", "plus", "minus", "multiply",
            "div", "intdiv", "power", "mod", "remainder", "leftShift", "rightShift", "getAt", "putAt", "isCase",
            "contains", "containsAll", "toList", "toSet", "asList", "flatten", "transpose", "withIndex", "indexed",
            "intersect", "disjoint", "step", "upto", "downto", "times", "abs", "round", "toInteger", "toLong",
            "toDouble", "toFloat", "toBigDecimal", "toBigInteger", "toString", "center", "padLeft", "padRight",
            "capitalize", "uncapitalize", "tokenize", "split", "replaceAll", "replaceFirst", "isNumber", "isInteger",
            "isLong", "isDouble", "isBigDecimal", "isBigInteger", "toUpperCase", "toLowerCase", "asBoolean",
            "asImmutable", "asUnmodifiable", "subMap", "collate", "average", "grep", "iterator", "isEmpty",
            "stripIndent", "stripMargin", "next", "previous", "equals", "compareTo", "negative", "positive",
            "bitwiseNegate", "and", "or", "xor", "get", "getOrDefault", "withDefault", "keySet", "values",
            "entrySet", "push", "pop", "removeAll", "retainAll", "addAll", "swap", "format", "trim", "size",
            "eachLine", "readLines", "sprintf", "toSpreadMap", "denormalize", "normalize"));

    /** Classes whose extension methods are Groovy's plain collection, string and number helpers. */
    private static final Set<String> GROOVY_HELPERS = Set.of("org.codehaus.groovy.runtime.DefaultGroovyMethods",
            "org.codehaus.groovy.runtime.StringGroovyMethods");

    static boolean allowedType(ClassNode type) {
        if (type.isArray()) {
            return allowedType(type.getComponentType());
        }
        if (ClassHelper.isPrimitiveType(type) || ClassHelper.isPrimitiveVoid(type)) {
            return true;
        }
        String name = type.getName();
        return TYPES.contains(name) || PACKAGES.stream().anyMatch(name::startsWith)
                || name.equals(STRUCTURE + "Graph") || name.equals("java.lang.Object");
    }

    /**
     * Whether a script may call {@code method}. A method declared by an implementation (a vertex of this graph) is
     * allowed when it implements an allowed type's method of the same signature.
     */
    static boolean allowedMethod(MethodNode method) {
        ClassNode owner = method.getDeclaringClass();
        if (owner == null) {
            return false;
        }
        String name = method.getName();
        String ownerName = owner.getName();
        if (GROOVY_HELPERS.contains(ownerName)) {
            Parameter[] params = method.getParameters();
            // the receiver of an extension method is its first parameter: Object would let it reach anything
            return GROOVY_METHODS.contains(name) && params.length > 0 && !isObject(params[0].getOriginType())
                    && allowedType(params[0].getOriginType().redirect()) && !readsPropertyByName(method);
        }
        if (ownerName.equals("groovy.lang.Closure")) {
            return name.equals("call");
        }
        if (ownerName.equals("java.lang.Object")) {
            return OBJECT_METHODS.contains(name);
        }
        if (ownerName.equals(STRUCTURE + "Graph")) {
            return GRAPH_METHODS.contains(name);
        }
        if (allowedType(owner)) {
            return !REFUSED_METHODS.getOrDefault(ownerName, Set.of()).contains(name) && !changesSharedStrategies(method);
        }
        return implementsAllowed(owner, method, new HashSet<>());
    }

    private static boolean implementsAllowed(ClassNode type, MethodNode method, Set<String> seen) {
        if (type == null || !seen.add(type.getName())) {
            return false;
        }
        if (!type.equals(method.getDeclaringClass()) && (allowedType(type) || type.getName().equals(STRUCTURE + "Graph"))) {
            MethodNode declared = type.getDeclaredMethod(method.getName(), method.getParameters());
            if (declared != null) {
                return allowedMethod(declared);
            }
        }
        if (implementsAllowed(type.getSuperClass(), method, seen)) {
            return true;
        }
        for (ClassNode i : type.getInterfaces()) {
            if (implementsAllowed(i, method, seen)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code list.getAt('name')} and {@code list.putAt('name', v)} (not on maps or strings) read or write a property
     * of each element by its name, at run time: the dynamic way around every check here ({@code [System].getAt('env')}).
     */
    private static boolean readsPropertyByName(MethodNode method) {
        Parameter[] params = method.getParameters();
        if (!(method.getName().equals("getAt") || method.getName().equals("putAt")) || params.length < 2
                || !params[1].getOriginType().getName().equals("java.lang.String")) {
            return false;
        }
        ClassNode self = params[0].getOriginType().redirect();
        return !self.getName().equals("java.lang.String") && !self.getName().equals("java.lang.CharSequence")
                && !self.implementsInterface(ClassHelper.MAP_TYPE) && !self.equals(ClassHelper.MAP_TYPE);
    }

    /** Strategy helpers that add to a {@code TraversalStrategies} in place (the one {@code g} shares with all). */
    private static boolean changesSharedStrategies(MethodNode method) {
        for (Parameter p : method.getParameters()) {
            if (p.getOriginType().getName().equals(TRAVERSAL + "TraversalStrategies")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isObject(ClassNode type) {
        return type.redirect().getName().equals("java.lang.Object");
    }

    /** Gremlin's own types: a closure handed to one of their methods is a lambda in a traversal. */
    static boolean isGremlin(ClassNode type) {
        return type.getName().startsWith("org.apache.tinkerpop.");
    }
}
