package io.tetradb.document;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A stored procedure: id and JavaScript body (one function taking the execution's parameters). */
public final class CosmosStoredProcedureProperties extends ScriptProperties {
    public CosmosStoredProcedureProperties(String id, String body) {
        super(id, body);
    }

    public CosmosStoredProcedureProperties setId(String id) {
        id(id);
        return this;
    }

    public CosmosStoredProcedureProperties setBody(String body) {
        body(body);
        return this;
    }

    /** From the stored resource. */
    public static CosmosStoredProcedureProperties of(ObjectNode n) {
        CosmosStoredProcedureProperties p = new CosmosStoredProcedureProperties(n.path("id").asText(),
                n.path("body").asText());
        p.readSystem(n);
        return p;
    }
}
