package io.tetradb.table.http;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.credential.AzureSasCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An account with two keys, as Azure storage accounts have: the Azure Tables SDK signs with either (Shared Key),
 * Shared Key Lite by hand with the secondary, a service SAS and an account SAS made with the secondary; then the
 * primary is rotated while the server runs: the old primary is 403 AuthenticationFailed, the new one and the
 * secondary work, and a SAS signed with the old primary is refused.
 */
class AccountKeysTest {
    private static final String ACCOUNT = "tetraaccount";

    @Test
    void eitherKeySignsAndARotatedOutKeyIsRefused(@TempDir Path dir) throws Exception {
        String primary = newKey();
        String secondary = newKey();
        String next = newKey();
        AccountKeys keys = AccountKeys.of(Map.of(ACCOUNT, List.of(primary, secondary)));
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC)
                .buildClient();
             TableHttpServer server = TableHttpServer.start(InetAddress.getLoopbackAddress(), 0, store, keys,
                     io.tetradb.core.net.ConnectionLimits.defaults(), TableHttpServer.MAX_BODY_BYTES, null)) {
            String endpoint = "http://127.0.0.1:" + server.address().getPort() + "/" + ACCOUNT;
            service(endpoint, primary).createTable("people");
            table(endpoint, primary).upsertEntity(new TableEntity("Smith", "Ben").addProperty("Age", 42));
            assertEquals(42, table(endpoint, secondary).getEntity("Smith", "Ben").getProperty("Age"));
            assertEquals(200, sharedKeyLite(server, secondary).statusCode());

            String serviceSas = table(endpoint, secondary).generateSas(new TableSasSignatureValues(
                    OffsetDateTime.now(ZoneOffset.UTC).plusHours(1), TableSasPermission.parse("r")));
            assertEquals(42, sas(endpoint, serviceSas).getEntity("Smith", "Ben").getProperty("Age"));
            String accountSas = service(endpoint, secondary).generateAccountSas(new TableAccountSasSignatureValues(
                    OffsetDateTime.now(ZoneOffset.UTC).plusHours(1), TableAccountSasPermission.parse("rl"),
                    TableAccountSasService.parse("t"), TableAccountSasResourceType.parse("sco")));
            assertEquals(42, sas(endpoint, accountSas).getEntity("Smith", "Ben").getProperty("Age"));
            String oldPrimarySas = table(endpoint, primary).generateSas(new TableSasSignatureValues(
                    OffsetDateTime.now(ZoneOffset.UTC).plusHours(1), TableSasPermission.parse("r")));

            keys.replace(Map.of(ACCOUNT, List.of(next, secondary))); // regenerate key1

            TableServiceException refused = assertThrows(TableServiceException.class,
                    () -> table(endpoint, primary).getEntity("Smith", "Ben"));
            assertEquals(403, refused.getResponse().getStatusCode());
            assertEquals("AuthenticationFailed", refused.getValue().getErrorCode().toString());
            assertEquals(403, assertThrows(TableServiceException.class,
                    () -> sas(endpoint, oldPrimarySas).getEntity("Smith", "Ben")).getResponse().getStatusCode());
            assertEquals(42, table(endpoint, next).getEntity("Smith", "Ben").getProperty("Age"));
            assertEquals(42, table(endpoint, secondary).getEntity("Smith", "Ben").getProperty("Age"));
            assertEquals(42, sas(endpoint, serviceSas).getEntity("Smith", "Ben").getProperty("Age"),
                    "a SAS of the key kept still works");
            assertEquals(403, assertThrows(TableServiceException.class,
                    () -> table("http://127.0.0.1:" + server.address().getPort() + "/devstoreaccount1",
                            AccountKeys.DEV_KEY).getEntity("Smith", "Ben")).getResponse().getStatusCode(),
                    "Azurite's account is not served when accounts are configured");
        }
    }

    @Test
    void badAccountsAreRefusedWithoutNamingTheKey() {
        String secret = "not*base64*" + "s3cret";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AccountKeys.of(Map.of("acct1", List.of(secret))));
        assertTrue(!e.getMessage().contains(secret) && e.getMessage().contains("acct1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AccountKeys.of(Map.of("Bad_Name", List.of(newKey()))));
        assertThrows(IllegalArgumentException.class,
                () -> AccountKeys.of(Map.of("acct1", List.of(newKey(), newKey(), newKey()))));
        String key = newKey();
        assertEquals("AccountKeys[acct1]", AccountKeys.of(Map.of("acct1", List.of(key))).toString(),
                "toString names accounts only");
    }

    private static HttpResponse<String> sharedKeyLite(TableHttpServer server, String key) throws Exception {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        String toSign = date + "\n/" + ACCOUNT + "/" + ACCOUNT + "/Tables";
        String sig = Base64.getEncoder().encodeToString(SharedKeyAuth.hmac(Base64.getDecoder().decode(key), toSign));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + server.address().getPort() + "/" + ACCOUNT + "/Tables"))
                .header("x-ms-date", date).header("x-ms-version", "2019-02-02")
                .header("Accept", "application/json;odata=nometadata")
                .header("Authorization", "SharedKeyLite " + ACCOUNT + ":" + sig).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static TableServiceClient service(String endpoint, String key) {
        return new TableServiceClientBuilder().endpoint(endpoint)
                .credential(new AzureNamedKeyCredential(ACCOUNT, key)).buildClient();
    }

    private static TableClient table(String endpoint, String key) {
        String account = endpoint.substring(endpoint.lastIndexOf('/') + 1);
        return new TableClientBuilder().endpoint(endpoint).tableName("people")
                .credential(new AzureNamedKeyCredential(account, key)).buildClient();
    }

    private static TableClient sas(String endpoint, String token) {
        return new TableClientBuilder().endpoint(endpoint).tableName("people")
                .credential(new AzureSasCredential(token)).buildClient();
    }

    private static String newKey() {
        byte[] k = new byte[64];
        new SecureRandom().nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }
}
