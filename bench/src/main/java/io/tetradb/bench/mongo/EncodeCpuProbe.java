package io.tetradb.bench.mongo;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.mongo.bson.DocumentMapper;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.bson.codecs.DocumentCodec;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The Mongo face's own CPU and allocation per inserted document, without a server, the network or the core
 * (mongo-encode): the benchmark's 1 KB documents as an insert's request holds them ({@code RawBsonDocument} views of
 * one frame's array), each asked {@code DocumentMapper.hasId} (the insert command's {@code _id} check) and mapped by
 * {@code DocumentMapper.createOperation} (BSON → TB1), one thread. Rounds of thread CPU and allocated bytes per
 * document; the median of the rounds after the first {@code warm}. Only public calls of the face, so one build of this
 * class runs against the classes of an older build too (A/B).
 *
 * <p>{@code java -cp bench.jar:lib/* io.tetradb.bench.mongo.EncodeCpuProbe [rounds=30] [warm=10] [docs=20000]}
 */
public final class EncodeCpuProbe {
    private EncodeCpuProbe() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int warm = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
        Docs docs = new Docs(count);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        List<int[]> spans = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            java.nio.ByteBuffer b = new RawBsonDocument(docs.doc(i), new DocumentCodec()).getByteBuffer().asNIO();
            spans.add(new int[] {frame.size(), b.remaining()});
            frame.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
        }
        byte[] all = frame.toByteArray();
        List<BsonDocument> views = new ArrayList<>(count);
        for (int[] s : spans) {
            views.add(new RawBsonDocument(all, s[0], s[1]));
        }
        ItemCodec codec = new ItemCodec(new ObjectMapper(), 100);
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        List<Double> cpu = new ArrayList<>();
        List<Double> alloc = new ArrayList<>();
        long sink = 0;
        for (int round = 0; round < rounds; round++) {
            long c0 = mx.getThreadCpuTime(self);
            long a0 = mx.getThreadAllocatedBytes(self);
            for (BsonDocument d : views) {
                if (!DocumentMapper.hasId(d)) {
                    throw new IllegalStateException("no _id");
                }
                ItemOperation op = DocumentMapper.createOperation(d, codec);
                if (op.encoded() == null) {
                    throw new IllegalStateException("the tree path was taken");
                }
                sink += op.encoded().body().length;
            }
            double ns = (mx.getThreadCpuTime(self) - c0) / (double) count;
            double bytes = (mx.getThreadAllocatedBytes(self) - a0) / (double) count;
            System.out.printf("round %d: %.0f ns/doc %.0f B/doc%n", round, ns, bytes);
            if (round >= warm) {
                cpu.add(ns);
                alloc.add(bytes);
            }
        }
        cpu.sort(Double::compare);
        alloc.sort(Double::compare);
        System.out.printf("PROBE encode median of rounds %d-%d: cpu_ns_per_doc=%.0f alloc_bytes_per_doc=%.0f (tb1 %d B)%n",
                warm, rounds - 1, cpu.get(cpu.size() / 2), alloc.get(alloc.size() / 2), sink / rounds / count);
    }
}
