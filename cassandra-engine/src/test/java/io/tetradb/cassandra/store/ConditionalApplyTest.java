package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import io.tetradb.core.storage.StorageUnavailableException;
import io.tetradb.core.storage.WriteOutcomeUnknownException;
import io.tetradb.core.storage.partition.ApplyResult;
import io.tetradb.core.storage.partition.LogicalPartition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.UUID;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The settling of a conditional batch's outcome against a scripted Cassandra (a test double of its rounds): the
 * timeouts the 3-node cluster produced under contention, injected at will. Runs in the default build.
 */
class ConditionalApplyTest {
    private static final LogicalPartition P = new LogicalPartition(1, "pk".getBytes(StandardCharsets.UTF_8));
    private static final UUID OURS = UUID.randomUUID();
    private static final UUID THEIRS = UUID.randomUUID();

    /** Answers each round from a script, in order; counts the SERIAL reads. */
    private static final class Script implements ConditionalApply.Rounds {
        final Deque<Supplier<ConditionalApply.Sent>> sends = new ArrayDeque<>();
        final Deque<Supplier<ConditionalApply.Mark>> marks = new ArrayDeque<>();
        final Deque<Supplier<Long>> versions = new ArrayDeque<>();
        int sent;
        int markReads;

        @Override
        public ConditionalApply.Sent send() {
            sent++;
            return sends.removeFirst().get();
        }

        @Override
        public ConditionalApply.Mark markAtSerial(long version) {
            markReads++;
            return marks.removeFirst().get();
        }

        @Override
        public long versionAtSerial() {
            return versions.removeFirst().get();
        }
    }

    private static CASWriteUnknownException unknown() {
        return new CASWriteUnknownException(null, DefaultConsistencyLevel.SERIAL, 1, 2);
    }

    private static ReadTimeoutException serialReadTimeout() {
        return new ReadTimeoutException(null, DefaultConsistencyLevel.SERIAL, 1, 2, false);
    }

    @Test
    void aTimedOutBatchThatAppliedBeforeAnotherWriterMovedOnIsReportedApplied() {
        // our batch (5 -> 6) was accepted by a quorum but its answer timed out; another writer then set 7 (and the
        // partition's static txid): the mark slot of version 6 still names us
        Script s = new Script();
        s.sends.add(() -> { throw unknown(); });
        s.marks.add(() -> new ConditionalApply.Mark(OURS, 6));
        ApplyResult r = ConditionalApply.run(s, P, OURS, 5, 6);
        assertTrue(r.applied(), "a write that happened is never reported as not applied");
        assertEquals(6, r.version());
        assertEquals(1, s.sent);
    }

    @Test
    void aResendThatLostToOurOwnEarlierAttemptIsReportedApplied() {
        // the first settling read's quorum missed the one replica that had accepted our proposal: no mark, still at
        // the expected version, so the batch is sent again; meanwhile another writer's round completed our proposal
        // (6) and then wrote its own (7): the resend is refused, and the mark read again settles it
        Script s = new Script();
        s.sends.add(() -> { throw unknown(); });
        s.marks.add(() -> null);
        s.versions.add(() -> 5L);
        s.sends.add(() -> new ConditionalApply.Sent(false, 7));
        s.marks.add(() -> new ConditionalApply.Mark(OURS, 6));
        ApplyResult r = ConditionalApply.run(s, P, OURS, 5, 6);
        assertTrue(r.applied());
        assertEquals(2, s.sent);
        assertEquals(2, s.markReads);
    }

    @Test
    void anotherTransactionsMarkAtOurVersionMeansNotApplied() {
        Script s = new Script();
        s.sends.add(() -> { throw unknown(); });
        s.marks.add(() -> new ConditionalApply.Mark(THEIRS, 6));
        ApplyResult r = ConditionalApply.run(s, P, OURS, 5, 6);
        assertFalse(r.applied());
    }

    @Test
    void noMarkAndTheVersionMovedOnIsReadTwiceBeforeAnsweringNotApplied() {
        Script s = new Script();
        s.sends.add(() -> { throw unknown(); });
        s.marks.add(() -> null);
        s.versions.add(() -> 9L); // others jumped past 6 (their versions skip it)
        s.marks.add(() -> null);
        ApplyResult r = ConditionalApply.run(s, P, OURS, 5, 6);
        assertFalse(r.applied());
        assertEquals(9, r.version());
        assertEquals(2, s.markReads);
    }

    @Test
    void theSecondMarkReadFindsAProposalTheFirstMissed() {
        Script s = new Script();
        s.sends.add(() -> { throw unknown(); });
        s.marks.add(() -> null);
        s.versions.add(() -> 7L);
        s.marks.add(() -> new ConditionalApply.Mark(OURS, 6));
        assertTrue(ConditionalApply.run(s, P, OURS, 5, 6).applied());
    }

    @Test
    void settlingReadsThatKeepTimingOutAreAnUnknownOutcomeNotARefusal() {
        Script s = new Script();
        s.sends.add(() -> { throw unknown(); });
        for (int i = 0; i < ConditionalApply.SETTLE_ATTEMPTS; i++) {
            s.marks.add(() -> { throw serialReadTimeout(); });
        }
        WriteOutcomeUnknownException e = assertThrows(WriteOutcomeUnknownException.class,
                () -> ConditionalApply.run(s, P, OURS, 5, 6));
        assertTrue(e instanceof OutcomeUnknownException);
        assertEquals(408, e.status(), "the core's status for a write of unknown outcome (Cosmos DB's 408)");
    }

    @Test
    void aMarkSlotReusedByALaterVersionIsAnUnknownOutcome() {
        Script s = new Script();
        s.sends.add(() -> { throw unknown(); });
        s.marks.add(() -> new ConditionalApply.Mark(THEIRS, 6 + ConditionalApply.MARK_SLOTS));
        assertThrows(OutcomeUnknownException.class, () -> ConditionalApply.run(s, P, OURS, 5, 6));
    }

    @Test
    void aFreshRefusalIsExactWithoutReads() {
        Script s = new Script();
        s.sends.add(() -> new ConditionalApply.Sent(false, 8));
        ApplyResult r = ConditionalApply.run(s, P, OURS, 5, 6);
        assertFalse(r.applied());
        assertEquals(8, r.version());
        assertEquals(0, s.markReads);
    }

    @Test
    void markSlotsWrapAtSixtyFour() {
        assertEquals(ConditionalApply.slot(3), ConditionalApply.slot(3 + ConditionalApply.MARK_SLOTS));
        assertEquals(ConditionalApply.Mark.decode(new ConditionalApply.Mark(OURS, 42).encode()),
                new ConditionalApply.Mark(OURS, 42));
    }
    @Test
    void aFirstSendRefusedForWantOfReplicasAppliedNothingAndIsUnavailable() {
        // Cassandra's coordinator refuses a round it cannot reach a quorum for before any replica runs it
        Script s = new Script();
        s.sends.add(() -> { throw new UnavailableException(null, DefaultConsistencyLevel.SERIAL, 2, 1); });
        StorageUnavailableException e = assertThrows(StorageUnavailableException.class,
                () -> ConditionalApply.run(s, P, OURS, 5, 6));
        assertEquals(503, e.status());
        assertEquals(0, s.markReads, "nothing to settle: no replica ran it");
    }

    @Test
    void aResendRefusedForWantOfReplicasLeavesTheFirstAttemptToItsMark() {
        // the first attempt timed out (maybe applied); the resend finds too few replicas: not "unavailable, nothing
        // done" (the first attempt may have applied) but settled by the mark, here found ours
        Script s = new Script();
        s.sends.add(() -> { throw unknown(); });
        s.marks.add(() -> null);
        s.versions.add(() -> 5L);
        s.sends.add(() -> { throw new UnavailableException(null, DefaultConsistencyLevel.SERIAL, 2, 1); });
        s.marks.add(() -> new ConditionalApply.Mark(OURS, 6));
        ApplyResult r = ConditionalApply.run(s, P, OURS, 5, 6);
        assertTrue(r.applied());
        assertEquals(2, s.sent);
    }

    @Test
    void theClientsOwnTimeoutAndAReadTimeoutInPaxosAreUnknownOutcomesSettledByTheMark() {
        Script s = new Script();
        s.sends.add(() -> { throw new DriverTimeoutException("Query timed out after PT30S"); });
        s.marks.add(() -> new ConditionalApply.Mark(OURS, 6));
        assertTrue(ConditionalApply.run(s, P, OURS, 5, 6).applied());
        Script t = new Script();
        t.sends.add(() -> { throw new ReadTimeoutException(null, DefaultConsistencyLevel.QUORUM, 1, 2, false); });
        t.marks.add(() -> null);
        t.versions.add(() -> 5L);
        t.sends.add(() -> new ConditionalApply.Sent(true, 6));
        assertTrue(ConditionalApply.run(t, P, OURS, 5, 6).applied(), "not sent before: sent again, applied once");
        assertEquals(2, t.sent);
    }
}
