package io.tetradb.core.feed;

import io.tetradb.core.reads.ItemReads;
import io.tetradb.core.storage.Space;
import io.tetradb.core.store.ItemCodec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Fills in the images of one all-versions page's records that refer to them instead of holding them
 * ({@link ChangeRecord#CURRENT_AT_LSN}, {@link ChangeRecord#PREVIOUS_AT_LSN}; {@code docs/feed-images.md} §3.1):
 * <ol>
 *   <li>one multi-get of the items of the records whose current image is the version at their lsn: an item still at
 *       that lsn holds exactly those bytes (every write moves the lsn);</li>
 *   <li>then — only after that read returned — one multi-get of the version-image keys: of the versions the items no
 *       longer hold (the transaction that superseded one wrote its key in the same atomic write, so it is there if
 *       step 1 saw it superseded) and of the records' previous versions (written with the record itself);</li>
 *   <li>a record whose image is still missing was pruned meanwhile (the pruner deletes a version key only with its
 *       owner, after or with the older record): it is dropped if it is gone, else kept without that image (a version
 *       superseded while the container kept the latest version only, §3.3).</li>
 * </ol>
 * Records with inline images (written before, with {@code -Dtetradb.feed.versionImages=false}, or through the
 * contract) pass unchanged.
 */
final class VersionImages {
    private final ChangeFeed feed;
    private final ItemReads reads;

    VersionImages(ChangeFeed feed, ItemReads reads) {
        this.feed = feed;
        this.reads = reads;
    }

    /** {@code records} (feed order) with their referred images filled in, less those pruned meanwhile. */
    List<ChangeRecord> resolve(List<ChangeRecord> records) {
        int n = records.size();
        boolean any = false;
        for (int i = 0; i < n; i++) {
            any |= records.get(i).imageRefs() != 0;
        }
        if (!any) {
            return records;
        }
        byte[][] current = new byte[n][];
        byte[][] previous = new byte[n][];
        int[] supersededBy = supersededInPage(records);
        // 1. the items, for the versions they may still be at (not for one a later record of the page superseded)
        int[] atLsn = new int[n];
        byte[][] docKeys = new byte[n][];
        int items = 0;
        for (int i = 0; i < n; i++) {
            if (records.get(i).currentAtLsn() && supersededBy[i] < 0) {
                atLsn[items] = i;
                docKeys[items++] = feed.docKey(records.get(i));
            }
        }
        if (items > 0) {
            List<byte[]> stored = items == 1 ? Collections.singletonList(reads.item(docKeys[0]))
                    : reads.items(Arrays.asList(docKeys).subList(0, items));
            for (int k = 0; k < items; k++) {
                byte[] item = stored.get(k);
                int i = atLsn[k];
                if (item != null && ItemCodec.lsn(item) == records.get(i).lsn()) {
                    current[i] = image(item);
                }
            }
        }
        Runnable hook = feed.beforeVersionImageReads;
        if (hook != null) {
            hook.run();
        }
        // 2. the version-image keys (after step 1: a version step 1 saw superseded has its key applied by now), each
        //    once: a version superseded within the page is the superseding record's previous image
        byte[][] keys = new byte[2 * n][];
        int[] owners = new int[2 * n]; // the record each key is read for (its logical partition)
        int[] previousKey = new int[n]; // key number + 1, 0: none
        int[] currentKey = new int[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            ChangeRecord r = records.get(i);
            if (r.previousAtLsn()) {
                keys[count] = FeedKeys.versionImage(feed.collId(), r.logicalPartition(), r.previousLsn());
                owners[count] = i;
                previousKey[i] = ++count;
            }
        }
        for (int i = 0; i < n; i++) {
            ChangeRecord r = records.get(i);
            if (r.currentAtLsn() && current[i] == null) {
                if (supersededBy[i] >= 0) {
                    currentKey[i] = previousKey[supersededBy[i]];
                } else {
                    keys[count] = FeedKeys.versionImage(feed.collId(), r.logicalPartition(), r.lsn());
                    owners[count] = i;
                    currentKey[i] = ++count;
                }
            }
        }
        if (count > 0) {
            List<byte[]> values = versionImages(Arrays.asList(keys).subList(0, count), owners, records);
            byte[][] images = new byte[count][]; // one copy per key, shared by the records it serves
            for (int i = 0; i < n; i++) {
                if (previousKey[i] > 0) {
                    previous[i] = imageOnce(values, images, previousKey[i] - 1, records.get(i).previousLsn());
                }
            }
            for (int i = 0; i < n; i++) {
                if (currentKey[i] > 0) {
                    current[i] = imageOnce(values, images, currentKey[i] - 1, records.get(i).lsn());
                }
            }
        }
        // 3. a record still missing an image it refers to: pruned meanwhile (dropped), or kept without it
        List<ChangeRecord> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ChangeRecord r = records.get(i);
            if (r.imageRefs() == 0) {
                out.add(r);
                continue;
            }
            boolean missing = r.currentAtLsn() && current[i] == null || r.previousAtLsn() && previous[i] == null;
            if (missing && !feed.stillStored(r.seq(), r.logicalPartition())) {
                continue;
            }
            out.add(r.withImages(r.currentAtLsn() ? current[i] : r.current(),
                    r.previousAtLsn() ? previous[i] : r.previous()));
        }
        return out;
    }

    /**
     * For each record referring to its current image, the later record of the page that superseded that version
     * (same logical partition, its {@code previousLsn} the record's {@code lsn}), else -1: that version is no longer
     * the item, and its image is the superseding record's previous one, under the key that record owns. lsns are a
     * logical partition's own, so a version is found by its lsn (a small open-addressing table of record numbers)
     * and then its partition's bytes.
     */
    private static int[] supersededInPage(List<ChangeRecord> records) {
        int n = records.size();
        int[] by = new int[n];
        Arrays.fill(by, -1);
        int mask = Integer.highestOneBit(Math.max(2 * n, 2) - 1) * 2 - 1;
        int[] table = new int[mask + 1]; // record number + 1 of a record referring to its current image, 0: empty
        for (int j = 0; j < n; j++) {
            ChangeRecord r = records.get(j);
            if (r.previousAtLsn()) {
                for (int h = slot(r.previousLsn(), mask); table[h] != 0; h = (h + 1) & mask) {
                    ChangeRecord older = records.get(table[h] - 1);
                    if (older.lsn() == r.previousLsn()
                            && Arrays.equals(older.logicalPartition(), r.logicalPartition())) {
                        by[table[h] - 1] = j;
                        break;
                    }
                }
            }
            if (r.currentAtLsn()) {
                int h = slot(r.lsn(), mask);
                while (table[h] != 0) {
                    h = (h + 1) & mask;
                }
                table[h] = j + 1;
            }
        }
        return by;
    }

    private static int slot(long lsn, int mask) {
        return (int) ((lsn * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    }

    /** The version-image keys' values: one multi-get on this engine, or through the contract's derived keys. */
    private List<byte[]> versionImages(List<byte[]> keys, int[] owners, List<ChangeRecord> records) {
        if (reads.embedded()) {
            return feed.feeds().engine().multiGet(Space.FEED, keys);
        }
        List<byte[]> out = new ArrayList<>(keys.size());
        for (int k = 0; k < keys.size(); k++) {
            byte[] lp = records.get(owners[k]).logicalPartition();
            byte[] lpPrefix = ByteBuffer.allocate(4 + lp.length).putInt(feed.collId()).put(lp).array();
            out.add(reads.derived(lpPrefix, Space.FEED, keys.get(k)));
        }
        return out;
    }

    /** Key {@code k}'s image if it is the version at {@code lsn}, copied out of its value once for every record. */
    private static byte[] imageOnce(List<byte[]> values, byte[][] images, int k, long lsn) {
        if (images[k] == null) {
            images[k] = imageOf(values.get(k), lsn);
        }
        return images[k];
    }

    /** A version-image value's image, if it is the version at {@code lsn} (its stored header says so). */
    private static byte[] imageOf(byte[] value, long lsn) {
        return value != null && ItemCodec.lsn(value) == lsn ? image(value) : null;
    }

    /** A stored version's image: its bytes after the header, as an inline image was. */
    private static byte[] image(byte[] stored) {
        return Arrays.copyOfRange(stored, ItemCodec.HEADER, stored.length);
    }
}
