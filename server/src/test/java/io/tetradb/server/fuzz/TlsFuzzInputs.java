package io.tetradb.server.fuzz;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * TLS for the fuzz: a client socket factory that trusts any certificate (the fuzz does not check the server's
 * identity, it sends inputs inside TLS records), the JDK's own ClientHello, and the TLS garbage every face's port
 * must refuse without harm: ClientHellos mutated and truncated, records declaring more than TLS allows, SSLv2 hellos,
 * alerts and application data before any handshake ({@link #handshakes()}), and records mangled after a complete
 * handshake ({@link #recordsAfterHandshake()}, sent by {@link TlsRecordFuzzer}).
 */
final class TlsFuzzInputs {
    private static final SSLContext TRUST_ALL = trustAll();

    private TlsFuzzInputs() {
    }

    /** One factory for every part of a run: they share the client's session cache (see {@link ResumingTlsSockets}). */
    private static final SSLSocketFactory SOCKETS = new ResumingTlsSockets(TRUST_ALL.getSocketFactory());

    /**
     * Sockets that speak TLS to the server's port (any certificate accepted): one in
     * {@link ResumingTlsSockets#FULL_EVERY} a full TLS 1.3 handshake, the others a TLS 1.2 resumption.
     */
    static SSLSocketFactory sockets() {
        return SOCKETS;
    }

    /** The first record a JDK client sends: its ClientHello (TLS 1.3 and 1.2 offered). */
    static byte[] clientHello() {
        try {
            SSLEngine engine = TRUST_ALL.createSSLEngine("localhost", 443);
            engine.setUseClientMode(true);
            ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            engine.wrap(ByteBuffer.allocate(0), out);
            out.flip();
            byte[] hello = new byte[out.remaining()];
            out.get(hello);
            return hello;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a port may get instead of a good TLS handshake, as the first bytes of a connection. */
    static List<byte[]> handshakes() {
        byte[] hello = clientHello();
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(hello);
        for (int cut : new int[] {3, 5, 9, hello.length / 2, hello.length - 1}) {
            seeds.add(Arrays.copyOf(hello, cut)); // truncated records
        }
        byte[] oversized = hello.clone();
        oversized[3] = 0x48; // the record declares 18,432 bytes: more than TLS's 2^14 + 2048
        oversized[4] = 0x00;
        seeds.add(oversized);
        byte[] handshakeLonger = hello.clone();
        handshakeLonger[6] = 0x7f; // the handshake message declares more than its record holds
        seeds.add(handshakeLonger);
        byte[] twice = Arrays.copyOf(hello, hello.length * 2);
        System.arraycopy(hello, 0, twice, hello.length, hello.length);
        seeds.add(twice);
        seeds.add(new byte[] {(byte) 0x80, 0x2e, 0x01, 0x03, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00,
                0x2f, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}); // an SSLv2-compatible hello
        seeds.add(new byte[] {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28}); // an alert first
        seeds.add(new byte[] {0x14, 0x03, 0x03, 0x00, 0x01, 0x01}); // ChangeCipherSpec first
        seeds.add(record(0x17, 0x0303, new byte[32])); // application data before any handshake
        seeds.add(new byte[] {0x18, 0x03, 0x03, 0x00, 0x03, 0x01, 0x40, 0x00}); // a heartbeat asking for 16 KB
        byte[] ssl3 = hello.clone();
        ssl3[1] = 0x03;
        ssl3[2] = 0x00;
        seeds.add(ssl3);
        return seeds;
    }

    /** Records sent in the clear on a connection whose TLS handshake has just completed. */
    static List<byte[]> recordsAfterHandshake() {
        SecureRandom random = new SecureRandom(new byte[] {19});
        byte[] forged = new byte[64];
        random.nextBytes(forged);
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(record(0x17, 0x0303, forged)); // application data the server cannot decrypt
        seeds.add(Arrays.copyOf(record(0x17, 0x0303, forged), 20)); // a truncated record
        seeds.add(new byte[] {0x17, 0x03, 0x03, 0x40}); // a truncated header
        byte[] huge = record(0x17, 0x0303, forged);
        huge[3] = (byte) 0xff; // declares 65,535 bytes
        huge[4] = (byte) 0xff;
        seeds.add(huge);
        seeds.add(record(0x17, 0x0303, new byte[0])); // empty
        seeds.add(new byte[] {0x15, 0x03, 0x03, 0x00, 0x02, 0x01, 0x00}); // a close_notify in the clear
        seeds.add(clientHello()); // a renegotiation in the clear
        seeds.add(record(0x16, 0x0303, new byte[] {0x00, 0x00, 0x00, 0x00})); // HelloRequest
        return seeds;
    }

    private static byte[] record(int type, int version, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(5 + body.length);
        b.put((byte) type).putShort((short) version).putShort((short) body.length).put(body);
        return b.array();
    }

    private static SSLContext trustAll() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
