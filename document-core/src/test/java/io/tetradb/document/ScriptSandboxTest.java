package io.tetradb.document;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.script.ScriptLimits;
import io.tetradb.testing.TestTime;
import io.tetradb.testing.TickingScriptClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.tetradb.document.ScriptTestSupport.M;
import static io.tetradb.document.ScriptTestSupport.exists;
import static io.tetradb.document.ScriptTestSupport.inT1;
import static io.tetradb.document.ScriptTestSupport.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bounds and sandbox: runaway scripts stop with 408 and roll back; no script reaches Java. The time bound is measured
 * on a {@link TickingScriptClock} (1 ms per reading, read every 10,000 instructions and at each operation), so what
 * stops a script is the work it did, never the machine's load; the tests check how far that clock went.
 */
class ScriptSandboxTest {
    static final Duration BOUND = Duration.ofMillis(400);
    static final Duration TICK = Duration.ofMillis(1);
    /** Readings of the clock in the bound: the first past it stops the script. */
    static final long BOUND_TICKS = BOUND.toMillis();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;
    CosmosScripts scripts;
    TickingScriptClock clock;

    @BeforeEach
    void open() throws Exception {
        clock = new TickingScriptClock(TICK);
        client = new CosmosClientBuilder().dataDirectory(dir).scriptLimits(ScriptLimits.DEFAULTS.withTimeout(BOUND)
                .withMaxAllocatedBytes(256L << 20).withClock(clock)).buildClient();
        c = ScriptTestSupport.library(client);
        scripts = c.getScripts();
    }

    @AfterEach
    void close() {
        client.close();
    }

    private CosmosException fails(String id, String body) {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties(id, body));
        return assertThrows(CosmosException.class, () -> scripts.getStoredProcedure(id).execute(null, inT1()));
    }

    @Test
    void aRunawayLoopIsStoppedWith408AndRolledBack() {
        String writeThenSpin = """
                function spin() {
                  var coll = getContext().getCollection();
                  coll.createDocument(coll.getSelfLink(), {id: "partial", tenant: "t1"});
                  coll.readDocument(coll.getAltLink() + "/docs/a1", function (err, a) {
                    a.countOfBooks = 99;
                    coll.replaceDocument(a._self, a, function () {
                      try { while (true) {} } catch (e) { getContext().getResponse().setBody("caught " + e); }
                    });
                  });
                }""";
        long before = clock.readings();
        CosmosException e = fails("spin", writeThenSpin);
        long ticks = clock.readings() - before;
        assertEquals(408, e.getStatusCode());
        assertTrue(e.getMessage().contains("400 ms"), e.getMessage());
        // its own bound stopped it, measured on its clock: the start's reading, 400 within the bound, the one past it
        // (Cosmos' 5 s would take 5,001; a bound read from another clock would stop it after a reading or two)
        assertTrue(ticks >= BOUND_TICKS + 2 && ticks <= BOUND_TICKS + 10,
                "stopped by its bound of 400 ms on the limits' clock: " + ticks + " readings");
        assertFalse(exists(c, "partial"));
        assertEquals(3, read(c, "a1").path("countOfBooks").asInt());
        // the partition is free again and the store keeps serving
        c.createItem(M.createObjectNode().put("id", "after").put("tenant", "t1"));
        assertTrue(exists(c, "after"));
        assertEquals(408, fails("plain", "function plain() { while (true) {} }").getStatusCode());
        assertEquals(408, fails("stubborn", "function stubborn() { for (;;) { try { while (true) {} } catch (e) {} finally { continue; } } }").getStatusCode());
    }

    @Test
    void theServersOwnClockStopsARunawayLoopToo() throws Exception {
        // the same bound on the real clock (what the server runs): the loop ends with 408; how long that took on this
        // machine is not asserted, the preemptive bound only ends a test that would otherwise hang
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir).scriptLimits(ScriptLimits.DEFAULTS.withTimeout(BOUND))
                .buildClient();
        c = client.getDatabase("db").getContainer("library");
        scripts = c.getScripts();
        CosmosException e = assertTimeoutPreemptively(TestTime.patience(Duration.ZERO),
                () -> fails("plain", "function plain() { while (true) {} }"));
        assertEquals(408, e.getStatusCode());
        assertTrue(e.getMessage().contains("400 ms"), e.getMessage());
    }

    @Test
    void aRunawayUdfFailsItsQueryWith408() {
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("forever",
                "function forever(x) { while (true) {} }"));
        CosmosException e = assertThrows(CosmosException.class, () -> c.queryItems(
                "SELECT VALUE udf.forever(c.id) FROM c", new CosmosQueryRequestOptions(),
                com.fasterxml.jackson.databind.JsonNode.class).stream().toList());
        assertEquals(408, e.getStatusCode());
        assertEquals(5, c.queryItems("SELECT VALUE c.id FROM c", new CosmosQueryRequestOptions(), String.class)
                .stream().count(), "the store keeps serving queries");
    }

    @Test
    void operationsNearTheBoundAreNotAccepted() throws Exception {
        // Cosmos DB's rule: operations are refused after 80 % of the bound. On the ticking clock the script's 80 ms of
        // grace are 80 readings (800,000 instructions) whatever the machine's load, far more than it needs to answer.
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("untilRefused", """
                function untilRefused() {
                  var coll = getContext().getCollection();
                  var n = 0;
                  for (;;) {
                    var x = 0;
                    for (var i = 0; i < 20000; i++) { x += i % 3; } // work between operations: time runs out first
                    if (!coll.readDocument(coll.getAltLink() + "/docs/a1")) break;
                    n++;
                  }
                  getContext().getResponse().setBody(n);
                }"""));
        long before = clock.readings();
        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("untilRefused").execute(null, inT1());
        long ticks = clock.readings() - before;
        int accepted = Integer.parseInt(r.getResponseAsString());
        assertEquals(200, r.getStatusCode(), "answered before the hard bound, no 408");
        assertTrue(accepted > 0 && accepted < ScriptLimits.DEFAULTS.maxOperations(),
                "refused by time (80% of the bound), not by the operation count: " + accepted);
        // the first refusal was the first reading past 80 % of the bound (320 of 400), and the script answered before
        // the bound: 322 readings up to the refusal, then the few its last instructions take
        assertTrue(ticks >= (long) (BOUND_TICKS * 0.8) + 2 && ticks <= BOUND_TICKS,
                "refused at 80 % of the bound on its clock: " + ticks + " readings");
    }

    @Test
    void scriptsCannotReachJava() {
        for (String reach : List.of(
                "java.lang.System.exit(1)",
                "Packages.java.lang.System.getProperty('user.home')",
                "Java.type('java.lang.System')",
                "new java.io.File('/etc/passwd')",
                "JavaImporter(java.io)",
                "importPackage(java.io)",
                "getContext().getCollection().getClass().forName('java.lang.Runtime')",
                "load('/etc/hostname')",
                "setTimeout(function () {}, 1)",
                "new Thread(function () {})",
                "readFile('/etc/passwd')",
                "org.mozilla.javascript.Context.getCurrentContext()")) {
            CosmosException e = fails("reach" + Math.abs(reach.hashCode()), "function reach() { return " + reach + "; }");
            assertEquals(400, e.getStatusCode(), reach);
            assertTrue(e.getMessage().contains("Encountered exception while executing function"), reach + ": " + e.getMessage());
        }
        // what a script can see of the host is plain JavaScript
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("look", """
                function look() {
                  var g = this;
                  getContext().getResponse().setBody([typeof Packages, typeof java, typeof Java, typeof getContext().getClass,
                      typeof __.getClass, typeof getContext().getCollection]);
                }"""));
        assertEquals("[\"undefined\",\"undefined\",\"undefined\",\"undefined\",\"undefined\",\"function\"]",
                scripts.getStoredProcedure("look").execute(null, inT1()).getResponseAsString());
    }

    @Test
    void executionsShareNothing() {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("tamper", """
                function tamper() {
                  leaked = "from an earlier execution";
                  var proto = Object.getPrototypeOf(getContext().getCollection());
                  try { proto.createDocument = function () { return "hijacked"; }; } catch (e) {}
                  try { Object.prototype.polluted = true; } catch (e) {}
                  try { JSON.parse = function () { return {}; }; } catch (e) {}
                }"""));
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("check", """
                function check() {
                  var coll = getContext().getCollection();
                  var created = coll.createDocument(coll.getSelfLink(), {id: "clean", tenant: "t1"});
                  getContext().getResponse().setBody([typeof leaked, created, ({}).polluted === undefined]);
                }"""));
        scripts.getStoredProcedure("tamper").execute(null, inT1());
        assertEquals("[\"undefined\",true,true]", scripts.getStoredProcedure("check").execute(null, inT1()).getResponseAsString());
        assertTrue(exists(c, "clean"));
    }

    @Test
    void aHugeStringFromOneBuiltInCallIsRefusedBeforeItIsMade() {
        // each asks the JVM for gigabytes in one call, between two checks of the allocation bound
        for (String huge : List.of("'x'.repeat(1e9)", "String.prototype.repeat.call('ab', 1e9)",
                "'x'.padStart(2e9)", "'x'.padEnd(2e9, 'y')", "new Array(1e9).join('x')")) {
            CosmosException e = fails("huge" + Math.abs(huge.hashCode()), "function huge() { var coll = getContext()"
                    + ".getCollection(); coll.createDocument(coll.getSelfLink(), {id: 'made', tenant: 't1'}); "
                    + "return " + huge + ".length; }");
            assertEquals(400, e.getStatusCode(), huge);
            assertTrue(e.getMessage().contains("RangeError: Invalid string length"), huge + ": " + e.getMessage());
        }
        assertFalse(exists(c, "made"));
        // within the bound the built-ins work as before
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("fits",
                "function fits() { getContext().getResponse().setBody(['ab'.repeat(3), '7'.padStart(3, '0'), "
                        + "'x'.padEnd(2), [1, 2].join('-'), 'y'.repeat(1000000).length]); }"));
        assertEquals("[\"ababab\",\"007\",\"x \",\"1-2\",1000000]",
                scripts.getStoredProcedure("fits").execute(null, inT1()).getResponseAsString());
    }

    @Test
    void memoryAndStackAreBounded() {
        // the allocation and stack bounds, not the time bound, must stop these scripts: Cosmos' 5 s on the ticking
        // clock is 5,000 readings (50 million instructions) whatever the load (at load 40 the wall clock's 5 s ran out
        // first: 408), so a 408 here means the memory or stack bound did not stop the script
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir).scriptLimits(ScriptLimits.DEFAULTS
                .withMaxAllocatedBytes(256L << 20).withClock(clock)).buildClient();
        c = client.getDatabase("db").getContainer("library");
        scripts = c.getScripts();
        CosmosException mem = fails("hog", "function hog() { var a = []; for (;;) { a.push('x'.repeat(1048576) + a.length); } }");
        assertEquals(400, mem.getStatusCode(), mem.toString());
        assertTrue(mem.getMessage().contains("allocated more than its bound of 268435456 bytes"), mem.getMessage());
        CosmosException deep = fails("deep", "function deep() { (function f(n) { return f(n + 1) + 1; })(0); }");
        assertEquals(400, deep.getStatusCode());
        c.createItem(M.createObjectNode().put("id", "still-serving").put("tenant", "t1"));
        ObjectNode back = read(c, "still-serving");
        assertEquals("still-serving", back.path("id").asText());
    }
}
