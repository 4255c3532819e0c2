package io.tetradb.core.script;

import io.tetradb.core.StoreException;

/**
 * A stored procedure that failed (its error, the time bound, a response too large): the core error as it was, plus
 * the {@code console.log} lines the script wrote before it failed, which Cosmos DB returns with the error when the
 * request asked for the script log.
 */
public final class ScriptFailure extends StoreException {
    private final String scriptLog;

    ScriptFailure(StoreException cause, String scriptLog) {
        super(cause.status(), cause.subStatus(), cause.getMessage());
        initCause(cause);
        this.scriptLog = scriptLog;
    }

    /** The script's log up to the failure ("" if it wrote none). */
    public String scriptLog() {
        return scriptLog;
    }
}
