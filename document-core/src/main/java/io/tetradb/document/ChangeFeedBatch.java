package io.tetradb.document;

import java.util.List;

/**
 * One change feed page before its continuation is encoded as a token: the change feed processor keeps the position
 * as an object between pages and encodes it only when it writes the lease.
 *
 * @param drained the page reached the stable end of the feed
 */
record ChangeFeedBatch<T>(List<T> results, ChangeFeedContinuation next, double requestCharge, QueryMetrics metrics,
                          boolean drained) {
}
