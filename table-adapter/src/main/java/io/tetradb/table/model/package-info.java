/**
 * The Azure Tables data model, independent of storage and protocol: Edm types and typed values, entities, Azure's
 * limits with their error codes, and {@link io.tetradb.table.model.TableException} (status + Tables error code).
 */
package io.tetradb.table.model;
