package io.tetradb.server.gremlin;

import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.gremlin.security.CompiledScriptCache;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gremlin-groovy's compiled-script cache stays bounded: 900 distinct scripts that fail to compile (what a fuzzer or a
 * client concatenating values into scripts sends) each get their 597, and afterwards the engine holds at most
 * {@link CompiledScriptCache#MAX_SCRIPTS} scripts (TinkerPop's default would hold all 900, each failure with its
 * whole parse tree); a parameterized script still runs. Through gremlin-driver. The other cache distinct scripts
 * reach, Groovy's parser DFA (its {@code ATNConfig}s), is emptied by Groovy every 64 parses
 * ({@code groovy.antlr4.cache.threshold}): {@link #groovysParserDfaIsEmptiedAsDistinctScriptsArrive}.
 */
class GremlinScriptCacheTest {
    static final int DISTINCT_BROKEN_SCRIPTS = 900;
    /** Caffeine evicts in its maintenance pass, which may trail the last writes by a few entries. */
    static final int EVICTION_SLACK = 64;

    @TempDir
    static Path dataDir;
    static TetraDbServer server;
    static GremlinEndpoint gremlin;
    static Cluster cluster;
    static Client client;

    @BeforeAll
    static void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)).start();
        gremlin = (GremlinEndpoint) server.endpoint("gremlin");
        InetSocketAddress a = gremlin.address();
        cluster = TestGremlin.cluster(a).create();
        client = cluster.connect();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void distinctBrokenScriptsDoNotAccumulate() throws Exception {
        for (int i = 0; i < DISTINCT_BROKEN_SCRIPTS; i += 10) {
            List<CompletableFuture<List<Result>>> inFlight = new ArrayList<>();
            for (int j = i; j < i + 10; j++) {
                inFlight.add(client.submitAsync("g.V().has('pk', 'k" + j + "').count(").thenCompose(r -> r.all()));
            }
            for (CompletableFuture<List<Result>> f : inFlight) {
                ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, f::get);
                ResponseException refused = assertInstanceOf(ResponseException.class, e.getCause());
                assertEquals(597, refused.getResponseStatusCode().getValue(), refused.getMessage());
            }
        }
        long cached = gremlin.compiledScriptsCached();
        assertTrue(cached <= CompiledScriptCache.MAX_SCRIPTS + EVICTION_SLACK, "compiled scripts cached: " + cached);

        client.submit("g.addV('p').property('pk', pk).property(T.id, vid)", java.util.Map.of("pk", "a", "vid", "v1"))
                .all().get();
        for (int i = 0; i < 20; i++) {
            assertEquals(1L, client.submit("g.V(vid).count()", java.util.Map.of("vid", List.of("a", "v1"))).one()
                    .getLong(), "a parameterized script, compiled once");
        }
    }

    @Test
    void groovysParserDfaIsEmptiedAsDistinctScriptsArrive() throws Exception {
        // Groovy's parser ATN is static: the DFA its predictions built for every script parsed in this JVM so far
        groovyjarjarantlr4.v4.runtime.atn.ATN parser = org.apache.groovy.parser.antlr4.GroovyLangParser._ATN;
        long before = dfaStates(parser);
        long max = before;
        boolean fell = false;
        // 3 x 64: at least two of Groovy's clears whatever count other tests' parses left; each script distinct
        for (int i = 0; i < 3 * 64; i++) {
            String script = "g.V().has('pk', 'p" + i + "').where(__.out('e" + (i * 7) + "').count().is(gt(" + i
                    + "))).values('v" + i + "'" + (i % 3 == 0 ? ")" : ").fold(");
            try {
                client.submit(script).all().get();
            } catch (ExecutionException | RuntimeException refusedOrFailed) {
                // a script that does not compile is answered 597; it was parsed all the same
            }
            long now = dfaStates(parser);
            fell |= now < max;
            max = Math.max(max, now);
        }
        assertTrue(fell, "the parser DFA only grew over 192 distinct scripts: " + before + " -> " + max + " states");
    }

    private static long dfaStates(groovyjarjarantlr4.v4.runtime.atn.ATN atn) {
        long n = 0;
        for (groovyjarjarantlr4.v4.runtime.dfa.DFA dfa : atn.decisionToDFA) {
            n += dfa.states.size();
        }
        return n;
    }
}
