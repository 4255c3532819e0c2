package io.tetradb.server.gremlin;

import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.gremlin.security.InterruptibleRepeatStrategy;
import io.tetradb.server.gremlin.security.NoServerFilesStrategy;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.util.function.Lambda;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scripts reach Gremlin and values, nothing of the host: each hostile form is refused with an error status and a
 * one-line message, has no effect (files it would write stay absent), and the server keeps serving — through
 * gremlin-groovy and gremlin-lang scripts, in a session, and through bytecode. Ordinary Gremlin still runs.
 */
class GremlinSandboxTest {
    @TempDir
    static Path dataDir;
    @TempDir
    static Path outside;

    static TetraDbServer server;
    static GremlinEndpoint gremlin;
    static Cluster cluster;
    static Client client;

    @BeforeAll
    static void start() throws Exception {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)).start();
        gremlin = (GremlinEndpoint) server.endpoint("gremlin");
        cluster = TestGremlin.cluster(gremlin.address()).create();
        client = cluster.connect();
        run(client, "g.addV('city').property('pk','S').property(T.id,'a').property('name','Arles').property('pop',52).as('a')."
                + "addV('city').property('pk','S').property(T.id,'b').property('name','Bordeaux').property('pop',260).as('b')."
                + "addV('city').property('pk','S').property(T.id,'c').property('name','Caen').property('pop',105)."
                + "addE('road').from('a').to('b').property(T.id,'ab').iterate()");
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

    static List<Object> run(Client c, String script) throws Exception {
        return c.submit(script).all().get().stream().map(Result::getObject).toList();
    }

    static List<Object> run(Client c, String script, Map<String, Object> bindings) throws Exception {
        return c.submit(script, bindings).all().get().stream().map(Result::getObject).toList();
    }

    /** What an attacker would send, with the files it would create if it ran (they must stay absent). */
    static List<String> hostileScripts() {
        String pwned = outside.resolve("pwned").toString();
        String admin = "http://" + server.endpoint("admin").address().getAddress().getHostAddress() + ":"
                + server.endpoint("admin").address().getPort() + "/health";
        return List.of(
                "new File('/etc/hostname').text",
                "new File('" + pwned + "').text = 'x'",
                "'id'.execute().text",
                "'touch " + pwned + "'.execute().waitFor()",
                "['touch', '" + pwned + "'].execute()",
                "new URL('" + admin + "').text",
                "new Socket('127.0.0.1', " + gremlin.address().getPort() + ")",
                "System.exit(3)",
                "System.getenv()",
                "System.properties",
                "System.getProperty('user.home')",
                "Integer.getInteger('java.version')",
                "Runtime.getRuntime().exec('touch " + pwned + "')",
                "new ProcessBuilder('touch', '" + pwned + "').start()",
                "Class.forName('java.lang.Runtime')",
                "this.class.classLoader",
                "getClass().getClassLoader()",
                "''.getClass().forName('java.lang.Runtime')",
                "''.class.forName('java.lang.Runtime')",
                "String.metaClass.pwn = { -> 1 }",
                "''.metaClass",
                "binding.variables",
                "this.binding",
                "Thread.start { }",
                "new Thread({ -> }).start()",
                "Thread.sleep(10)",
                "sleep(10)",
                "Eval.me('1 + 1')",
                "evaluate('1 + 1')",
                "new GroovyShell().evaluate('1')",
                "'1'.with { System.exit(3) }",
                "''.invokeMethod('execute', null)",
                "def m = 'touch " + pwned + "'.&execute; m()",
                "File f = ['" + pwned + "']; f.text = 'x'",
                "(['" + pwned + "'] as File).text = 'x'",
                "java.nio.file.Files.readAllLines(java.nio.file.Paths.get('/etc/hostname'))",
                "@Grab('org.apache.commons:commons-lang3:3.12.0') import org.apache.commons.lang3.StringUtils; 1",
                "@groovy.transform.CompileDynamic def f() { new File('/etc/hostname').text }; f()",
                "@groovy.transform.ASTTest(value = { System.exit(3) }) def x = 1; x",
                "class Evil { static go() { new File('/etc/hostname').text } }; Evil.go()",
                "graph.close()",
                "g.getGraph().close()",
                "g.io('/etc/hostname').read()",
                "org.apache.tinkerpop.gremlin.util.function.Lambda.function('System.exit(3)')",
                "new org.apache.tinkerpop.gremlin.process.traversal.util.ScriptTraversal(g, 'gremlin-groovy', 'System.exit(3)')",
                "g.V().map { it.get() }",
                "g.V().filter { true }.count()",
                "def c = { it }; g.V().map(c)",
                "g.V().sideEffect { System.exit(3) }",
                "[System].getAt('env')",
                "[System]*.env",
                "[''].getAt('class')",
                "[this].getAt('binding')",
                "[System].getAt(0).getenv()",
                "g.withoutStrategies(io.tetradb.server.gremlin.security.InterruptibleRepeatStrategy).V().count()",
                "g.getStrategies()",
                "org.apache.tinkerpop.gremlin.process.traversal.strategy.optimization.PathRetractionStrategy"
                        + ".MAX_BARRIER_SIZE = 1",
                "org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.SideEffectStrategy"
                        + ".addSideEffect(g.getStrategies(), 'x', 1, null)");
    }

    /** Each hostile script, sent as given: refused, said on one line, no effect, and the client still served. */
    private static void eachRefused(String how, java.util.function.Function<String, Object> send) throws Exception {
        List<String> accepted = new ArrayList<>();
        for (String script : hostileScripts()) {
            try {
                Object answer = send.apply(script);
                accepted.add(script + " -> " + answer);
            } catch (CompletionException | IllegalStateException e) {
                ResponseException refused = responseException(e);
                assertTrue(refused.getResponseStatusCode() != ResponseStatusCode.SUCCESS, script);
                String message = refused.getMessage();
                assertFalse(message.contains("\n") || message.contains("\tat "), how + ": " + script + " -> " + message);
            }
        }
        assertEquals(List.of(), accepted, how + ": scripts that ran");
        assertFalse(Files.exists(outside.resolve("pwned")), how + ": a refused script wrote a file");
        assertEquals(List.of("Arles"), run(client, "g.V(['S','a']).values('name')"), "still serving");
    }

    static ResponseException responseException(Throwable e) {
        Throwable t = e;
        while (t != null && !(t instanceof ResponseException)) {
            t = t.getCause();
        }
        return assertInstanceOf(ResponseException.class, t, String.valueOf(e));
    }

    static Object send(Client c, String script, RequestOptions options) {
        try {
            return c.submit(script, options).all().get().stream().map(Result::getObject).toList();
        } catch (ExecutionException e) {
            throw new CompletionException(e.getCause());
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void hostileGroovyScriptsAreRefused() throws Exception {
        eachRefused("gremlin-groovy", s -> send(client, s, RequestOptions.EMPTY));
        // the reason, for two of them
        ResponseException file = responseException(assertThrows(CompletionException.class,
                () -> send(client, "new File('/etc/hostname').text", RequestOptions.EMPTY)));
        assertEquals(ResponseStatusCode.SERVER_ERROR_EVALUATION, file.getResponseStatusCode());
        assertEquals("not allowed in a Gremlin script: java.io.File#<init>(java.lang.String) @ line 1, column 1.",
                file.getMessage());
        ResponseException lambda = responseException(assertThrows(CompletionException.class,
                () -> send(client, "g.V().map { it.get() }", RequestOptions.EMPTY)));
        assertTrue(lambda.getMessage().startsWith("lambdas are not supported in traversals: map()"), lambda.getMessage());
    }

    @Test
    void hostileGremlinLangScriptsAreRefused() throws Exception {
        RequestOptions lang = RequestOptions.build().language("gremlin-lang").create();
        eachRefused("gremlin-lang", s -> send(client, s, lang));
        ResponseException io = responseException(assertThrows(CompletionException.class,
                () -> send(client, "g.io('/etc/hostname').read()", lang)));
        assertTrue(io.getMessage().contains("io() is not supported"), io.getMessage());
    }

    @Test
    void hostileScriptsAreRefusedInASession() throws Exception {
        Client session = cluster.connect("sandbox-session");
        try {
            eachRefused("session", s -> send(session, s, RequestOptions.EMPTY));
            run(session, "x = g.V(['S','b']).values('name').next()");
            assertEquals(List.of("Bordeaux"), run(session, "x"));
            // a session variable does not open the sandbox: its type's methods are checked like any other
            ResponseException e = responseException(assertThrows(CompletionException.class,
                    () -> send(session, "x.getClass().forName('java.lang.Runtime')", RequestOptions.EMPTY)));
            assertTrue(e.getMessage().startsWith("not allowed in a Gremlin script: java.lang.Object#getClass()"),
                    e.getMessage());
        } finally {
            session.close();
        }
    }

    @Test
    void bytecodeWithLambdasOrFileAccessIsRefused() throws Exception {
        GraphTraversalSource g = traversal().withRemote(DriverRemoteConnection.using(cluster, "g"));
        try {
            List<Supplier<Object>> hostile = List.of(
                    () -> g.V().map(Lambda.function("it.get()")).toList(),
                    () -> g.V().filter(Lambda.predicate("true")).toList(),
                    () -> g.V().sideEffect(Lambda.consumer("System.exit(3)")).toList(),
                    () -> g.io("/etc/hostname").read().toList(),
                    () -> g.withoutStrategies(NoServerFilesStrategy.class).io("/etc/hostname").read().toList(),
                    () -> g.withoutStrategies(InterruptibleRepeatStrategy.class).V().count().toList());
            for (Supplier<Object> traversal : hostile) {
                Exception e = assertThrows(Exception.class, traversal::get);
                ResponseException refused = responseException(e);
                assertFalse(refused.getMessage().contains("\n"), refused.getMessage());
            }
            assertEquals(List.of("Arles"), g.V(List.of("S", "a")).values("name").toList());
            // a class named in a request is loaded only from Gremlin's and the JDK's value packages
            ResponseException socketClass = responseException(assertThrows(ExecutionException.class,
                    () -> client.submit("x", Map.of("x", java.net.Socket.class)).all().get()));
            assertEquals(ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST, socketClass.getResponseStatusCode());
        } finally {
            g.close();
        }
    }

    @Test
    void httpPostIsNotAWayIn() throws Exception {
        // Gremlin Server here speaks WebSocket only: an HTTP POST /gremlin evaluates nothing
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(
                        "http://" + gremlin.address().getAddress().getHostAddress() + ":" + gremlin.address().getPort()
                                + "/gremlin"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"gremlin\":\"new File('/etc/hostname').text\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertNotEquals(200, response.statusCode(), response.body());
        assertFalse(Files.exists(outside.resolve("pwned")));
        assertEquals(List.of("Arles"), run(client, "g.V(['S','a']).values('name')"));
    }

    @Test
    void ordinaryGremlinStillRuns() throws Exception {
        assertEquals(List.of("Arles", "Caen"),
                run(client, "g.V().has('pop', P.lt(200)).values('name').order()"));
        assertEquals(List.of("Bordeaux", "Caen"),
                run(client, "g.V().has('name', TextP.containing('a')).values('name').order()"));
        assertEquals(List.of("Bordeaux", "Caen"),
                run(client, "g.V().has('name', within('Bordeaux','Caen')).values('name').order()"));
        assertEquals(List.of("Bordeaux", "Caen", "Arles"),
                run(client, "g.V().order().by('pop', Order.desc).values('name')"));
        assertEquals(List.of(List.of("S", "b")), run(client, "g.V(['S','a']).out('road').id()"));
        assertEquals(List.of("Arles"), run(client, "g.V().where(__.out('road')).values('name')"));
        assertEquals(List.of(Map.of("n", "Arles", "p", 52)),
                run(client, "g.V(['S','a']).project('n','p').by('name').by('pop')"));
        assertEquals(List.of("name"), run(client, "g.V(['S','a']).valueMap('name').select(Column.keys).unfold()"));
        assertEquals(List.of(3L), run(client, "g.V().fold().count(Scope.local)"));
        assertEquals(List.of(List.of("S", "a")), run(client, "g.V().has(T.id, 'a').id()"));
        assertEquals(List.of("Caen"), run(client, "g.V().has('pk', p).has('name', n).values('name')",
                Map.of("p", "S", "n", "Caen")));
        // the same script text with bindings of other types (the compiled script is cached by its text)
        assertEquals(List.of(52), run(client, "g.V().has('pk','S').has(k, v).values('pop')", Map.of("k", "name", "v", "Arles")));
        assertEquals(List.of(52), run(client, "g.V().has('pk','S').has(k, v).values('pop')", Map.of("k", "pop", "v", 52)));
        assertEquals(List.of(2L), run(client, "g.V().limit(n).count()", Map.of("n", 2)));
        assertEquals(List.of(2L), run(client, "g.V().limit(n).count()", Map.of("n", 2L)));
        // plain Groovy around the traversal
        assertEquals(List.of(3), run(client, "def names = g.V().values('name').toList(); names.size()"));
        assertEquals(List.of(2, 4, 6), run(client, "(1..3).collect { it * 2 }"));
        assertEquals(List.of("ARLES"), run(client, "(g.V(['S','a']).values('name').next() as String).toUpperCase()"));
        assertEquals(List.of(3), run(client, "def f(int a) { a + 1 }; f(2)"));
        assertEquals(List.of(7), run(client, "Math.max(3, 7)"));
        assertEquals(List.of(new java.util.Date(1000)), run(client, "new Date(1000)"));
        assertEquals(List.of(Map.of("a", 1)), run(client, "[a: 1]"));
        assertEquals(List.of(1), run(client, "def m = [a: 1]; m.a"));
        assertEquals(List.of("x1"), run(client, "def i = 1; \"x${i}\".toString()"));
        assertEquals(List.of(2L), run(client, "g.V().hasLabel('city').has('pop', gt(100)).count()"));
        assertEquals(List.of("Arles"), run(client, "g.V(['S','a']).toList().first().value('name')"));
        // a long repeat().times(n) is a loop, not unrolled: the same answers, by script, gremlin-lang and bytecode
        assertEquals(List.of("Bordeaux"), run(client, "g.V(['S','a']).repeat(both('road')).times(101).values('name')"));
        assertEquals(List.of("Arles"), run(client, "g.V(['S','a']).repeat(both('road')).times(100).values('name')"));
        assertEquals(List.of("Bordeaux"), send(client, "g.V(['S','a']).repeat(both('road')).times(3).values('name')",
                RequestOptions.build().language("gremlin-lang").create()));
        GraphTraversalSource remote = traversal().withRemote(DriverRemoteConnection.using(cluster, "g"));
        assertEquals(List.of(102L), remote.V(List.of("S", "a")).repeat(__.both("road")).times(101).path()
                .count(org.apache.tinkerpop.gremlin.process.traversal.Scope.local).toList());
        remote.close();
        // what Console users type: static imports of tokens, options, mergeV with T keys, groups, paths
        assertEquals(List.of("Caen"), run(client, "g.V().has('pk','S').order().by('name', desc).limit(1).values('name')"));
        assertEquals(List.of(106), run(client, "g.V(['S','c']).property(single, 'pop', 106).values('pop')"));
        assertEquals(List.of(Map.of("city", 3L)), run(client, "g.V().group().by(T.label).by(__.count())"));
        assertEquals(List.of(Map.of("city", 3L)), run(client, "g.V().groupCount().by(label)"));
        assertEquals(List.of(3), run(client, "g.V(['S','a']).outE().inV().path().next().size()"));
        assertEquals(List.of("Dax"), run(client, "g.mergeV([(T.id): 'd', pk: 'S', name: 'Dax']).values('name')"));
        assertEquals(List.of("Arles"), run(client,
                "g.V(['S','a']).valueMap().with(WithOptions.tokens).select('name').unfold()"));
        assertEquals(List.of("Arles"), run(client, "g.V(['S','a']).elementMap().select('name')"));
        assertEquals(List.of(true), run(client, "g.V(['S','a']).hasNext()"));
        assertEquals(List.of(3L), run(client, "g.V().hasLabel('city').count().next()"));
        assertEquals(List.of(List.of("Arles", "Caen")),
                run(client, "g.V().has('pk','S').has('pop', between(50, 110)).values('name').order().fold()"));
    }

    @Test
    void errorsAreAnsweredOnOneLineWithoutAStackTrace() throws Exception {
        RequestOptions lang = RequestOptions.build().language("gremlin-lang").create();
        for (Object[] c : new Object[][] {
                {"g.V(", RequestOptions.EMPTY},
                {"g.V().foo()", RequestOptions.EMPTY},
                {"g.V().has('pk','none').next()", RequestOptions.EMPTY},
                {"1 / 0", RequestOptions.EMPTY},
                {"g.addV('city').property('name','no partition key')", RequestOptions.EMPTY},
                {"g.V(", lang},
                {"g.V().foo()", lang},
                {"g.V().has('pk','none').next()", lang}}) {
            ResponseException e = responseException(assertThrows(CompletionException.class,
                    () -> send(client, (String) c[0], (RequestOptions) c[1])));
            String message = e.getMessage();
            assertTrue(message != null && !message.isBlank() && !message.contains("\n") && !message.contains("\tat "),
                    c[0] + " -> " + message);
            assertTrue(e.getRemoteStackTrace().isEmpty(), c[0] + ": the server's stack trace was sent");
        }
        ResponseException unknown = responseException(assertThrows(CompletionException.class,
                () -> send(client, "g.V().foo()", RequestOptions.EMPTY)));
        assertTrue(unknown.getMessage().contains("foo()"), unknown.getMessage());
    }
}
