package io.tetradb.cosmos;

import io.tetradb.core.partition.EpkRange;

/**
 * Query and read-feed continuations when the container shows its physical partitions as ranges: the core's token
 * (a storage position, stateless) wrapped with the EPK range that issued it, {@code R<minHex>-<maxHex>:<core token>}.
 * After a split the SDKs send a parent's token to each child range (docs/cosmos-rest.md §5.4); the core's token is
 * bound to the scope it was made for, so the child whose range starts where the parent's did goes on with the
 * parent's scope (and keeps the parent's wrapper until that query ends), and every other child has nothing left for
 * that token: an empty last page. Together the children return the parent's remaining results exactly once.
 */
final class RangeContinuation {
    private static final String PREFIX = "R";

    /** What to run: the core's scope and token, or nothing ({@link #empty}). */
    record Resume(EpkRange scope, String coreToken, boolean empty) {
    }

    private RangeContinuation() {
    }

    /** The core's token, wrapped with the scope it was made for (null scope: the whole container). */
    static String wrap(EpkRange scope, String coreToken) {
        if (coreToken == null) {
            return null;
        }
        EpkRange s = scope == null ? EpkRange.FULL : scope;
        return PREFIX + s.minHex() + "-" + s.maxHex() + ":" + coreToken;
    }

    /** How a request over {@code requested} continues from {@code token} (null: its first page). */
    static Resume resume(EpkRange requested, String token) {
        if (token == null) {
            return new Resume(requested, null, false);
        }
        if (!token.startsWith(PREFIX)) {
            return new Resume(requested, token, false); // a token of the core itself: it checks it
        }
        int colon = token.indexOf(':');
        int dash = token.indexOf('-');
        EpkRange issuer;
        try {
            if (colon < 0 || dash < 0 || dash > colon) {
                throw new IllegalArgumentException();
            }
            issuer = EpkRange.ofHex(token.substring(1, dash), token.substring(dash + 1, colon));
        } catch (RuntimeException e) {
            throw CosmosError.badRequest("Invalid Continuation Token.");
        }
        String core = token.substring(colon + 1);
        EpkRange asked = requested == null ? EpkRange.FULL : requested;
        if (issuer.equals(asked)) {
            return new Resume(requested, core, false);
        }
        if (!PartitionKeyRanges.covers(issuer, asked)) {
            throw CosmosError.badRequest("Invalid Continuation Token: it was made for the range " + issuer
                    + ", which does not cover the requested range " + asked + ".");
        }
        if (EpkRange.compare(issuer.min(), asked.min()) == 0) {
            return new Resume(issuer.equals(EpkRange.FULL) ? null : issuer, core, false); // the parent's scope goes on
        }
        return new Resume(asked, null, true); // a later child: its part was the first child's to finish
    }
}
