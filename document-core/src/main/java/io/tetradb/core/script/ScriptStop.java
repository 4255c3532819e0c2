package io.tetradb.core.script;

/**
 * Stops a script from inside the engine's instruction observer or a host call. An {@link Error}, so that a
 * script's try/catch cannot swallow it (Rhino lets scripts catch Java errors only with enhanced Java access, which
 * is off).
 */
final class ScriptStop extends Error {
    enum Reason { TIMEOUT, MEMORY }

    final Reason reason;

    ScriptStop(Reason reason) {
        super(reason.name(), null, false, false);
        this.reason = reason;
    }
}
