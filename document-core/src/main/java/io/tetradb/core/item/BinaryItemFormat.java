package io.tetradb.core.item;

/**
 * The binary item format ("TB1"): a typed value tree in which every object carries a table of its fields sorted by
 * name, so one field (or a nested path) is found by binary search and read without decoding anything else; every
 * container carries its size, so a reader skips a value it does not want in O(1). Little-endian fixed-width numbers.
 * Full reasons and measurements: document-core/docs/item-format.md.
 * <pre>
 * value    := tag payload
 *   0x01 null   0x02 false   0x03 true
 *   0x04 Int32 i32            0x05 Int64 i64          0x06 Double f64          0x07 Float f32
 *   0x08 BigInteger  varint n · n bytes (two's complement, big-endian)
 *   0x09 BigDecimal  zigzag-varint scale · varint n · n bytes of the unscaled value
 *   0x0A Decimal128  as BigDecimal     0x0B Decimal128 NaN / +Inf / -Inf: one byte 0 / 1 / 2
 *   0x10 String      varint n · n bytes UTF-8 (a lone surrogate as its 3-byte form, so any Java string round-trips)
 *   0x20 Object      u32 size · varint count · count × u16 offset · entries     (size = bytes after the size field)
 *   0x21 Object      the same with u32 offsets (objects of 64 KiB and more)
 *   0x22 Array       u32 size · varint count · values
 *   0x30 DateTime    i64 ticks (100 ns since 1970 UTC)      0x31 DateTime with offset: i64 ticks · i16 minutes
 *   0x32 Binary      subtype(1) · varint n · bytes          0x33 ObjectId 12 bytes        0x34 UUID 16 bytes (BE)
 *   0x35 Timestamp   u64 (seconds·2^32 + increment)        0x36 Regex: string · string (pattern, options)
 *   0x37 MinKey      0x38 MaxKey
 * entries  := (key value)* in the item's own field order; key := varint n · n bytes UTF-8
 * offsets  := for each field in unsigned UTF-8 byte order of its key: where its key starts, from the first entry
 * </pre>
 * The keys of one object are distinct: the tree writer writes a map, the stream writer refuses a repeated name, and
 * the tree decoder relies on it (core-read: it appends each field without looking its name up).
 */
public final class BinaryItemFormat {
    static final int NULL = 0x01;
    static final int FALSE = 0x02;
    static final int TRUE = 0x03;
    static final int INT32 = 0x04;
    static final int INT64 = 0x05;
    static final int DOUBLE = 0x06;
    static final int FLOAT = 0x07;
    static final int BIG_INTEGER = 0x08;
    static final int BIG_DECIMAL = 0x09;
    static final int DECIMAL128 = 0x0A;
    static final int DECIMAL128_SPECIAL = 0x0B;
    static final int STRING = 0x10;
    static final int OBJECT = 0x20;
    static final int OBJECT_WIDE = 0x21;
    static final int ARRAY = 0x22;
    static final int DATE_TIME = 0x30;
    static final int DATE_TIME_OFFSET = 0x31;
    static final int BINARY = 0x32;
    static final int OBJECT_ID = 0x33;
    static final int UUID = 0x34;
    static final int TIMESTAMP = 0x35;
    static final int REGEX = 0x36;
    static final int MIN_KEY = 0x37;
    static final int MAX_KEY = 0x38;

    private BinaryItemFormat() {
    }
}
