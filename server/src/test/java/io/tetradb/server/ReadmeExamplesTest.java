package io.tetradb.server;

import io.tetradb.testing.NodeClients;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client examples of the repository's README, run as written against a server: the code blocks whose info
 * string names a file (e.g. {@code ```js gremlin-example.mjs}) are taken from README.md, their default ports replaced
 * by the test server's, and run with the real clients (node with the npm packages, mongosh, javac and the Java
 * drivers), twice each, since the README says they can be run again.
 */
@Timeout(900)
class ReadmeExamplesTest {
    private static final Pattern NAMED_BLOCK = Pattern.compile("(?ms)^```\\w+ (\\S+)\\n(.*?)^```$");
    private static final long NODE_TIMEOUT_SECONDS = 120;

    @TempDir
    static Path dataDir;
    private static TetraDbServer server;
    private static Map<String, String> examples;

    @BeforeAll
    static void start() throws Exception {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withCosmosPort(0).withGremlinPort(0)
                .withMongoPort(0).withTablePort(0)).start();
        examples = examples(Files.readString(repositoryRoot().resolve("README.md")));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theCosmosJavaExampleRuns(@TempDir Path classes) throws Exception {
        String out = "";
        for (int run = 0; run < 2; run++) {
            out = runJava(classes, "CosmosExample");
        }
        assertEquals(List.of("30.5", "42.5"), out.strip().lines().toList());
    }

    @Test
    void theCosmosJavaScriptExampleRuns() throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("azure-cosmos-js.dir", "target/cosmos-js"));
        NodeClients.install(dir, "@azure/cosmos", System.getProperty("azure-cosmos-js.version", "4.10.1"));
        // as the README says: the served certificate, trusted through NODE_EXTRA_CA_CERTS
        Path pem = dir.resolve("tetradb.pem");
        Files.write(pem, java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://" + hostPort("cosmos") + "/_explorer/emulator.pem")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray()).body());
        Files.writeString(dir.resolve("cosmos-example.mjs"), example("cosmos-example.mjs"));
        String out = "";
        for (int run = 0; run < 2; run++) {
            out = NodeClients.run(dir, Map.of("NODE_EXTRA_CA_CERTS", pem.toAbsolutePath().toString()),
                    NODE_TIMEOUT_SECONDS, "node", "cosmos-example.mjs");
        }
        assertEquals(List.of("30.5", "[ 42.5 ]"), out.strip().lines().toList());
    }

    @Test
    void theGremlinJavaScriptExampleRuns() throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("gremlin.js.dir", "target/gremlin-js"));
        NodeClients.install(dir, "gremlin", System.getProperty("gremlin.js.version", "3.8.1"));
        String out = "";
        for (int run = 0; run < 2; run++) {
            out = runNode(dir, "gremlin-example.mjs");
        }
        assertTrue(out.contains("[ [ 'USA', 'Portland' ] ]"), out);
        assertTrue(out.contains("{ value: 174, done: false }"), out);
        assertTrue(out.contains("[ [ 'USA', 'Seattle' ] ]"), out);
    }

    @Test
    void theMongoshExampleRuns() throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("mongosh.dir", "target/mongosh"));
        NodeClients.install(dir, "mongosh", System.getProperty("mongosh.version", "2.12.0"));
        Files.writeString(dir.resolve("mongosh-example.js"), example("mongosh-example.js"));
        String out = "";
        for (int run = 0; run < 2; run++) {
            out = NodeClients.run(dir, NODE_TIMEOUT_SECONDS, "node", "node_modules/mongosh/bin/mongosh.js",
                    server.endpoint("mongo").url(), "--quiet", "--file", "mongosh-example.js");
        }
        assertTrue(out.contains("name: 'Ben Smith'") && !out.contains("name: 'Ana Lopez'"), out);
        assertTrue(out.contains("avgAge: 38.5"), out);
    }

    @Test
    void theTablesJavaScriptExampleRuns() throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("data-tables-js.dir", "target/data-tables-js"));
        NodeClients.install(dir, "@azure/data-tables", System.getProperty("data-tables-js.version", "13.3.2"));
        String out = "";
        for (int run = 0; run < 2; run++) {
            out = runNode(dir, "tables-example.mjs");
        }
        assertEquals(List.of("ben@contoso.com 42", "Ben"), out.strip().lines().toList());
    }

    @Test
    void theMongoJavaExampleRuns(@TempDir Path classes) throws Exception {
        String out = "";
        for (int run = 0; run < 2; run++) {
            out = runJava(classes, "MongoExample");
        }
        assertTrue(out.contains("\"_id\": \"ben\"") && out.contains("\"city\": \"Seattle\""), out);
    }

    @Test
    void theTablesJavaExampleRuns(@TempDir Path classes) throws Exception {
        String out = "";
        for (int run = 0; run < 2; run++) {
            out = runJava(classes, "TablesExample");
        }
        assertEquals("ben@contoso.com 42", out.strip());
    }

    /** Writes the example into {@code dir} (where its npm package is installed) and runs it with node. */
    private static String runNode(Path dir, String file) throws Exception {
        Files.writeString(dir.resolve(file), example(file));
        return NodeClients.run(dir, NODE_TIMEOUT_SECONDS, "node", file);
    }

    /** Compiles the example class with the test classpath (the drivers) and runs its main, returning what it printed. */
    private static String runJava(Path classes, String className) throws Exception {
        Path source = classes.resolve(className + ".java");
        Files.writeString(source, example(className + ".java"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "the tests run on a JDK");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, "-proc:none", "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), source.toString());
        assertEquals(0, status, className + " does not compile:\n" + diagnostics);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                ReadmeExamplesTest.class.getClassLoader())) {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream original = System.out;
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            try {
                loader.loadClass(className).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
            } finally {
                System.setOut(original);
            }
            return printed.toString(StandardCharsets.UTF_8);
        }
    }

    /** The README's example {@code file} with the default ports replaced by the running server's. */
    private static String example(String file) {
        String code = examples.get(file);
        assertNotNull(code, "README.md has no code block named " + file);
        return code.replace("localhost:8081", "localhost:" + server.endpoint("cosmos").address().getPort())
                .replace("127.0.0.1:8182", hostPort("gremlin"))
                .replace("127.0.0.1:27017", hostPort("mongo"))
                .replace("127.0.0.1:10002", hostPort("table"));
    }

    private static String hostPort(String face) {
        return Endpoint.hostPort(server.endpoint(face).address());
    }

    static Map<String, String> examples(String readme) {
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher m = NAMED_BLOCK.matcher(readme);
        while (m.find()) {
            blocks.put(m.group(1), m.group(2));
        }
        return blocks;
    }

    private static Path repositoryRoot() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isRegularFile(p.resolve("tetradb"))) {
                return p;
            }
        }
        throw new IllegalStateException("the repository root is not above " + Paths.get("").toAbsolutePath());
    }
}
