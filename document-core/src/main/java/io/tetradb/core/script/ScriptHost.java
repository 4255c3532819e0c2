package io.tetradb.core.script;

/**
 * What a running script may ask of the store: one operation by name, with JSON arguments, answering JSON
 * ({@code {"ok":true,...}}, {@code {"ok":false,"status":n,"message":"..."}} or {@code {"accepted":false}}).
 * Only strings cross between the script and Java, so no Java object is ever visible to a script.
 */
public interface ScriptHost {
    String call(String op, String json);
}
