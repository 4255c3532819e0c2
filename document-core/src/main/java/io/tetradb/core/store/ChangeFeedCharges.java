package io.tetradb.core.store;

import io.tetradb.core.consistency.AccountConsistency;
import io.tetradb.core.consistency.ConsistencyLevel;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.throughput.PartitionBudget;

import java.util.List;

/**
 * A change feed page read as a metered request: admitted by the budgets of the partitions it reads (429 when they are
 * spent and rate limiting is on), charged 1 RU per KB of items returned (1 RU for an empty page, Cosmos DB's 304),
 * twice at strong or bounded-staleness consistency, and that charge paid to the same budgets.
 */
final class ChangeFeedCharges {
    private ChangeFeedCharges() {
    }

    static ChargedChangeFeedPage read(ContainerStore c, AccountConsistency account, ChangeFeedRequest request,
                                      ConsistencyLevel consistency) {
        int factor = account.readChargeFactor(consistency);
        RateLimiter limiter = c.rateLimiter();
        PartitionKeyValue pk = request.partitionKey();
        List<PartitionBudget> budgets;
        if (pk != null && pk.levels() == c.definition().partitionKey().levels()) {
            budgets = List.of(limiter.admit(c, pk.epk()));
        } else {
            budgets = limiter.admit(c, pk != null ? EpkRange.prefixOf(pk.epk()) : request.range());
        }
        ChangeFeedPage page = c.changeFeed().read(request);
        long bytes = 0;
        for (ChangeFeedPage.Change change : page.changes()) {
            bytes += change.size();
        }
        double charge = RequestCharge.atFactor(RequestCharge.feedPage(bytes, page.changes().size()), factor);
        limiter.settle(budgets, charge);
        return new ChargedChangeFeedPage(page, charge);
    }
}
