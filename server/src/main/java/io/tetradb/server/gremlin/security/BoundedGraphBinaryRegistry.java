package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.process.traversal.NotP;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.TextP;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.BulkSet;
import org.apache.tinkerpop.gremlin.process.traversal.util.AndP;
import org.apache.tinkerpop.gremlin.process.traversal.util.OrP;
import org.apache.tinkerpop.gremlin.structure.io.Buffer;
import org.apache.tinkerpop.gremlin.structure.io.binary.DataType;
import org.apache.tinkerpop.gremlin.structure.io.binary.GraphBinaryReader;
import org.apache.tinkerpop.gremlin.structure.io.binary.GraphBinaryWriter;
import org.apache.tinkerpop.gremlin.structure.io.binary.TypeSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.TypeSerializerRegistry;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.BigIntegerSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.BulkSetSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.ByteBufferSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.ClassSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.InetAddressSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.ListSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.MapSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.PSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.SetSerializer;
import org.apache.tinkerpop.gremlin.structure.io.binary.types.StringSerializer;

import java.io.IOException;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GraphBinary's types with every declared length checked against the bytes left in the frame before anything is
 * allocated: each element of a string, collection, map or predicate takes at least one byte, so a larger length is
 * a lie, refused as a malformed request (the stock serializers allocate whatever the length says, up to
 * {@code OutOfMemoryError}); and a class named in a request is loaded only from Gremlin's and the JDK's value
 * packages. Named as the GraphBinary serializer's {@code builder} in the server settings.
 */
public class BoundedGraphBinaryRegistry extends TypeSerializerRegistry.Builder {
    public BoundedGraphBinaryRegistry() {
        add(String.class, new LengthChecked<>(new StringSerializer()));
        add(List.class, new LengthChecked<>(new ListSerializer()));
        add(Set.class, new LengthChecked<>(new SetSerializer()));
        add(Map.class, new LengthChecked<>(new MapSerializer()));
        add(BulkSet.class, new LengthChecked<>(new BulkSetSerializer()));
        add(BigInteger.class, new LengthChecked<>(new BigIntegerSerializer()));
        add(ByteBuffer.class, new LengthChecked<>(new ByteBufferSerializer()));
        add(Class.class, new ClassSerializer() {
            @Override
            protected Class readValue(Buffer buffer, GraphBinaryReader context) throws IOException {
                int at = buffer.readerIndex();
                String name = context.readValue(buffer, String.class, false);
                buffer.readerIndex(at);
                if (CLASS_PREFIXES.stream().noneMatch(name::startsWith)) {
                    throw new IllegalArgumentException("class " + name + " is not accepted in a request");
                }
                return super.readValue(buffer, context);
            }
        });
        add(InetAddress.class, new LengthChecked<>(new InetAddressSerializer<>()));
        add(Inet4Address.class, new LengthChecked<>(new InetAddressSerializer<>()));
        add(Inet6Address.class, new LengthChecked<>(new InetAddressSerializer<>()));
        // the same order as TinkerPop's defaults: the last one registered reads DataType.P
        add(P.class, new BoundedP<>(DataType.P, P.class));
        add(AndP.class, new BoundedP<>(DataType.P, AndP.class));
        add(OrP.class, new BoundedP<>(DataType.P, OrP.class));
        add(NotP.class, new BoundedP<>(DataType.P, NotP.class));
        add(TextP.class, new BoundedP<>(DataType.TEXTP, TextP.class));
    }

    /**
     * The classes a request may name (loading a class runs its static initializer): Gremlin's own, for
     * {@code withoutStrategies(...)}, and the JDK's value types.
     */
    private static final List<String> CLASS_PREFIXES = List.of("org.apache.tinkerpop.gremlin.", "java.lang.",
            "java.util.", "java.time.", "java.math.");

    /** Reads the length at the reader index without consuming it; refuses it when the frame cannot hold it. */
    static void checkLength(Buffer buffer) {
        if (buffer.readableBytes() < Integer.BYTES) {
            throw new IllegalArgumentException("the frame ends inside a length");
        }
        int at = buffer.readerIndex();
        int length = buffer.readInt();
        buffer.readerIndex(at);
        int left = buffer.readableBytes() - Integer.BYTES;
        if (length < 0 || length > left) {
            throw new IllegalArgumentException("declared length " + length + " exceeds the " + left + " bytes left in the frame");
        }
    }

    /** A stock serializer of a value that starts with its length: the length is checked before the stock one reads. */
    private static final class LengthChecked<T> implements TypeSerializer<T> {
        private final TypeSerializer<T> stock;

        LengthChecked(TypeSerializer<T> stock) {
            this.stock = stock;
        }

        @Override
        public DataType getDataType() {
            return stock.getDataType();
        }

        @Override
        public T read(Buffer buffer, GraphBinaryReader context) throws IOException {
            return readValue(buffer, context, true);
        }

        @Override
        public T readValue(Buffer buffer, GraphBinaryReader context, boolean nullable) throws IOException {
            if (nullable && (buffer.readByte() & 1) == 1) { // the value flag, read as SimpleTypeSerializer reads it
                return null;
            }
            checkLength(buffer);
            return stock.readValue(buffer, context, false);
        }

        @Override
        public void write(T value, Buffer buffer, GraphBinaryWriter context) throws IOException {
            stock.write(value, buffer, context);
        }

        @Override
        public void writeValue(T value, Buffer buffer, GraphBinaryWriter context, boolean nullable) throws IOException {
            stock.writeValue(value, buffer, context, nullable);
        }
    }

    /** A predicate: its name, then its argument count (an array of that size is allocated). */
    private static final class BoundedP<T extends P> extends PSerializer<T> {
        BoundedP(DataType type, Class<T> classOfP) {
            super(type, classOfP);
        }

        @Override
        protected T readValue(Buffer buffer, GraphBinaryReader context) throws IOException {
            int at = buffer.readerIndex();
            context.readValue(buffer, String.class, false);
            checkLength(buffer);
            buffer.readerIndex(at);
            return super.readValue(buffer, context);
        }
    }
}
