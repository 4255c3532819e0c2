package io.tetradb.document;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A user-defined function: id and a JavaScript function body, callable in SQL as {@code udf.<id>(args)}. */
public final class CosmosUserDefinedFunctionProperties extends ScriptProperties {
    public CosmosUserDefinedFunctionProperties(String id, String body) {
        super(id, body);
    }

    public CosmosUserDefinedFunctionProperties setId(String id) {
        id(id);
        return this;
    }

    public CosmosUserDefinedFunctionProperties setBody(String body) {
        body(body);
        return this;
    }

    public static CosmosUserDefinedFunctionProperties of(ObjectNode n) {
        CosmosUserDefinedFunctionProperties p = new CosmosUserDefinedFunctionProperties(n.path("id").asText(),
                n.path("body").asText());
        p.readSystem(n);
        return p;
    }
}
