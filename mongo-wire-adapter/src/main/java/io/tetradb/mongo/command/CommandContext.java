package io.tetradb.mongo.command;

/** What a command runs with: its connection, its database, and a place for the request charge it spent. */
public final class CommandContext {
    private final ConnectionState connection;
    private final String database;
    private double requestCharge;

    public CommandContext(ConnectionState connection, String database) {
        this.connection = connection;
        this.database = database;
    }

    public ConnectionState connection() {
        return connection;
    }

    public String database() {
        return database;
    }

    public void charge(double ru) {
        requestCharge += ru;
    }

    public double requestCharge() {
        return requestCharge;
    }
}
