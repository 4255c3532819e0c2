package io.tetradb.server.fuzz;

import io.tetradb.testing.fuzz.ByteMutator;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.HttpFuzzer;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Mutated WebSocket frames on upgraded Gremlin connections that are kept while the server keeps them, as the Mongo
 * fuzz keeps its connections: a whole frame is followed by a ping, whose pong (or the connection's end) must come
 * within {@link #BOUND_MILLIS} (else a hang); a frame whose declared length is not what was sent ends its connection
 * (the server waits for the rest, bounded by its read timeout). A WebSocket handshake per input (as the upgrade half
 * of the fuzz sends) would spend most of the run on handshakes. Thread {@code t}'s inputs derive from
 * {@code seed + t}; every 500 inputs {@code realClient} must succeed.
 */
final class WebSocketFrameFuzzer extends PingedConnectionFuzzer {
    private static final byte[] PING = HttpFuzzer.webSocketFrame(9, "fz".getBytes(StandardCharsets.US_ASCII), 2);

    static FuzzTally run(InetSocketAddress target, List<byte[]> frames, FuzzSettings settings, int threads,
                         Runnable realClient) throws Exception {
        return new WebSocketFrameFuzzer().fuzzAll(target, frames, settings, threads, realClient);
    }

    @Override
    String name() {
        return "gremlin-frames";
    }

    @Override
    byte[] input(byte[] seed, ByteMutator mutator, Random random) {
        if (random.nextInt(10) == 0) {
            return seed;
        }
        byte[] mutated = mutator.mutate(seed);
        if (random.nextInt(4) != 0 && mutated.length >= 2 && seed.length >= 2) {
            // three in four keep the first header byte (FIN, opcode) and the mask bit, which a server must close
            // the connection over: their payload and length are what is fuzzed, on a connection that stays open
            // (a WebSocket handshake per input held the last long run to 140-440 inputs/s); the fourth fuzzes the
            // header too
            mutated[0] = seed[0];
            mutated[1] = (byte) (mutated[1] | 0x80);
        }
        return oneFrame(mutated);
    }

    @Override
    byte[] ping() {
        return PING;
    }

    /** A connection after a valid upgrade, or null if the server closed it instead of answering 101. */
    @Override
    Socket open(InetSocketAddress target) throws IOException {
        Socket s = connect(target);
        s.getOutputStream().write(GremlinFuzzInputs.upgrade());
        InputStream in = s.getInputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        try {
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    close(s);
                    return null;
                }
                matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            }
        } catch (IOException e) {
            close(s);
            return null;
        }
        return s;
    }

    /**
     * A mutated frame made whole when its header is readable and declares at most 64 KiB: cut after the declared
     * payload or padded to it with zeros (else the ping after it would be read as its rest and the connection wait,
     * a hang of the fuzzer's making). Other inputs are sent as they are and end their connection.
     */
    static byte[] oneFrame(byte[] input) {
        long declared = declaredEnd(input);
        if (declared < 0 || declared == input.length || declared > input.length + 64 * 1024) {
            return input;
        }
        return java.util.Arrays.copyOf(input, (int) declared);
    }

    /** Header plus declared payload length, or -1 while the header itself is incomplete. */
    private static long declaredEnd(byte[] input) {
        if (input.length < 2) {
            return -1;
        }
        int len7 = input[1] & 0x7f;
        int header = 2;
        long length = len7;
        if (len7 == 126) {
            if (input.length < 4) {
                return -1;
            }
            length = ((input[2] & 0xffL) << 8) | (input[3] & 0xffL);
            header = 4;
        } else if (len7 == 127) {
            if (input.length < 10) {
                return -1;
            }
            length = 0;
            for (int i = 2; i < 10; i++) {
                length = (length << 8) | (input[i] & 0xffL);
            }
            header = 10;
        }
        if ((input[1] & 0x80) != 0) {
            header += 4;
        }
        return length < 0 || length > Integer.MAX_VALUE - 14 ? Long.MAX_VALUE : header + length;
    }

    /** Whether {@code input} is exactly one frame as its header declares it (client frames carry a mask key). */
    @Override
    boolean whole(byte[] input) {
        return declaredEnd(input) == input.length;
    }

    /** Reads server frames until a pong, or the end of the stream, within the bound. */
    @Override
    Outcome awaitAnswer(InputStream raw) {
        long until = System.nanoTime() + BOUND_MILLIS * 1_000_000L;
        DataInputStream in = new DataInputStream(raw);
        try {
            while (System.nanoTime() < until) {
                int b0 = in.readUnsignedByte();
                int b1 = in.readUnsignedByte();
                long length = b1 & 0x7f;
                if (length == 126) {
                    length = in.readUnsignedShort();
                } else if (length == 127) {
                    length = in.readLong();
                }
                if ((b1 & 0x80) != 0) {
                    in.skipNBytes(4);
                }
                if (length < 0 || length > 64L * 1024 * 1024) {
                    return Outcome.CLOSED; // not a frame we can read: treat the stream as over
                }
                in.skipNBytes(length);
                if ((b0 & 0x0f) == 0xA) {
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
