/**
 * One order over all values, and the byte encoding that carries it into index keys.
 *
 * <h2>Why one order</h2>
 * ORDER BY, index range seeks, the k-way merge of a fan-out query, DISTINCT / GROUP BY and MIN / MAX must all agree,
 * or an indexed query returns something a full scan would not (the engine's property test compares exactly these).
 * So there is one comparator, {@link io.tetradb.core.value.ValueOrder}, and the index key encoding
 * {@link io.tetradb.core.value.IndexKeyEncoding} is defined as "bytes whose unsigned order is that comparator" and
 * tested against it on random values, rather than being a second, hand-kept copy of the rules.
 *
 * <h2>The order</h2>
 * {@code undefined < null < boolean < number < string < array < object}, the order Cosmos DB's SDKs use when they
 * merge ORDER BY results of mixed types (azure-sdk-for-java {@code ItemType}: NoValue, Null, Boolean, Number, String,
 * ArrayNode, ObjectNode; azure-cosmos-dotnet-v3 PR #853) and consistent with the part the ORDER BY reference documents
 * (https://learn.microsoft.com/azure/cosmos-db/nosql/query/order-by: null values are the lowest values; items whose
 * sort property is undefined are returned; observed against Cosmos to come first in ascending order). No Cosmos
 * documentation page found states the whole mixed-type order. Numbers compare by exact value across every Jackson
 * number node (5 == 5.0; a long 2^53+1 is above the double 2^53), strings ordinally by UTF-16 code unit as the SDKs
 * do, arrays element-wise then by length, objects by their properties in sorted-key order. Cosmos compares arrays and
 * objects only by hash and numbers as doubles; the order here agrees with Cosmos on every number a double holds
 * exactly and on all scalars otherwise, and is total and exact where Cosmos is not (integers beyond 2^53, decimals,
 * arrays, objects), which the Mongo face (Int64, Decimal128, BSON's structural order) needs.
 * Comparison operators in queries remain Cosmos's: across types, or between arrays or objects, they are undefined
 * (https://learn.microsoft.com/azure/cosmos-db/nosql/query/equality-comparison-operators); see {@link
 * io.tetradb.core.value.ValueOrder#compareForQuery} and {@link io.tetradb.core.value.ValueOrder#equalsForQuery}.
 *
 * <h2>The encoding</h2>
 * A type tag (the type rank; ranks are spaced by 8 so the Mongo / Tables / Gremlin types can be slotted in later
 * without changing stored keys), then a self-delimiting body: numbers as their nearest double plus an exact remainder
 * (10 bytes for every double, exact for Int64 and decimals), strings as UTF-16 units in UTF-8 form with 0x00 escaped
 * and a 0x00 0x01 terminator (so a string prefix is a key prefix and {@code STARTSWITH} is one range), arrays and
 * objects as their components followed by 0x00. Self-delimiting means {@code enc(v) · suffix} sorts by {@code v}
 * first and a composite index key is a plain concatenation; {@link io.tetradb.core.value.KeyRange} turns
 * {@code = > >= < <= BETWEEN STARTSWITH} into key ranges.
 */
package io.tetradb.core.value;
