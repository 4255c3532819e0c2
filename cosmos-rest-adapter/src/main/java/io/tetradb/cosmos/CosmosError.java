package io.tetradb.cosmos;

/**
 * A request the REST face refuses, with the HTTP status, Cosmos sub-status and the {@code code} its JSON error body
 * carries ({@code {"code": "BadRequest", "message": "..."}}).
 */
class CosmosError extends RuntimeException {
    final int status;
    final int subStatus;
    final String code;

    CosmosError(int status, int subStatus, String message) {
        super(message, null, false, false);
        this.status = status;
        this.subStatus = subStatus;
        this.code = codeOf(status);
    }

    CosmosError(int status, String message) {
        this(status, 0, message);
    }

    static CosmosError badRequest(String message) {
        return new CosmosError(400, message);
    }

    static CosmosError notFound(String message) {
        return new CosmosError(404, message);
    }

    /** The reason phrase Cosmos DB puts in {@code code}. */
    static String codeOf(int status) {
        return switch (status) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 408 -> "RequestTimeout";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 412 -> "PreconditionFailed";
            case 413 -> "RequestEntityTooLarge";
            case 424 -> "FailedDependency";
            case 429 -> "TooManyRequests";
            case 449 -> "RetryWith";
            case 503 -> "ServiceUnavailable";
            default -> status >= 500 ? "InternalServerError" : "BadRequest";
        };
    }
}
