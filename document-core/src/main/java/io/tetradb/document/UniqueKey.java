package io.tetradb.document;

import java.util.List;

/** One unique key: the paths whose values together are unique within a logical partition (as azure-cosmos). */
public final class UniqueKey {
    private List<String> paths;

    public UniqueKey(List<String> paths) {
        this.paths = List.copyOf(paths);
    }

    public List<String> getPaths() {
        return paths;
    }

    public UniqueKey setPaths(List<String> paths) {
        this.paths = List.copyOf(paths);
        return this;
    }
}
