/**
 * The table face's embedded Java API, in the shape of the Azure SDK ({@link io.tetradb.table.TableServiceClient},
 * {@link io.tetradb.table.TableClient}, {@link io.tetradb.table.TableEntity}, ...) over the core store. The
 * subpackages hold the data model ({@code model}), the OData {@code $filter} ({@code filter}), tables and entities
 * over core containers ({@code store}), the Azure Tables REST endpoint ({@code http}) and the classic API
 * ({@code classic}).
 */
package io.tetradb.table;
