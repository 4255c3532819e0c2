package io.tetradb.server;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.partition.EmbeddedPartitionStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionWrite;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * A server (Cosmos, Mongo and Tables on free ports) on one embedded engine presented as shared, as with
 * {@code --storage cassandra}, whose partition store a test wraps to inject what a shared engine may do.
 */
final class SharedEngineServer implements AutoCloseable {
    /** What a test does around a partition store's {@code apply}; {@code apply} runs the real one. */
    @FunctionalInterface
    interface ApplyHook {
        Object around(PartitionWrite write, RealApply apply) throws Throwable;
    }

    @FunctionalInterface
    interface RealApply {
        Object call() throws Throwable;
    }

    private final RocksEngine shared;
    final TetraDbServer server;

    private SharedEngineServer(RocksEngine shared, TetraDbServer server) {
        this.shared = shared;
        this.server = server;
    }

    /** The engine under {@code dir/shared}, the server's own files under {@code dir/local}. */
    static SharedEngineServer start(Path dir, UnaryOperator<PartitionStore> wrap) {
        RocksEngine shared = RocksEngine.open(dir.resolve("shared"), Durability.SYNC, 8 << 20);
        try {
            return new SharedEngineServer(shared, new TetraDbServer(ServerConfig.ephemeral(dir.resolve("local"))
                    .withCosmosPort(0).withMongoPort(0).withTablePort(0))
                    .onSharedStores(new EmbeddedMetadataStore(shared), wrap.apply(new EmbeddedPartitionStore(shared)))
                    .start());
        } catch (RuntimeException e) {
            shared.close();
            throw e;
        }
    }

    /**
     * {@code inner} with {@code hook} around each apply, every other call passed straight through. A proxy, so that
     * the contract may grow without these tests changing.
     */
    static PartitionStore aroundApply(PartitionStore inner, ApplyHook hook) {
        return (PartitionStore) Proxy.newProxyInstance(PartitionStore.class.getClassLoader(),
                new Class<?>[]{PartitionStore.class}, (proxy, method, args) -> method.getName().equals("apply")
                        ? hook.around((PartitionWrite) args[0], () -> invoke(inner, method, args))
                        : invoke(inner, method, args));
    }

    private static Object invoke(PartitionStore inner, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(inner, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() {
        server.close();
        shared.close();
    }
}
