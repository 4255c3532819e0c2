package io.tetradb.document;

import java.util.ArrayList;
import java.util.List;

/** A container's partition key paths and kind, as in azure-cosmos. Hash V2 is the only version. */
public final class PartitionKeyDefinition {
    private List<String> paths = new ArrayList<>();
    private PartitionKind kind;

    public List<String> getPaths() {
        return paths;
    }

    public PartitionKeyDefinition setPaths(List<String> paths) {
        this.paths = new ArrayList<>(paths);
        return this;
    }

    public PartitionKind getKind() {
        return kind != null ? kind : paths.size() > 1 ? PartitionKind.MULTI_HASH : PartitionKind.HASH;
    }

    public PartitionKeyDefinition setKind(PartitionKind kind) {
        this.kind = kind;
        return this;
    }

    io.tetradb.core.partition.PartitionKeyDefinition toCore() {
        return new io.tetradb.core.partition.PartitionKeyDefinition(paths, getKind().wireName(), 2);
    }

    static PartitionKeyDefinition of(io.tetradb.core.partition.PartitionKeyDefinition core) {
        return new PartitionKeyDefinition().setPaths(core.paths())
                .setKind(core.kind().equals("MultiHash") ? PartitionKind.MULTI_HASH : PartitionKind.HASH);
    }
}
