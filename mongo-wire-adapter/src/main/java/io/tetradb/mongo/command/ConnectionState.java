package io.tetradb.mongo.command;

/** What the server keeps per connection: its id, the peer address and the charge of its last operation. */
public final class ConnectionState {
    private final int connectionId;
    private final String remote;
    private volatile double lastRequestCharge;
    private volatile String lastCommand = "";

    public ConnectionState(int connectionId, String remote) {
        this.connectionId = connectionId;
        this.remote = remote;
    }

    public int connectionId() {
        return connectionId;
    }

    public String remote() {
        return remote;
    }

    public double lastRequestCharge() {
        return lastRequestCharge;
    }

    public String lastCommand() {
        return lastCommand;
    }

    void lastRequest(String command, double charge) {
        this.lastCommand = command;
        this.lastRequestCharge = charge;
    }
}
