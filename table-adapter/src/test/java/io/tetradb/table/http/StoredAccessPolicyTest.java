package io.tetradb.table.http;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableAccessPolicies;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableSignedIdentifier;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored access policies ({@code ?comp=acl}) through the Azure Tables Java SDK: set and read back, a SAS that names a
 * policy gets the policy's permissions and expiry, changing or removing the policy changes or revokes the SAS at once,
 * and bad policy documents are refused without changing what is stored.
 */
class StoredAccessPolicyTest extends SdkTestBase {
    private static final OffsetDateTime IN_AN_HOUR = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1)
            .truncatedTo(ChronoUnit.SECONDS);

    private static TableSignedIdentifier policy(String id, String permissions, OffsetDateTime expiry) {
        return new TableSignedIdentifier(id).setAccessPolicy(new TableAccessPolicy().setPermissions(permissions)
                .setStartsOn(OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(5).truncatedTo(ChronoUnit.SECONDS))
                .setExpiresOn(expiry));
    }

    /** The SDK reads an empty {@code <SignedIdentifiers/>} as null. */
    private static List<TableSignedIdentifier> identifiers(TableClient t) {
        List<TableSignedIdentifier> ids = t.getAccessPolicies().getIdentifiers();
        return ids == null ? List.of() : ids;
    }

    /** An XML error answer (ACL operations answer in XML, as Azure Storage does). */
    private void assertXmlError(HttpResponse<String> r, int status, String code) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals(code, r.headers().firstValue("x-ms-error-code").orElse(null));
        assertTrue(r.body().contains("<code>" + code + "</code><message xml:lang=\"en-US\">"), r.body());
        assertServing();
    }

    private TableClient withSas(String table, String sas) {
        return new TableClientBuilder().endpoint(endpoint()).tableName(table).sasToken(sas).buildClient();
    }

    @Test
    void policiesAreSetReadBackAndGovernTheSasThatNamesThem() {
        TableClient owner = freshTable("acltable");
        owner.createEntity(new TableEntity("p", "r").addProperty("V", 1));
        assertTrue(identifiers(owner).isEmpty(), "a new table has no policies");

        owner.setAccessPolicies(List.of(policy("readers", "r", IN_AN_HOUR), policy("writers", "raud", IN_AN_HOUR)));
        TableAccessPolicies read = owner.getAccessPolicies();
        assertEquals(2, read.getIdentifiers().size());
        TableSignedIdentifier readers = read.getIdentifiers().get(0);
        assertEquals("readers", readers.getId());
        assertEquals("r", readers.getAccessPolicy().getPermissions());
        assertEquals(IN_AN_HOUR.toInstant(), readers.getAccessPolicy().getExpiresOn().toInstant());
        assertEquals("writers", read.getIdentifiers().get(1).getId());

        // a SAS that names only the policy: the policy's permissions and expiry apply
        TableClient reader = withSas("acltable", owner.generateSas(new TableSasSignatureValues("readers")));
        assertEquals(1, reader.getEntity("p", "r").getProperty("V"));
        TableServiceException denied = assertThrows(TableServiceException.class,
                () -> reader.createEntity(new TableEntity("p", "x")));
        assertEquals(403, denied.getResponse().getStatusCode());
        assertEquals("AuthorizationPermissionMismatch", denied.getValue().getErrorCode().toString());

        TableClient writer = withSas("acltable", owner.generateSas(new TableSasSignatureValues("writers")));
        writer.submitTransaction(List.of(new TableTransactionAction(TableTransactionActionType.CREATE,
                new TableEntity("p", "w"))));
        assertEquals(2, owner.listEntities().stream().count());

        // changing the policy changes what every SAS naming it may do, at once
        owner.setAccessPolicies(List.of(policy("readers", "ra", IN_AN_HOUR), policy("writers", "raud", IN_AN_HOUR)));
        reader.createEntity(new TableEntity("p", "x"));
        assertEquals(3, owner.listEntities().stream().count());

        // a policy that has expired refuses the SAS
        owner.setAccessPolicies(List.of(policy("readers", "r", OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(1)),
                policy("writers", "raud", IN_AN_HOUR)));
        TableServiceException expired = assertThrows(TableServiceException.class, () -> reader.getEntity("p", "r"));
        assertEquals(403, expired.getResponse().getStatusCode());
        assertEquals("AuthenticationFailed", expired.getValue().getErrorCode().toString());

        // removing the policy revokes the SAS
        owner.setAccessPolicies(List.of(policy("readers", "r", IN_AN_HOUR)));
        TableServiceException revoked = assertThrows(TableServiceException.class, () -> writer.getEntity("p", "r"));
        assertEquals(403, revoked.getResponse().getStatusCode());
        assertEquals("AuthenticationFailed", revoked.getValue().getErrorCode().toString());

        // a field given by both the SAS and the policy is refused
        TableSasSignatureValues both = new TableSasSignatureValues(IN_AN_HOUR, TableSasPermission.parse("r"))
                .setIdentifier("readers");
        TableServiceException twice = assertThrows(TableServiceException.class,
                () -> withSas("acltable", owner.generateSas(both)).getEntity("p", "r"));
        assertEquals(403, twice.getResponse().getStatusCode());

        // a SAS cannot read or set the policies, even one that grants everything
        TableClient all = withSas("acltable", owner.generateSas(new TableSasSignatureValues(IN_AN_HOUR,
                TableSasPermission.parse("raud"))));
        // (the SDK reads the XML error of the ACL operations as a plain HttpResponseException)
        assertEquals(403, assertThrows(HttpResponseException.class, all::getAccessPolicies)
                .getResponse().getStatusCode());
        assertEquals(403, assertThrows(HttpResponseException.class, () -> all.setAccessPolicies(List.of()))
                .getResponse().getStatusCode());
        assertEquals(1, identifiers(owner).size(), "nothing changed");
    }

    @Test
    void aTableCreatedAgainStartsWithoutPoliciesAndTheSystemContainerStaysHidden() {
        TableClient first = freshTable("recreated");
        first.setAccessPolicies(List.of(policy("p1", "r", IN_AN_HOUR)));
        String sas = first.generateSas(new TableSasSignatureValues("p1"));
        service.deleteTable("recreated");
        TableClient again = freshTable("recreated");
        again.createEntity(new TableEntity("p", "r"));
        assertTrue(identifiers(again).isEmpty());
        assertEquals(403, assertThrows(TableServiceException.class, () -> withSas("recreated", sas).getEntity("p", "r"))
                .getResponse().getStatusCode(), "the old table's policy does not open the new table");
        assertFalse(service.listTables().stream().anyMatch(t -> t.getName().startsWith("system")),
                "the policies' container is not a table");
    }

    @Test
    void badPolicyDocumentsAreRefusedAndChangeNothing() throws Exception {
        TableClient t = freshTable("aclbad");
        t.setAccessPolicies(List.of(policy("keep", "r", IN_AN_HOUR)));
        List<TableSignedIdentifier> six = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            six.add(policy("p" + i, "r", IN_AN_HOUR));
        }
        HttpResponseException tooMany = assertThrows(HttpResponseException.class, () -> t.setAccessPolicies(six));
        assertEquals(400, tooMany.getResponse().getStatusCode());

        String xml = "application/xml";
        assertXmlError(send("PUT", "/devstoreaccount1/aclbad?comp=acl", "<SignedIdentifiers><SignedIdentifier>", "Content-Type", xml),
                400, "InvalidXmlDocument");
        assertXmlError(send("PUT", "/devstoreaccount1/aclbad?comp=acl", "<SignedIdentifiers><SignedIdentifier><Id>" + "x".repeat(65)
                + "</Id></SignedIdentifier></SignedIdentifiers>", "Content-Type", xml), 400, "InvalidXmlDocument");
        assertXmlError(send("PUT", "/devstoreaccount1/aclbad?comp=acl", "<SignedIdentifiers><SignedIdentifier><Id>a</Id><AccessPolicy>"
                + "<Permission>rwx</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>",
                "Content-Type", xml), 400, "InvalidXmlNodeValue");
        // an external entity is never resolved: the document is refused before anything is read
        HttpResponse<String> xxe = send("PUT", "/devstoreaccount1/aclbad?comp=acl", "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY e "
                + "SYSTEM \"file:///etc/passwd\">]><SignedIdentifiers><SignedIdentifier><Id>&e;</Id>"
                + "</SignedIdentifier></SignedIdentifiers>", "Content-Type", xml);
        assertXmlError(xxe, 400, "InvalidXmlDocument");
        assertFalse(xxe.body().contains("root:"), xxe.body());
        assertXmlError(send("GET", "/devstoreaccount1/nosuchtable?comp=acl", null), 404, "TableNotFound");

        List<TableSignedIdentifier> kept = identifiers(t);
        assertEquals(1, kept.size());
        assertEquals("keep", kept.get(0).getId());

        // the raw answer is Azure's XML
        HttpResponse<String> raw = send("GET", "/devstoreaccount1/aclbad?comp=acl", null);
        assertEquals(200, raw.statusCode());
        assertTrue(raw.headers().firstValue("Content-Type").orElse("").startsWith("application/xml"));
        assertTrue(raw.body().contains("<SignedIdentifier><Id>keep</Id><AccessPolicy>"), raw.body());
    }
}
