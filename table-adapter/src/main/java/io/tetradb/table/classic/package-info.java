/**
 * The classic table API (the shape of {@code com.microsoft.azure.storage.table} / the Cosmos DB Table SDK that
 * older samples use): {@code CloudTableClient}, {@code CloudTable}, {@code TableOperation.retrieve("Smith", "Ben",
 * CustomerEntity.class)}, insert / insertOrReplace / insertOrMerge / replace / merge / delete,
 * {@code TableBatchOperation}, {@code TableQuery} with {@code generateFilterCondition} / {@code combineFilters}, and
 * POJO entities mapped by their getters and setters — a thin layer over {@link io.tetradb.table.TableClient}.
 */
package io.tetradb.table.classic;
