package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.groovy.jsr223.GremlinGroovyScriptEngine;
import org.apache.tinkerpop.gremlin.server.GremlinServer;

import javax.script.ScriptEngine;

/**
 * The bound on gremlin-groovy's cache of compiled scripts (its {@code classMap}, keyed by script text). TinkerPop's
 * default keeps every distinct script with soft values, and a script that fails to compile is cached too, holding
 * its whole parse (the {@code SourceUnit} with its AST and import nodes, about 27 KB): a fuzz run's distinct broken
 * scripts grew the live heap after GC by 14-23 MB per half-million inputs, which soft references give back only when
 * the heap is nearly full. Gremlin Server lets the cache be specified (GroovyCompilerGremlinPlugin's
 * {@code classMapCacheSpecification}, a Caffeine spec); this one keeps at most {@link #MAX_SCRIPTS} scripts, least
 * recently used out first, still softly (a few huge scripts go under memory pressure before the count is reached).
 * Parameterized scripts, as TinkerPop recommends, need one entry each however many times they run.
 */
public final class CompiledScriptCache {
    public static final int MAX_SCRIPTS = 500;

    private CompiledScriptCache() {
    }

    /** The Caffeine specification handed to GroovyCompilerGremlinPlugin. */
    public static String specification() {
        return "maximumSize=" + MAX_SCRIPTS + ",softValues";
    }

    /** How many scripts the server's gremlin-groovy engine holds compiled now (Caffeine's estimate), or -1. */
    public static long size(GremlinServer server) {
        ScriptEngine engine = server.getServerGremlinExecutor().getGremlinExecutor().getScriptEngineManager()
                .getEngineByName("gremlin-groovy");
        return engine instanceof GremlinGroovyScriptEngine groovy ? groovy.getClassCacheEstimatedSize() : -1;
    }
}
