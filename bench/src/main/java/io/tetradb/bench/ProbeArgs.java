package io.tetradb.bench;

import java.nio.file.Path;

/**
 * A diagnostic probe's command line: a data directory, then optional whole numbers by position, each with its default
 * ({@code Probe DIR [a] [b] …}); a missing directory or a number that is not one is a clear error.
 */
public final class ProbeArgs {
    private final String[] args;
    private final String usage;

    public ProbeArgs(String[] args, String usage) {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: " + usage);
        }
        this.args = args;
        this.usage = usage;
    }

    /** The data directory (the first argument). */
    public Path dir() {
        return Path.of(args[0]);
    }

    /** The whole number at {@code position} (1 is the one after the directory), or {@code otherwise} if not given. */
    public int intAt(int position, String name, int otherwise) {
        if (position >= args.length) {
            return otherwise;
        }
        try {
            return Integer.parseInt(args[position]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, not '" + args[position] + "' (usage: "
                    + usage + ")");
        }
    }
}
