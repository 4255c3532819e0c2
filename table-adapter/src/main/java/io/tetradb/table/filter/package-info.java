/**
 * OData {@code $filter} of Azure Tables: a hand-written parser to a small AST, its compilation to the core's
 * expression tree (so the core plans index seeks and partition routing), and an in-memory evaluator.
 */
package io.tetradb.table.filter;
