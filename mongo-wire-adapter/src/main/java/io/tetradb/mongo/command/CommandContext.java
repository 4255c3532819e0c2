package io.tetradb.mongo.command;

/** What a command runs with: its connection, its database, and a place for the request charge it spent. */
public final class CommandContext {
    private final ConnectionState connection;
    private final String database;
    private double requestCharge;
    private io.tetradb.mongo.txn.Transaction transaction;

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

    /** The multi-document transaction the command runs in, or null. */
    public io.tetradb.mongo.txn.Transaction transaction() {
        return transaction;
    }

    void transaction(io.tetradb.mongo.txn.Transaction txn) {
        this.transaction = txn;
    }

    /** {@code coll} as this command sees it: through its transaction's writes when it runs in one (null stays null). */
    public io.tetradb.mongo.store.MongoCollection view(io.tetradb.mongo.store.MongoCollection coll) {
        if (coll == null) {
            return null;
        }
        io.tetradb.mongo.store.MongoCollection view = coll.in(transaction);
        return unjournaled ? view.unjournaled() : view;
    }

    private boolean unjournaled;

    /** The command's write concern does not ask for the journal (see {@link WriteConcerns}). */
    void unjournaled(boolean value) {
        this.unjournaled = value;
    }

    public void charge(double ru) {
        requestCharge += ru;
    }

    public double requestCharge() {
        return requestCharge;
    }
}
