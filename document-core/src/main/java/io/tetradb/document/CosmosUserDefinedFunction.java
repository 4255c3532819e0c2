package io.tetradb.document;

import io.tetradb.core.Status;
import io.tetradb.core.store.ScriptDefinitions.Kind;

/** One user-defined function, as azure-cosmos' {@code CosmosUserDefinedFunction}: read, replace, delete. */
public final class CosmosUserDefinedFunction {
    private final CosmosScripts scripts;
    private final String id;

    CosmosUserDefinedFunction(CosmosScripts scripts, String id) {
        this.scripts = scripts;
        this.id = id;
    }

    public String getId() {
        return id;
    }

    public CosmosUserDefinedFunctionResponse read() {
        return CosmosException.call(() -> new CosmosUserDefinedFunctionResponse(Status.OK,
                CosmosUserDefinedFunctionProperties.of(scripts.scripts().read(Kind.USER_DEFINED_FUNCTION, id))));
    }

    public CosmosUserDefinedFunctionResponse replace(CosmosUserDefinedFunctionProperties properties) {
        return CosmosException.call(() -> new CosmosUserDefinedFunctionResponse(Status.OK,
                CosmosUserDefinedFunctionProperties.of(scripts.scripts().replace(Kind.USER_DEFINED_FUNCTION, id, properties.toJson(), null))));
    }

    public CosmosUserDefinedFunctionResponse delete() {
        return CosmosException.call(() -> {
            scripts.scripts().delete(Kind.USER_DEFINED_FUNCTION, id, null);
            return new CosmosUserDefinedFunctionResponse(Status.NO_CONTENT, null);
        });
    }
}
