package io.tetradb.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * What {@code tetradb.yaml} holds: the credentials of every face and the TLS certificate, in one place.
 * <pre>
 * cosmos:
 *   key: BASE64                 # the master key (read-write)
 *   readOnlyKey: BASE64         # the read-only key
 * tables:
 *   accounts:
 *     - name: myaccount
 *       key1: BASE64            # primary
 *       key2: BASE64            # secondary (optional)
 * gremlin:
 *   auth: true                  # SASL PLAIN against the server's users (made with the Mongo face's createUser)
 * tls:
 *   certificate: server.pem     # PEM chain; relative to this file's directory
 *   key: server.key             # its PKCS#8 PEM private key
 * </pre>
 * Unknown names are refused (a misspelt {@code readOnlyKey} must not silently leave a face open).
 */
record TetraDbYaml(Cosmos cosmos, Tables tables, Gremlin gremlin, Tls tls) {
    record Cosmos(String key, @JsonProperty("readOnlyKey") String readOnlyKey) {
    }

    record Tables(List<Account> accounts) {
    }

    record Account(String name, String key1, String key2) {
    }

    record Gremlin(Boolean auth) {
    }

    record Tls(String certificate, String key) {
    }
}
