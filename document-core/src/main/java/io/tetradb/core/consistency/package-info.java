/**
 * Consistency levels as Cosmos DB has them: the account's default ({@link io.tetradb.core.consistency.AccountConsistency}),
 * a request's weaker override, and the doubled read charge of strong and bounded staleness.
 */
package io.tetradb.core.consistency;
