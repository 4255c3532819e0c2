package io.tetradb.core.store;

import io.tetradb.core.feed.ChangeFeedPage;

/** A change feed page and the request charge it cost (see {@link ContainerStore#readChangeFeed}). */
public record ChargedChangeFeedPage(ChangeFeedPage page, double requestCharge) {
}
