package io.tetradb.document;

/** Provisioned throughput in RU/s. It sets the initial physical partition count: max(1, ceil(RU/s / 10000)). */
public final class ThroughputProperties {
    private final int manualThroughput;

    private ThroughputProperties(int manualThroughput) {
        this.manualThroughput = manualThroughput;
    }

    public static ThroughputProperties createManualThroughput(int throughput) {
        return new ThroughputProperties(throughput);
    }

    public Integer getManualThroughput() {
        return manualThroughput;
    }
}
