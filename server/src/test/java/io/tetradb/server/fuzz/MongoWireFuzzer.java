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

    static FuzzTally run(InetSocketAddress target, FuzzSettings settings, int threads, Runnable realClient)
            throws Exception {
        return new MongoWireFuzzer().fuzzAll(target, MongoFuzzInputs.seeds(), settings, threads, realClient);
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
