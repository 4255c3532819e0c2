package io.tetradb.server.fuzz;

import io.tetradb.testing.fuzz.ByteMutator;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

/**
 * Mongo wire inputs, a whole one followed by a {@code ping} command on the same connection
 * ({@link PingedConnectionFuzzer}).
 */
final class MongoWireFuzzer extends PingedConnectionFuzzer {
    private static final byte[] PING = MongoFuzzInputs.ping();

    /** With users on the server: their SCRAM conversations ({@link MongoAuthInputs}); null for a server without. */
    private final MongoAuthInputs auth;
    /** Per fuzzing thread: the server's first message of its connection's last saslStart, {conversationId, text}. */
    private final ThreadLocal<Object[]> conversation = new ThreadLocal<>();

    MongoWireFuzzer() {
        this(null);
    }

    MongoWireFuzzer(MongoAuthInputs auth) {
        this.auth = auth;
    }

    static FuzzTally run(InetSocketAddress target, FuzzSettings settings, int threads, Runnable realClient)
            throws Exception {
        return new MongoWireFuzzer().fuzzAll(target, MongoFuzzInputs.seeds(), settings, threads, realClient);
    }

    /** The seeds this fuzzer mutates: with {@link MongoAuthInputs}, the authentication handshakes too. */
    java.util.List<byte[]> seeds() {
        return auth == null ? MongoFuzzInputs.seeds() : auth.seeds();
    }

    @Override
    String name() {
        return "mongo";
    }

    @Override
    Socket open(InetSocketAddress target) throws IOException {
        return connect(target);
    }

    @Override
    byte[] input(byte[] seed, ByteMutator mutator, Random random) {
        if (seed == MongoAuthInputs.CLIENT_FINAL && auth != null) {
            Object[] started = conversation.get();
            conversation.remove();
            boolean right = started != null && random.nextInt(3) == 0;
            byte[] last = auth.clientFinal(random.nextInt(), started == null ? 1 : (Integer) started[0],
                    started == null ? "r=x,s=AAAA,i=1" : (String) started[1], right, random);
            return right || random.nextBoolean() ? last : mutator.mutate(last);
        }
        return random.nextInt(10) == 0 ? seed : mutator.mutate(seed);
    }

    @Override
    boolean whole(byte[] input) {
        return MongoFuzzInputs.whole(input);
    }

    @Override
    byte[] ping() {
        return PING;
    }

    /** Reads replies until the ping's, or the end of the stream, within the bound. */
    @Override
    Outcome awaitAnswer(InputStream in) {
        long until = System.nanoTime() + BOUND_MILLIS * 1_000_000L;
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[16];
        try {
            while (System.nanoTime() < until) {
                data.readFully(header);
                ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
                int length = h.getInt(0);
                int responseTo = h.getInt(8);
                if (length < 16 || length > 64 * 1024 * 1024) {
                    return Outcome.CLOSED; // not a reply we can read: treat the stream as over
                }
                if (auth != null && responseTo == MongoAuthInputs.SASL_START_ID) {
                    byte[] reply = java.util.Arrays.copyOf(header, length);
                    data.readFully(reply, 16, length - 16);
                    Object[] started = MongoAuthInputs.serverFirst(reply);
                    if (started != null) {
                        conversation.set(started);
                    }
                    continue;
                }
                data.skipNBytes(length - 16);
                if (responseTo == MongoFuzzInputs.PING_ID) {
                    return Outcome.ANSWERED;
                }
            }
            return Outcome.HUNG;
        } catch (SocketTimeoutException e) {
            return Outcome.HUNG;
        } catch (IOException | RuntimeException e) {
            return Outcome.CLOSED;
        }
    }
}
