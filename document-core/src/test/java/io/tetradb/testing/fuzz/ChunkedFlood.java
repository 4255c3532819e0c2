package io.tetradb.testing.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Sends a chunked request body in 64 KiB chunks until the server answers (or {@code maxBytes} are sent) and returns
 * the answer's first bytes: a face must refuse a body whose chunks add up past its limit without aggregating it.
 */
public final class ChunkedFlood {
    private ChunkedFlood() {
    }

    public static String send(InetSocketAddress target, String head, long maxBytes) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(target, 10_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write((head + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'a');
            byte[] size = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            long sent = 0;
            try {
                while (sent < maxBytes && in.available() == 0) {
                    out.write(size);
                    out.write(chunk);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    sent += chunk.length;
                }
            } catch (IOException closedWhileSending) {
                // the server answered and closed: read what it said
            }
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            int n;
            while (answer.size() < 4096 && (n = in.read(buf)) > 0) {
                answer.write(buf, 0, n);
                if (answer.toString(StandardCharsets.ISO_8859_1).contains("}")) {
                    break;
                }
            }
            return answer.toString(StandardCharsets.UTF_8);
        }
    }
}
