package io.tetradb.core.unique;

/**
 * Two stored items of one logical partition holding the same unique key values, found when the entries of a container
 * written before the core enforced unique keys were built: {@code holder} keeps the values (the first in key order),
 * {@code id} is listed here: it keeps its values until the user changes or deletes one of the two (nothing is
 * repaired automatically), and no third item can take them meanwhile.
 *
 * @param keyNo the unique key's position in the container's policy
 */
public record UniqueKeyCollision(String partitionKey, String id, String holder, int keyNo) {
}
