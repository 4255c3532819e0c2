package io.tetradb.core.query.functions;

import org.junit.jupiter.api.Test;

import static io.tetradb.core.query.functions.Fn.check;

/** DocumentId. Example from https://learn.microsoft.com/azure/cosmos-db/nosql/query/documentid. */
class ItemFunctionsTest {

    @Test
    void documentedExample() {
        // {"id": "5741047452", "_rid": "36ZyAPW+uN8NAAAAAAAAAA==", "documentId": 13}
        check("13", "DocumentId", "{\"id\": \"5741047452\", \"_rid\": \"36ZyAPW+uN8NAAAAAAAAAA==\"}");
    }

    @Test
    void ridFromTheContext() {
        FunctionContext ctx = Fn.CTX.withItemRid("36ZyAPW+uN8NAAAAAAAAAA==");
        Fn.assertResult("13", Fn.callIn(ctx, "DocumentId", "{\"id\": \"a\"}"));
        // TetraDB writes '-' where base64 has '/'
        byte[] rid = new byte[16];
        java.util.Arrays.fill(rid, 0, 8, (byte) 0xFF);
        rid[8] = (byte) 0xFF;
        rid[9] = 1;
        String tetraRid = java.util.Base64.getEncoder().encodeToString(rid).replace('/', '-');
        org.junit.jupiter.api.Assertions.assertTrue(tetraRid.contains("-"), tetraRid);
        Fn.assertResult("511", Fn.callIn(Fn.CTX.withItemRid(tetraRid), "DocumentId", "{}"));
    }

    @Test
    void undefinedWithoutAnItem() {
        check("undefined", "DocumentId", "{\"id\": \"a\"}");
        check("undefined", "DocumentId", "\"36ZyAPW+uN8NAAAAAAAAAA==\"");
        check("undefined", "DocumentId", "{\"_rid\": \"short\"}");
        check("undefined", "DocumentId", "undefined");
    }
}
