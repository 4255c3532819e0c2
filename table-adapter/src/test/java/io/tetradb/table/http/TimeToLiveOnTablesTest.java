package io.tetradb.table.http;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.ttl.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Azure Tables has no time to live of its own, but a table is a core container: when the core's TTL is turned on for
 * it (from another face or the document API), expired entities vanish from the Tables SDK's reads at once too.
 */
class TimeToLiveOnTablesTest extends SdkTestBase {
    final ManualClock manual = new ManualClock();

    @Override
    Clock clock() {
        return manual;
    }

    @Test
    void entitiesOfATableWithCoreTtlExpireForTheTablesSdk() {
        service.createTable("sessions");
        TableClient t = service.getTableClient("sessions");
        t.createEntity(new TableEntity("p", "old").addProperty("v", 1));
        ContainerDefinition def = cosmos.coreStore().listContainers("devstoreaccount1").stream()
                .filter(d -> d.id().equalsIgnoreCase("sessions")).findFirst().orElseThrow();
        cosmos.coreStore().replaceContainer(def.database(), def.id(), null, def.indexingPolicy(), 30);
        manual.advance(Duration.ofSeconds(20));
        t.createEntity(new TableEntity("p", "young").addProperty("v", 2));
        assertEquals(Set.of("old", "young"), rows(t));
        manual.advance(Duration.ofSeconds(10));
        assertEquals(Set.of("young"), rows(t));
        TableServiceException gone = assertThrows(TableServiceException.class, () -> t.getEntity("p", "old"));
        assertEquals(404, gone.getResponse().getStatusCode());
        assertEquals(Set.of("young"), t.listEntities().stream().filter(e -> e.getPartitionKey().equals("p"))
                .map(TableEntity::getRowKey).collect(Collectors.toSet()));
        // the row key is free again, as after a delete
        t.createEntity(new TableEntity("p", "old").addProperty("v", 3));
        assertEquals(3, t.getEntity("p", "old").getProperty("v"));
    }

    private static Set<String> rows(TableClient t) {
        return t.listEntities().stream().map(TableEntity::getRowKey).collect(Collectors.toSet());
    }
}
