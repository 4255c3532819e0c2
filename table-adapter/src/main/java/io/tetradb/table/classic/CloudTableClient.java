package io.tetradb.table.classic;

import io.tetradb.table.TableServiceClient;

import java.util.List;
import java.util.stream.Collectors;

/** The classic entry point: table references by name, over a {@link TableServiceClient}. */
public final class CloudTableClient {
    private final TableServiceClient service;

    public CloudTableClient(TableServiceClient service) {
        this.service = service;
    }

    public CloudTable getTableReference(String name) {
        return new CloudTable(service, name);
    }

    public List<String> listTables() {
        return service.listTables().stream().map(t -> t.getName()).collect(Collectors.toList());
    }
}
