package io.tetradb.document;

import java.util.List;

/**
 * The outcome of a transactional batch. When it failed, {@link #getStatusCode()} is the status of the operation
 * that failed, that operation's result carries it too, and every other result is 424.
 */
public final class CosmosBatchResponse {
    private final List<CosmosBatchOperationResult> results;

    CosmosBatchResponse(List<CosmosBatchOperationResult> results) {
        this.results = List.copyOf(results);
    }

    public boolean isSuccessStatusCode() {
        return results.stream().allMatch(r -> r.getStatusCode() < 400);
    }

    public int getStatusCode() {
        return results.stream().map(CosmosBatchOperationResult::getStatusCode)
                .filter(s -> s >= 400 && s != 424).findFirst().orElse(200);
    }

    public String getErrorMessage() {
        return results.stream().filter(r -> r.getStatusCode() >= 400 && r.getStatusCode() != 424)
                .map(CosmosBatchOperationResult::getErrorMessage).findFirst().orElse(null);
    }

    public List<CosmosBatchOperationResult> getResults() {
        return results;
    }

    public int size() {
        return results.size();
    }

    public double getRequestCharge() {
        return results.stream().mapToDouble(CosmosBatchOperationResult::getRequestCharge).sum();
    }
}
