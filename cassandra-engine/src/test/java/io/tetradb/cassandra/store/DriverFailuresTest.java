package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.tetradb.core.StoreException;
import io.tetradb.core.storage.StorageUnavailableException;
import io.tetradb.core.storage.WriteOutcomeUnknownException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The driver's failures in the core's terms (default build): the driver exceptions that reached the faces unmapped
 * (the node-kill test's MongoDB client once got code 1 while a node was down) — e.g. a QUORUM read timing out on a
 * node just killed, before the write was sent — are now a 503 "not served, nothing done" the faces answer in their
 * conventions; a plain write sent and unanswered is an
 * unknown outcome (408); a bug (a syntax error) stays what it is.
 */
class DriverFailuresTest {
    private static RuntimeException read(RuntimeException e) {
        return assertThrows(RuntimeException.class, () -> DriverFailures.reading("a point read", () -> {
            throw e;
        }));
    }

    private static RuntimeException write(RuntimeException e) {
        return assertThrows(RuntimeException.class, () -> DriverFailures.writing("change-record deletes", () -> {
            throw e;
        }));
    }

    @Test
    void aReadThatCouldNotBeServedIs503NothingDone() {
        for (RuntimeException e : List.of(
                new ReadTimeoutException(null, DefaultConsistencyLevel.QUORUM, 1, 2, false),
                new UnavailableException(null, DefaultConsistencyLevel.QUORUM, 2, 1),
                new DriverTimeoutException("Query timed out after PT30S"),
                new ClosedConnectionException("Lost connection to remote peer"),
                NoNodeAvailableException.fromErrors(Map.of()))) {
            RuntimeException t = read(e);
            StorageUnavailableException u = assertInstanceOf(StorageUnavailableException.class, t, e.toString());
            assertEquals(503, u.status());
            assertSame(e, u.getCause());
        }
    }

    @Test
    void aPlainWriteRefusedBeforeSendingIs503AndOneSentAndUnansweredIsUnknown() {
        assertInstanceOf(StorageUnavailableException.class,
                write(new UnavailableException(null, DefaultConsistencyLevel.QUORUM, 2, 1)));
        assertInstanceOf(StorageUnavailableException.class, write(new NoNodeAvailableException()));
        WriteOutcomeUnknownException unknown = assertInstanceOf(WriteOutcomeUnknownException.class,
                write(new WriteTimeoutException(null, DefaultConsistencyLevel.QUORUM, 1, 2, DefaultWriteType.SIMPLE)));
        assertEquals(408, unknown.status());
        assertInstanceOf(WriteOutcomeUnknownException.class,
                write(new ClosedConnectionException("Lost connection to remote peer")));
    }

    @Test
    void allNodesFailedIsUnavailableOnlyWhenEveryNodeRefusedBeforeRunningIt() {
        AllNodesFailedException refused = AllNodesFailedException.fromErrors(List.of(
                Map.entry(node(), new UnavailableException(null, DefaultConsistencyLevel.QUORUM, 2, 1))));
        assertInstanceOf(StorageUnavailableException.class, write(refused));
        AllNodesFailedException inFlight = AllNodesFailedException.fromErrors(List.of(
                Map.entry(node(), new UnavailableException(null, DefaultConsistencyLevel.QUORUM, 2, 1)),
                Map.entry(node(), new ClosedConnectionException("Lost connection to remote peer"))));
        assertInstanceOf(WriteOutcomeUnknownException.class, write(inFlight));
    }

    @Test
    void aBugIsNotTheClustersStateAndStaysAsItIs() {
        SyntaxError bug = new SyntaxError(null, "line 1:0 no viable alternative");
        assertSame(bug, read(bug));
        assertSame(bug, write(bug));
        assertEquals(false, read(bug) instanceof StoreException);
    }

    private static com.datastax.oss.driver.api.core.metadata.Node node() {
        return (com.datastax.oss.driver.api.core.metadata.Node) java.lang.reflect.Proxy.newProxyInstance(
                DriverFailuresTest.class.getClassLoader(),
                new Class<?>[]{com.datastax.oss.driver.api.core.metadata.Node.class},
                (proxy, method, args) -> method.getName().equals("toString") ? "node" : method.getName()
                        .equals("hashCode") ? System.identityHashCode(proxy) : method.getName().equals("equals")
                        ? proxy == args[0] : null);
    }
}
