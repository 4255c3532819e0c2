package io.tetradb.core.item;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian fixed-width reads and writes and varints over byte arrays. */
final class Bytes {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Bytes() {
    }

    static short i16(byte[] b, int at) {
        return (short) I16.get(b, at);
    }

    static int u16(byte[] b, int at) {
        return ((short) I16.get(b, at)) & 0xFFFF;
    }

    static int i32(byte[] b, int at) {
        return (int) I32.get(b, at);
    }

    static long i64(byte[] b, int at) {
        return (long) I64.get(b, at);
    }

    static void putI16(byte[] b, int at, int v) {
        I16.set(b, at, (short) v);
    }

    static void putI32(byte[] b, int at, int v) {
        I32.set(b, at, v);
    }

    static void putI64(byte[] b, int at, long v) {
        I64.set(b, at, v);
    }
}
