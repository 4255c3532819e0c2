package io.tetradb.bench.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.EffectivePartitionKey;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The items of the core benchmark and their raw twins. Item {@code n} is a deterministic ~1 KiB JSON document
 * ({@link #ITEM_BYTES} serialised) with an {@code id}, a {@code deviceId} and filler properties. The raw side stores
 * it under the key the core uses ({@code collId(4) · EPK(16) · encoded pk · id}) with a value shaped like the core's
 * stored bytes ({@code 01 · lsn(8) · JSON with the system properties}).
 */
public final class Items {
    static final int ITEM_BYTES = 1024;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final char[] ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final String[] STATUS = {"ok", "ok", "ok", "warn", "fault"};

    private final int collId;
    private final String[] deviceIds;
    private final byte[][] devicePrefixes;

    /** @param collId the container's id inside the store (the first 4 bytes of its keys) */
    public Items(int collId, int devices) {
        this.collId = collId;
        this.deviceIds = new String[devices];
        this.devicePrefixes = new byte[devices][];
        for (int d = 0; d < devices; d++) {
            String deviceId = "dev-" + pad(d, 5);
            deviceIds[d] = deviceId;
            TextNode pk = TextNode.valueOf(deviceId);
            byte[] epk = EffectivePartitionKey.hash(List.of(pk));
            byte[] encoded = PartitionKeyValue.of(pk).encoded();
            byte[] prefix = new byte[4 + epk.length + encoded.length];
            prefix[0] = (byte) (collId >>> 24);
            prefix[1] = (byte) (collId >>> 16);
            prefix[2] = (byte) (collId >>> 8);
            prefix[3] = (byte) collId;
            System.arraycopy(epk, 0, prefix, 4, epk.length);
            System.arraycopy(encoded, 0, prefix, 4 + epk.length, encoded.length);
            devicePrefixes[d] = prefix;
        }
    }

    int devices() {
        return deviceIds.length;
    }

    String deviceId(int device) {
        return deviceIds[device];
    }

    public static String id(String kind, long n) {
        return kind + pad(n, 10);
    }

    /** The raw key of item {@code id} of {@code device}: the same bytes the core uses. */
    byte[] key(int device, String id) {
        byte[] prefix = devicePrefixes[device];
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[prefix.length + idBytes.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        System.arraycopy(idBytes, 0, key, prefix.length, idBytes.length);
        return key;
    }

    /** The user's item: {@link #ITEM_BYTES} bytes of JSON, deterministic in {@code seed}. */
    public ObjectNode item(String id, int device, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ObjectNode n = MAPPER.createObjectNode();
        n.put("id", id);
        n.put("deviceId", deviceIds[device]);
        n.put("seq", seed);
        n.put("ts", 1_763_000_000_000L + seed);
        n.put("temperature", Math.round((10 + r.nextDouble() * 25) * 100) / 100.0);
        n.put("humidity", Math.round(r.nextDouble() * 1000) / 10.0);
        n.put("battery", r.nextInt(101));
        n.put("status", STATUS[r.nextInt(STATUS.length)]);
        n.put("firmware", "3." + r.nextInt(10) + "." + r.nextInt(100));
        ObjectNode location = n.putObject("location");
        location.put("site", "site-" + pad(device % 500, 3));
        location.put("lat", Math.round((-90 + r.nextDouble() * 180) * 1e5) / 1e5);
        location.put("lon", Math.round((-180 + r.nextDouble() * 360) * 1e5) / 1e5);
        n.putArray("tags").add("t" + r.nextInt(50)).add("t" + r.nextInt(50)).add("t" + r.nextInt(50));
        n.put("payload", "");
        int fill = ITEM_BYTES - json(n).length;
        char[] payload = new char[Math.max(0, fill)];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = ALNUM[r.nextInt(ALNUM.length)];
        }
        n.put("payload", new String(payload));
        return n;
    }

    /**
     * The value the raw side stores for {@code item}: the layout of the core's stored item, of the same size — a
     * binary item ({@code 02 · lsn(8) · TB1 · rid · self prefix · etag · ts}, the default), or with
     * {@code -Dtetradb.itemFormat=json} {@code 01 · lsn(8) ·} user JSON continued by {@code _rid _self _etag
     * _attachments _ts}.
     */
    byte[] rawValue(ObjectNode item, long lsn) {
        String rid = "AAAAAQAAAAF" + pad(lsn % 100_000_000L, 8) + "AAA==";
        if (!"json".equals(System.getProperty("tetradb.itemFormat"))) {
            return io.tetradb.core.item.StoredItems.finish(io.tetradb.core.item.BinaryItemWriter.encode(item), lsn,
                    rid.getBytes(StandardCharsets.US_ASCII),
                    "dbs/AAAAAQ==/colls/AAAAAQAAAAE=/docs/".getBytes(StandardCharsets.US_ASCII),
                    String.format("%08x-0000-0000-0000-%012x", collId, lsn), 1763000000L);
        }
        byte[] body = json(item); // ends with '}', which the system properties replace
        String suffix = ",\"_rid\":\"" + rid + "\",\"_self\":\"dbs/AAAAAQ==/colls/AAAAAQAAAAE=/docs/" + rid
                + "/\",\"_etag\":\"\\\"" + String.format("%08x-0000-0000-0000-%012x", collId, lsn)
                + "\\\"\",\"_attachments\":\"attachments/\",\"_ts\":1763000000}";
        byte[] sys = suffix.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[9 + body.length - 1 + sys.length];
        out[0] = 0x01;
        for (int i = 0; i < 8; i++) {
            out[1 + i] = (byte) (lsn >>> (56 - 8 * i));
        }
        System.arraycopy(body, 0, out, 9, body.length - 1);
        System.arraycopy(sys, 0, out, 9 + body.length - 1, sys.length);
        return out;
    }

    /**
     * Loads items {@code first} to {@code first + 99}, of device {@code (first / 100) % }{@link CoreBenchmark#DEVICES},
     * into the core as one batch and into raw RocksDB under the same keys with the same values.
     */
    void loadBatch(CosmosContainer container, RawRocks raw, long first) throws Exception {
        int device = (int) ((first / 100) % CoreBenchmark.DEVICES);
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(deviceId(device)));
        byte[][] keys = new byte[100][];
        byte[][] values = new byte[100][];
        for (int i = 0; i < 100; i++) {
            long n = first + i;
            ObjectNode node = item(id("i", n), device, n);
            batch.createItemOperation(node);
            keys[i] = key(device, node.get("id").textValue());
            values[i] = rawValue(node, n + 1);
        }
        if (!container.executeCosmosBatch(batch).isSuccessStatusCode()) {
            throw new IllegalStateException("load batch failed");
        }
        raw.write(keys, values);
    }

    static byte[] json(ObjectNode n) {
        try {
            return MAPPER.writeValueAsBytes(n);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String pad(long v, int width) {
        String s = Long.toString(v);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }
}
