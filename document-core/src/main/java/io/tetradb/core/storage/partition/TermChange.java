package io.tetradb.core.storage.partition;

/**
 * One index term of an item added or removed by a {@link PartitionWrite}. {@code term} is the core's index entry
 * without its container id and address: {@code pathId(4) · enc(value)} (or a composite's {@code pathId · enc(v1) …
 * enc(vn)}), so terms sort as the values do and an index seek is a range of terms.
 */
public record TermChange(byte[] term, String id, boolean added) {
}
