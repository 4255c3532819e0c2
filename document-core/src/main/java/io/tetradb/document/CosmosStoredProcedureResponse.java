package io.tetradb.document;

/**
 * The answer to a stored procedure request: for CRUD its properties; for an execution the body the procedure set
 * ({@code getResponse().setBody(...)}, as JSON text), its log and its request charge (its operations' charges plus
 * its CPU cost).
 */
public final class CosmosStoredProcedureResponse {
    private final int statusCode;
    private final CosmosStoredProcedureProperties properties;
    private final String responseAsString;
    private final String scriptLog;
    private final double requestCharge;

    CosmosStoredProcedureResponse(int statusCode, CosmosStoredProcedureProperties properties, String responseAsString,
                                  String scriptLog, double requestCharge) {
        this.statusCode = statusCode;
        this.properties = properties;
        this.responseAsString = responseAsString;
        this.scriptLog = scriptLog;
        this.requestCharge = requestCharge;
    }

    public int getStatusCode() {
        return statusCode;
    }

    public CosmosStoredProcedureProperties getProperties() {
        return properties;
    }

    /** The response body as JSON text ({@code ""} when the procedure set none). */
    public String getResponseAsString() {
        return responseAsString;
    }

    /** The {@code console.log} lines, when script logging was enabled; else null. */
    public String getScriptLog() {
        return scriptLog;
    }

    public double getRequestCharge() {
        return requestCharge;
    }
}
