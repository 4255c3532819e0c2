package io.tetradb.server.faces;

import io.tetradb.server.Endpoint;
import io.tetradb.server.StartupException;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Function;

/**
 * An {@link Endpoint} over a face's own network server (the Mongo wire server, the Tables HTTP server): the face
 * module knows nothing of the server process, this adapter gives it a name, a URL and the startup error convention.
 */
public final class FaceEndpoint implements Endpoint {
    private final String name;
    private final String scheme;
    private final InetSocketAddress address;
    private final String path;
    private final AutoCloseable server;

    private FaceEndpoint(String name, String scheme, InetSocketAddress address, String path, AutoCloseable server) {
        this.name = name;
        this.scheme = scheme;
        this.address = address;
        this.path = path;
        this.server = server;
    }

    /**
     * Starts a face's server with {@code starter} (given the port; 0 = a free one) and reads its bound address.
     * A failure to bind becomes a {@link StartupException} naming the face and the address.
     */
    public static <S extends AutoCloseable> FaceEndpoint start(String name, String scheme, String path,
                                                               InetAddress bind, int port,
                                                               Function<Integer, S> starter,
                                                               Function<S, InetSocketAddress> boundAddress) {
        S server;
        try {
            server = starter.apply(port);
        } catch (Exception e) {  // Netty rethrows a BindException unchecked
            String where = Endpoint.hostPort(new InetSocketAddress(bind, port));
            throw new StartupException("cannot start the " + name + " endpoint on " + where + ": " + rootMessage(e), e);
        }
        return new FaceEndpoint(name, scheme, boundAddress.apply(server), path, server);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public String url() {
        return scheme + "://" + Endpoint.hostPort(address) + path;
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (Exception e) {
            // a face's close must not throw; if it does, the other endpoints and the store still close
            org.slf4j.LoggerFactory.getLogger(FaceEndpoint.class).warn("closing the {} endpoint failed", name, e);
        }
    }
}
