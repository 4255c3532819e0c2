package io.tetradb.core;

/** The HTTP-style status codes the core uses (the Cosmos DB REST convention). */
public final class Status {
    public static final int OK = 200;
    public static final int CREATED = 201;
    public static final int NO_CONTENT = 204;
    public static final int NOT_MODIFIED = 304;
    public static final int BAD_REQUEST = 400;
    public static final int FORBIDDEN = 403;
    public static final int NOT_FOUND = 404;
    public static final int CONFLICT = 409;
    public static final int PRECONDITION_FAILED = 412;
    public static final int REQUEST_TIMEOUT = 408;
    public static final int REQUEST_ENTITY_TOO_LARGE = 413;
    public static final int FAILED_DEPENDENCY = 424;
    public static final int INTERNAL_SERVER_ERROR = 500;

    /** Cosmos sub-status of 403: the logical partition reached its maximum size. */
    public static final int SUB_PARTITION_KEY_QUOTA_EXCEEDED = 1014;

    private Status() {
    }

    public static boolean isSuccess(int status) {
        return status >= 200 && status < 300;
    }
}
