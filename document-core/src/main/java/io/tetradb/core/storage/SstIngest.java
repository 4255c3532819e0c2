package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileWriter;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The embedded engine's bulk path: sorted SST files ingested into their column families, plus a small write set of
 * {@link Space#META} keys, all or nothing across a crash. RocksJava has no multi-family {@code IngestExternalFiles},
 * so one unit ("chunk") commits by roll-forward:
 * <ol>
 *     <li>each family's keys are written, sorted, to its own SST file (the families' files side by side; the feed's
 *     as one file per key kind, see {@link #writeFile}) under {@code <data>/bulk-ingest/<chunk>/} and fsynced (with
 *     the directory);</li>
 *     <li>an <em>intent</em> is written with a synced WAL write in RocksDB's default column family (which the store
 *     uses for nothing else): the chunk's files and its META writes. From here the chunk will be whole;</li>
 *     <li>each file is ingested (RocksDB links it in and syncs its MANIFEST before it returns, then removes our
 *     name), items last;</li>
 *     <li>the META writes and the intent's removal go in one synced WAL write; the directory is removed.</li>
 * </ol>
 * At open ({@link #recover}) an intent left by a crash is finished: its remaining files ingested (a file already
 * ingested is gone; one ingested twice holds the same keys and values), its META writes applied; a chunk directory
 * without an intent (a crash before step 2) is removed: nothing of it was visible. So a crash leaves whole chunks.
 * Readers may see one family's keys a moment before another's while a chunk's files go in (ingestion is per family);
 * the change feed does not show the chunk's records before it is whole (the caller holds their feed numbers).
 */
public final class SstIngest {
    /** Intent keys in the default column family. */
    private static final byte[] INTENT_PREFIX = "bulk-ingest/".getBytes(StandardCharsets.UTF_8);
    private static final String DIRECTORY = "bulk-ingest";
    private static final boolean TRACE = Boolean.getBoolean("tetradb.bulk.trace");
    /** Ingestion order: the item last, so a point read finding it finds its index and adjacency entries too. */
    private static final List<Space> ORDER = List.of(Space.INDEX, Space.ADJACENCY, Space.FEED, Space.DOCS);

    /**
     * Crash tests only: {@code -Dtetradb.test.bulkHaltAt=STAGE:N} halts the JVM (as a SIGKILL would, nothing closed)
     * the N-th time a chunk reaches STAGE ({@code files}, {@code intent}, {@code ingested-<SPACE>}).
     */
    private static final String HALT_AT = System.getProperty("tetradb.test.bulkHaltAt");
    private static final java.util.concurrent.atomic.AtomicInteger HALT_COUNT = new java.util.concurrent.atomic.AtomicInteger();

    private static void stage(String name) {
        if (HALT_AT != null && HALT_AT.startsWith(name + ":")
                && HALT_COUNT.incrementAndGet() == Integer.parseInt(HALT_AT.substring(name.length() + 1))) {
            Runtime.getRuntime().halt(137);
        }
    }

    private final RocksDB db;
    private final Map<Space, ColumnFamilyHandle> families;
    private final ColumnFamilyHandle intents;
    private final Map<Space, Options> fileOptions;
    private final Path root;

    SstIngest(RocksDB db, Map<Space, ColumnFamilyHandle> families, ColumnFamilyHandle intents,
              Map<Space, Options> fileOptions, Path dataDirectory) {
        this.db = db;
        this.families = families;
        this.intents = intents;
        this.fileOptions = fileOptions;
        this.root = dataDirectory.resolve(DIRECTORY);
    }

    /**
     * Writes one chunk: {@code sorted} holds each family's puts in ascending unsigned key order without repeats
     * (every space but META), {@code meta} the META puts and deletes. Durable and visible when it returns.
     */
    public void commit(Map<Space, ? extends SortedPuts> sorted, WriteSet meta) {
        String chunk = UUID.randomUUID().toString();
        Path dir = root.resolve(chunk);
        try {
            Files.createDirectories(dir);
            List<Space> spaces = ORDER.stream().filter(sp -> sorted.get(sp) != null && !sorted.get(sp).isEmpty()).toList();
            // one file per family (graph-load3: several files of key ranges for the index family, measured in three
            // alternated runs, gave no gain and were removed; bench/README.md, graph)
            List<FilePart> tasks = new ArrayList<>();
            for (Space sp : spaces) {
                tasks.add(new FilePart(sp, sp.familyName() + ".sst", sorted.get(sp)));
            }
            long t0 = System.nanoTime();
            // the files written side by side (each SstFileWriter is its own)
            List<List<Path>> written = tasks.parallelStream().map(t -> writeFile(dir, t)).toList();
            Map<Space, List<Path>> files = new EnumMap<>(Space.class);
            for (int i = 0; i < tasks.size(); i++) {
                files.computeIfAbsent(tasks.get(i).space(), sp -> new ArrayList<>()).addAll(written.get(i));
            }
            long t1 = System.nanoTime();
            syncDirectory(dir);
            syncDirectory(root);
            stage("files");
            long t2 = System.nanoTime();
            byte[] intentKey = concat(INTENT_PREFIX, chunk.getBytes(StandardCharsets.UTF_8));
            try (WriteOptions sync = new WriteOptions().setSync(true)) {
                db.put(intents, sync, intentKey, encodeIntent(files, meta));
                stage("intent");
                long t3 = System.nanoTime();
                finish(intentKey, files, meta, sync);
                if (TRACE) {
                    System.err.printf("bulk ingest: %d files %.1f ms, directory syncs %.1f, intent %.1f, ingestion and META %.1f%n",
                            written.stream().mapToInt(List::size).sum(), (t1 - t0) / 1e6, (t2 - t1) / 1e6,
                            (t3 - t2) / 1e6, (System.nanoTime() - t3) / 1e6);
                }
            }
            deleteTree(dir);
        } catch (RocksDBException e) {
            throw new StorageException("bulk ingestion failed: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StorageException("bulk ingestion failed: " + e, e);
        }
    }

    /** One file to write: a family's puts. */
    private record FilePart(Space space, String name, SortedPuts puts) {
    }

    /** Steps 3 and 4: files in, then META and the intent's removal in one synced write. */
    private void finish(byte[] intentKey, Map<Space, List<Path>> files, WriteSet meta, WriteOptions sync)
            throws RocksDBException {
        try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(true)) {
            for (Space space : ORDER) {
                // gone: ingested before a crash (a family's files go in with one call: all or none of them)
                List<String> left = files.getOrDefault(space, List.of()).stream().filter(Files::exists)
                        .map(Path::toString).toList();
                if (!left.isEmpty()) {
                    db.ingestExternalFile(families.get(space), left, options);
                    stage("ingested-" + space);
                }
            }
        }
        try (WriteBatch batch = new WriteBatch()) {
            for (WriteSet.Write w : meta.writes()) {
                if (w.isRangeDelete()) {
                    batch.deleteRange(families.get(w.space()), w.key(), w.rangeEnd());
                } else if (w.isDelete()) {
                    batch.delete(families.get(w.space()), w.key());
                } else {
                    batch.put(families.get(w.space()), w.key(), w.value());
                }
            }
            batch.delete(intents, intentKey);
            db.write(sync, batch);
        }
    }

    /**
     * Writes a family's puts: one file, or for the feed one file per key kind ({@code collId · kind}, the first
     * {@link #FEED_KIND_PREFIX} bytes). graph-load7: the feed's chunk holds partition-index keys ({@code 'P'}) and
     * change records ({@code 'S'}); one file spanning both would cover the container's {@code 'Q'} key
     * ({@code partitionIndexedSince}), which sits in the memtable from the container's creation, and RocksDB then
     * flushes every family (atomic flush) before ingesting, and puts the file in L0. Files that do not span it go in
     * without a flush.
     */
    private List<Path> writeFile(Path dir, FilePart part) {
        int cut = part.space() == Space.FEED ? FEED_KIND_PREFIX : 0;
        try (EnvOptions env = new EnvOptions(); FileSequence files = new FileSequence(env, dir, part, cut)) {
            part.puts().forEach(files::put);
            return files.finish();
        } catch (RocksDBException e) {
            throw new StorageException("writing the bulk file " + part.name() + " failed: " + e.getMessage(), e);
        }
    }

    /** The feed key's {@code collId · kind}: a new feed file starts where it changes. */
    static final int FEED_KIND_PREFIX = 5;

    /** A family's SST files, written in key order: a new one whenever the key's first {@code cut} bytes change. */
    private final class FileSequence implements AutoCloseable {
        private final EnvOptions env;
        private final Path dir;
        private final FilePart part;
        private final int cut;
        private final byte[] prefix;
        private final List<Path> files = new ArrayList<>();
        private SstFileWriter writer;

        FileSequence(EnvOptions env, Path dir, FilePart part, int cut) {
            this.env = env;
            this.dir = dir;
            this.part = part;
            this.cut = cut;
            this.prefix = new byte[cut];
        }

        void put(java.nio.ByteBuffer key, java.nio.ByteBuffer value) throws RocksDBException {
            if (writer == null || cut > 0 && !samePrefix(key)) {
                next(key);
            }
            writer.put(key, value);
        }

        private boolean samePrefix(java.nio.ByteBuffer key) {
            if (key.remaining() < cut) {
                return false;
            }
            for (int i = 0; i < cut; i++) {
                if (key.get(key.position() + i) != prefix[i]) {
                    return false;
                }
            }
            return true;
        }

        private void next(java.nio.ByteBuffer key) throws RocksDBException {
            finishWriter();
            if (cut > 0) {
                java.util.Arrays.fill(prefix, (byte) 0);
                key.get(key.position(), prefix, 0, Math.min(cut, key.remaining()));
            }
            String name = files.isEmpty() ? part.name() : part.name().replace(".sst", "-" + files.size() + ".sst");
            Path file = dir.resolve(name);
            writer = new SstFileWriter(env, fileOptions.get(part.space()));
            writer.open(file.toString());
            files.add(file);
        }

        private void finishWriter() throws RocksDBException {
            if (writer != null) {
                try {
                    writer.finish(); // syncs the file
                } finally {
                    writer.close();
                    writer = null;
                }
            }
        }

        List<Path> finish() throws RocksDBException {
            finishWriter();
            return files;
        }

        @Override
        public void close() {
            if (writer != null) {
                writer.close();
            }
        }
    }

    /** Finishes the chunks a crash interrupted after their intent (see the class comment); removes the others. */
    void recover() {
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        try (RocksIterator it = db.newIterator(intents)) {
            for (it.seek(INTENT_PREFIX); it.isValid() && startsWith(it.key(), INTENT_PREFIX); it.next()) {
                keys.add(it.key());
                values.add(it.value());
            }
        }
        try (WriteOptions sync = new WriteOptions().setSync(true)) {
            for (int i = 0; i < keys.size(); i++) {
                Intent intent = decodeIntent(values.get(i));
                finish(keys.get(i), intent.files(), intent.meta(), sync);
            }
        } catch (RocksDBException e) {
            throw new StorageException("finishing an interrupted bulk ingestion failed: " + e.getMessage(), e);
        }
        deleteTree(root);
    }

    /** How many intents are pending (for tests: none after a commit or a recovery). */
    int pendingIntents() {
        int n = 0;
        try (RocksIterator it = db.newIterator(intents)) {
            for (it.seek(INTENT_PREFIX); it.isValid() && startsWith(it.key(), INTENT_PREFIX); it.next()) {
                n++;
            }
        }
        return n;
    }

    private record Intent(Map<Space, List<Path>> files, WriteSet meta) {
    }

    /**
     * The files as (family, path) pairs, a family named once per file (one each now; an intent left by the removed
     * several-files switch, several per family, still decodes and is finished alike).
     */
    private static byte[] encodeIntent(Map<Space, List<Path>> files, WriteSet meta) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(files.values().stream().mapToInt(List::size).sum());
            for (Map.Entry<Space, List<Path>> f : files.entrySet()) {
                for (Path file : f.getValue()) {
                    out.writeUTF(f.getKey().name());
                    out.writeUTF(file.toString());
                }
            }
            out.writeInt(meta.writes().size());
            for (WriteSet.Write w : meta.writes()) {
                if (w.isRangeDelete()) {
                    throw new IllegalArgumentException("a bulk chunk's META writes hold no range deletes");
                }
                out.writeUTF(w.space().name());
                writeBytes(out, w.key());
                writeBytes(out, w.value());
            }
        }
        return bytes.toByteArray();
    }

    private static Intent decodeIntent(byte[] value) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(value))) {
            Map<Space, List<Path>> files = new EnumMap<>(Space.class);
            for (int n = in.readInt(); n > 0; n--) {
                files.computeIfAbsent(Space.valueOf(in.readUTF()), sp -> new ArrayList<>()).add(Path.of(in.readUTF()));
            }
            WriteSet meta = new WriteSet();
            for (int n = in.readInt(); n > 0; n--) {
                Space space = Space.valueOf(in.readUTF());
                byte[] key = readBytes(in);
                byte[] v = readBytes(in);
                if (v == null) {
                    meta.delete(space, key);
                } else {
                    meta.put(space, key, v);
                }
            }
            return new Intent(files, meta);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b == null ? -1 : b.length);
        if (b != null) {
            out.write(b);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        return n < 0 ? null : in.readNBytes(n);
    }

    private static void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover directory is removed at the next open
        }
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
