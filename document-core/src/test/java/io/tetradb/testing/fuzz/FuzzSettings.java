package io.tetradb.testing.fuzz;

import java.time.Duration;

/**
 * How long a fuzz run is. The short form runs in every {@code mvn verify} (a few thousand inputs, a few seconds per
 * face); the long form is {@code -Dtetradb.fuzz.inputs=1000000} (and {@code -Dtetradb.fuzz.minutes=N} to bound it in
 * time). {@code -Dtetradb.fuzz.seed=N} replays a run: every input is derived from the seed, so a failure reproduces.
 *
 * @param inputs  how many inputs to send at most
 * @param seed    the random seed every input derives from
 * @param budget  stop early after this long (the short form must stay short on a loaded machine)
 */
public record FuzzSettings(long inputs, long seed, Duration budget) {
    public static final long SHORT_FORM_INPUTS = 2_000;

    /** The settings from system properties, with the short form's defaults. */
    public static FuzzSettings fromSystemProperties() {
        long inputs = Long.getLong("tetradb.fuzz.inputs", SHORT_FORM_INPUTS);
        long seed = Long.getLong("tetradb.fuzz.seed", 19L);
        long defaultMinutes = inputs > SHORT_FORM_INPUTS ? 600 : 1;
        return new FuzzSettings(inputs, seed, Duration.ofMinutes(Long.getLong("tetradb.fuzz.minutes", defaultMinutes)));
    }

    public boolean longForm() {
        return inputs > SHORT_FORM_INPUTS;
    }
}
