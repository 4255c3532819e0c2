package io.tetradb.mongo.query;

import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.value.DateTimeNode;

/**
 * Index seeks for date comparisons. The core indexes a date (a {@link DateTimeNode}) by its JSON view, ISO-8601 text
 * with seven fractional digits; for the years 0000–9999 that text is fixed-width, so text order is time order. Each
 * seek must find every document the filter matches (the matcher then decides), so:
 * <ul>
 *   <li>a date stored with a UTC offset (another face may write one) is indexed by its local time, up to 18 hours
 *       off its instant: every seek is widened by 18 hours;</li>
 *   <li>a stored date may be finer than a millisecond (Tables: 100 ns), and MongoDB sees it truncated: equality
 *       covers the whole millisecond;</li>
 *   <li>dates before year 0 or after 9999 are indexed as {@code -YYYYYY…}/{@code +YYYYYY…}, which sort below every
 *       four-digit year: an upper bound still covers them (they sort below it), a lower bound would not, so only
 *       equalities and upper bounds ({@code $lt}, {@code $lte}) seek; a lower bound alone scans.</li>
 * </ul>
 */
final class DateSeeks {
    private static final long TICKS_PER_MS = 10_000L;
    private static final long WIDEST_OFFSET = 18L * 3600 * 1000 * TICKS_PER_MS;
    /** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.9999999Z in ticks: where the index text is fixed-width. */
    private static final long FIRST = -62_167_219_200_000L * TICKS_PER_MS;
    private static final long LAST = 253_402_300_800_000L * TICKS_PER_MS - 1;

    private DateSeeks() {
    }

    /** {@code path} equal to the date {@code ms}, as a text range; null when it cannot be one. */
    static Expr equality(Expr path, long ms) {
        if (path == null || ms < FIRST / TICKS_PER_MS + 1 || ms > LAST / TICKS_PER_MS - 1) {
            return null;
        }
        long lo = ms * TICKS_PER_MS - WIDEST_OFFSET;
        long hi = ms * TICKS_PER_MS + TICKS_PER_MS - 1 + WIDEST_OFFSET;
        if (lo < FIRST || hi > LAST) {
            return null;
        }
        return new Expr.Between(path, text(lo), text(hi), false);
    }

    /** An upper bound ({@code $lt}/{@code $lte} {@code ms}) as a text bound; null for lower bounds or out of range. */
    static Expr bound(Expr path, Expr.BinaryOp op, long ms) {
        if (path == null || op != Expr.BinaryOp.LESS && op != Expr.BinaryOp.LESS_OR_EQUAL
                || ms < FIRST / TICKS_PER_MS || ms > LAST / TICKS_PER_MS - 1) {
            return null;
        }
        // every matching date has ticks below this (a $lte date: anywhere in the bound's millisecond)
        long below = (op == Expr.BinaryOp.LESS ? ms : ms + 1) * TICKS_PER_MS + WIDEST_OFFSET;
        if (below > LAST) {
            return null;
        }
        return new Expr.Binary(Expr.BinaryOp.LESS, path, text(below));
    }

    private static Expr text(long ticks) {
        return new Expr.StringLiteral(DateTimeNode.ofTicks(ticks).iso());
    }
}
