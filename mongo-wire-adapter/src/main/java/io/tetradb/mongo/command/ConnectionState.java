package io.tetradb.mongo.command;

/** What the server keeps per connection: its id, the peer address and the charge of its last operation. */
public final class ConnectionState {
    private final int connectionId;
    private final String remote;
    private volatile double lastRequestCharge;
    private volatile boolean closed;
    private volatile String lastCommand = "";
    private volatile String user;
    private volatile String userDatabase;
    /** Who this connection's sessions belong to, kept with the user so a command costs no allocation for it. */
    private volatile SessionOwner sessionOwner = SessionOwner.UNAUTHENTICATED;
    private volatile org.bson.BsonDocument clientMetadata;
    private volatile io.tetradb.mongo.auth.ScramConversation conversation;

    private final String local;
    /** The peer connected from a loopback address (mongod's "localhost connection", for the localhost exception). */
    private final boolean loopbackPeer;

    public ConnectionState(int connectionId, String remote) {
        this(connectionId, remote, null);
    }

    /** {@code local}: this server's host:port as the client reached it (the replica set member it is), or null. */
    public ConnectionState(int connectionId, String remote, String local) {
        this(connectionId, remote, local, true);
    }

    /** As above; {@code loopbackPeer}: whether the client connected from a loopback address. */
    public ConnectionState(int connectionId, String remote, String local, boolean loopbackPeer) {
        this.connectionId = connectionId;
        this.remote = remote;
        this.local = local;
        this.loopbackPeer = loopbackPeer;
    }

    /** Whether the client connected from a loopback address. */
    public boolean loopbackPeer() {
        return loopbackPeer;
    }

    /** This server's address as this connection reached it ({@code host:port}), or null if unknown. */
    public String local() {
        return local;
    }

    /** Whether the connection has closed (set before its sessionless cursors are closed). */
    public boolean closed() {
        return closed;
    }

    void markClosed() {
        closed = true;
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

    /** The authenticated user, or null. */
    public String user() {
        return user;
    }

    /** What the driver said about itself in its first hello ({@code client}), or null. */
    public org.bson.BsonDocument clientMetadata() {
        return clientMetadata;
    }

    void clientMetadata(org.bson.BsonDocument metadata) {
        this.clientMetadata = metadata;
    }

    /** The database the user authenticated against, or null. */
    public String userDatabase() {
        return userDatabase;
    }

    void user(String user, String database) {
        this.user = user;
        this.userDatabase = database;
        this.sessionOwner = SessionOwner.of(user, database);
    }

    /** The owner of the sessions, cursors and operations this connection starts (mongod's {@code uid}). */
    public SessionOwner sessionOwner() {
        return sessionOwner;
    }

    io.tetradb.mongo.auth.ScramConversation conversation() {
        return conversation;
    }

    void conversation(io.tetradb.mongo.auth.ScramConversation conversation) {
        this.conversation = conversation;
    }

    void lastRequest(String command, double charge) {
        this.lastCommand = command;
        this.lastRequestCharge = charge;
    }
}
