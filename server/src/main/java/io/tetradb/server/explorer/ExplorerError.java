package io.tetradb.server.explorer;

import io.tetradb.document.CosmosException;

/** A refused explorer API request: its HTTP status and the {@code {code, message}} body, as Cosmos DB words them. */
final class ExplorerError extends RuntimeException {
    final int status;

    ExplorerError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static ExplorerError badRequest(String message) {
        return new ExplorerError(400, message);
    }

    static ExplorerError notFound(String message) {
        return new ExplorerError(404, message);
    }

    /** What the core refused keeps the core's status. */
    static ExplorerError of(CosmosException e) {
        return new ExplorerError(e.getStatusCode(), e.getMessage());
    }

    String code() {
        return switch (status) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 409 -> "Conflict";
            case 412 -> "PreconditionFailed";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            default -> status >= 500 ? "InternalServerError" : "BadRequest";
        };
    }
}
