package io.tetradb.core.store;

import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.ttl.ExpiryRule;

import java.util.Arrays;

/**
 * On a shared engine: which expiry rule a logical partition's expiry entries follow, said by the partition itself (a
 * side write, META {@code 4E · collId · EPK · pk · 'T'} → the rule as {@link SharedExpiryRebuild#encode} writes it),
 * as its policy epoch says which index terms it holds ({@link PartitionPolicyEpochs}). A TTL conversion writes it in
 * the conditional apply that converts the partition's entries and bumps its version; every writer reads it after the
 * version, in the same slice as the epoch and the adjacency mark (no read more), and writes its items' entries under
 * the partition's rule, whatever rule its own catalog holds: a server whose catalog lags the change by more than the
 * conversion's two-check wait writes the new rule's entry into a converted partition (before, it wrote the old rule's,
 * or none, and the item was hidden at its time but never purged). A writer whose catalog is ahead of a partition not
 * converted yet writes the partition's rule's entries, which its conversion then moves. Which items a transaction
 * sees as expired stays the server's rule. A partition without the row (never converted) follows the writer's rule.
 */
final class PartitionExpiryRules {
    private static final byte EXPIRY_RULE = 0x54;

    /** The last rule decoded from a partition, with its bytes (rules change rarely: one entry is enough). */
    private volatile Object[] decoded = {new byte[0], null};
    /** The container's own rule of the last transaction, with its encoding (one encoding per rule change). */
    private volatile Object[] encoded = {null, null};

    /** The row's key: after the partition's epoch and adjacency mark ({@link AdjacencyPartitionMarks}), one slice. */
    static byte[] key(byte[] lpPrefix) {
        return Keys.concat(PartitionPolicyEpochs.partitionKey(lpPrefix), new byte[]{EXPIRY_RULE});
    }

    /** Adds the partition's rule {@code rule} to a conversion's write. */
    static void addTo(PartitionWrite.Builder w, byte[] lpPrefix, ExpiryRule rule) {
        w.side(Space.META, key(lpPrefix), SharedExpiryRebuild.encode(rule));
    }

    /** The rule a row read from a partition says (null: none recorded). */
    static ExpiryRule decode(byte[] row) {
        return row == null ? null : SharedExpiryRebuild.decode(row);
    }

    /** The rule the entries of a partition whose row is {@code row} (null: none) follow, given the server's {@code own}. */
    ExpiryRule entriesRule(byte[] row, ExpiryRule own) {
        if (row == null) {
            return own;
        }
        Object[] e = encoded;
        if (e[0] != own) {
            e = new Object[]{own, SharedExpiryRebuild.encode(own)};
            encoded = e;
        }
        if (Arrays.equals(row, (byte[]) e[1])) {
            return own;
        }
        Object[] d = decoded;
        if (!Arrays.equals(row, (byte[]) d[0])) {
            d = new Object[]{row, SharedExpiryRebuild.decode(row)};
            decoded = d;
        }
        return (ExpiryRule) d[1];
    }
}
