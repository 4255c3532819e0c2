/**
 * Tables and entities over the core: an account is a core database, a table a container (partition key
 * {@code /PartitionKey}, RowKey = item id), an entity an item with its Edm types tagged beside plain JSON values.
 */
package io.tetradb.table.store;
