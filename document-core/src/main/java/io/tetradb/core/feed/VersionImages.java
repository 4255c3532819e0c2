package io.tetradb.core.feed;

import io.tetradb.core.reads.ItemReads;
import io.tetradb.core.storage.Space;
import io.tetradb.core.store.ItemCodec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        for (ChangeRecord r : records) {
            any |= r.imageRefs() != 0;
        }
        if (!any) {
            return records;
        }
        byte[][] current = new byte[n][];
        byte[][] previous = new byte[n][];
        // 1. the items, for the versions they may still be at
        List<Integer> atLsn = new ArrayList<>();
        List<byte[]> docKeys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (records.get(i).currentAtLsn()) {
                atLsn.add(i);
                docKeys.add(feed.docKey(records.get(i)));
            }
        }
        if (!docKeys.isEmpty()) {
            List<byte[]> items = docKeys.size() == 1 ? Collections.singletonList(reads.item(docKeys.get(0)))
                    : reads.items(docKeys);
            for (int k = 0; k < atLsn.size(); k++) {
                byte[] item = items.get(k);
                int i = atLsn.get(k);
                if (item != null && ItemCodec.lsn(item) == records.get(i).lsn()) {
                    current[i] = image(item);
                }
            }
        }
        Runnable hook = feed.beforeVersionImageReads;
        if (hook != null) {
            hook.run();
        }
        // 2. the version-image keys (after step 1: a version step 1 saw superseded has its key applied by now)
        Map<ByteBuffer, Integer> slot = new HashMap<>();
        List<byte[]> keys = new ArrayList<>();
        List<ChangeRecord> owners = new ArrayList<>(); // the record each key was first asked for (its partition)
        int[] currentKey = new int[n];
        int[] previousKey = new int[n];
        Arrays.fill(currentKey, -1);
        Arrays.fill(previousKey, -1);
        for (int i = 0; i < n; i++) {
            ChangeRecord r = records.get(i);
            if (r.currentAtLsn() && current[i] == null) {
                currentKey[i] = slot(r, r.lsn(), slot, keys, owners);
            }
            if (r.previousAtLsn()) {
                previousKey[i] = slot(r, r.previousLsn(), slot, keys, owners);
            }
        }
        List<byte[]> values = keys.isEmpty() ? List.of() : versionImages(keys, owners);
        for (int i = 0; i < n; i++) {
            if (currentKey[i] >= 0) {
                current[i] = imageOf(values.get(currentKey[i]), records.get(i).lsn());
            }
            if (previousKey[i] >= 0) {
                previous[i] = imageOf(values.get(previousKey[i]), records.get(i).previousLsn());
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

    private int slot(ChangeRecord r, long lsn, Map<ByteBuffer, Integer> slot, List<byte[]> keys,
                     List<ChangeRecord> owners) {
        byte[] key = FeedKeys.versionImage(feed.collId(), r.logicalPartition(), lsn);
        return slot.computeIfAbsent(ByteBuffer.wrap(key), k -> {
            keys.add(key);
            owners.add(r);
            return keys.size() - 1;
        });
    }

    /** The version-image keys' values: one multi-get on this engine, or through the contract's derived keys. */
    private List<byte[]> versionImages(List<byte[]> keys, List<ChangeRecord> owners) {
        if (reads.embedded()) {
            return feed.feeds().engine().multiGet(Space.FEED, keys);
        }
        List<byte[]> out = new ArrayList<>(keys.size());
        for (int k = 0; k < keys.size(); k++) {
            byte[] lp = owners.get(k).logicalPartition();
            byte[] lpPrefix = ByteBuffer.allocate(4 + lp.length).putInt(feed.collId()).put(lp).array();
            out.add(reads.derived(lpPrefix, Space.FEED, keys.get(k)));
        }
        return out;
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
