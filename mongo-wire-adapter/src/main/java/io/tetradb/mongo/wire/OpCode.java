package io.tetradb.mongo.wire;

/** Wire protocol opcodes (MongoDB's "Legacy Opcodes" and OP_MSG). */
public final class OpCode {
    public static final int OP_REPLY = 1;
    public static final int OP_UPDATE = 2001;
    public static final int OP_INSERT = 2002;
    public static final int OP_QUERY = 2004;
    public static final int OP_GET_MORE = 2005;
    public static final int OP_DELETE = 2006;
    public static final int OP_KILL_CURSORS = 2007;
    public static final int OP_COMPRESSED = 2012;
    public static final int OP_MSG = 2013;

    private OpCode() {
    }

    public static String name(int opCode) {
        return switch (opCode) {
            case OP_REPLY -> "OP_REPLY";
            case OP_UPDATE -> "OP_UPDATE";
            case OP_INSERT -> "OP_INSERT";
            case OP_QUERY -> "OP_QUERY";
            case OP_GET_MORE -> "OP_GET_MORE";
            case OP_DELETE -> "OP_DELETE";
            case OP_KILL_CURSORS -> "OP_KILL_CURSORS";
            case OP_COMPRESSED -> "OP_COMPRESSED";
            case OP_MSG -> "OP_MSG";
            default -> "opcode " + opCode;
        };
    }
}
