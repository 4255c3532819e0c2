package io.tetradb.core.script;

/**
 * What a running script may ask of the store: one operation by name, with its arguments as a JSON tree, answering
 * JSON text ({@code {"ok":true,...}}, {@code {"ok":false,"status":n,"message":"..."}} or {@code {"accepted":false}}).
 * Only JSON crosses between the script and Java, so no Java object is ever visible to a script.
 */
public interface ScriptHost {
    String call(String op, com.fasterxml.jackson.databind.JsonNode args);
}
