package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code GET /}: the database account (docs/cosmos-rest.md §2). The locations point back at the URL the client used
 * (scheme and Host of the request), so the SDKs route their next requests here; {@code id: "localhost"} makes the
 * Node SDK ignore the locations altogether, as it does for the emulator.
 */
final class Account {
    private Account() {
    }

    static ObjectNode document(RestRequest r, io.tetradb.core.consistency.ConsistencyLevel consistency) {
        String host = r.header("host");
        String endpoint = (r.secure() ? "https://" : "http://") + (host == null ? "localhost" : host) + "/";
        ObjectNode a = Json.object();
        a.put("_self", "");
        a.put("id", "localhost");
        a.put("_rid", "localhost");
        a.put("media", "//media/");
        a.put("addresses", "//addresses/");
        a.put("_dbs", "//dbs/");
        for (String key : new String[]{"writableLocations", "readableLocations"}) {
            ArrayNode locations = a.putArray(key);
            locations.addObject().put("name", "TetraDB").put("databaseAccountEndpoint", endpoint);
        }
        a.put("enableMultipleWriteLocations", false);
        a.put("continuousBackupEnabled", false);
        a.put("enableNRegionSynchronousCommit", false);
        a.putObject("userReplicationPolicy").put("asyncReplication", false).put("minReplicaSetSize", 1)
                .put("maxReplicasetSize", 4);
        a.putObject("userConsistencyPolicy").put("defaultConsistencyLevel", consistency.cosmosName());
        a.putObject("systemReplicationPolicy").put("minReplicaSetSize", 1).put("maxReplicasetSize", 4);
        a.putObject("readPolicy").put("primaryReadCoefficient", 1).put("secondaryReadCoefficient", 1);
        a.put("queryEngineConfiguration", "{\"maxSqlQueryInputLength\":262144,\"maxJoinsPerSqlQuery\":5,"
                + "\"maxLogicalAndPerSqlQuery\":500,\"maxLogicalOrPerSqlQuery\":500,\"maxUdfRefPerSqlQuery\":10,"
                + "\"maxInExpressionItemsCount\":16000,\"queryMaxInMemorySortDocumentCount\":500,"
                + "\"maxQueryRequestTimeoutFraction\":0.9,\"sqlAllowNonFiniteNumbers\":false,"
                + "\"sqlAllowAggregateFunctions\":true,\"sqlAllowSubQuery\":true,\"sqlAllowScalarSubQuery\":true,"
                + "\"allowNewKeywords\":true,\"sqlAllowLike\":true,\"sqlAllowGroupByClause\":true,"
                + "\"maxSpatialQueryCells\":12,\"spatialMaxGeometryPointCount\":256,\"sqlDisableOptimizationFlags\":0,"
                + "\"sqlAllowTop\":true,\"enableSpatialIndexing\":true}");
        return a;
    }
}
