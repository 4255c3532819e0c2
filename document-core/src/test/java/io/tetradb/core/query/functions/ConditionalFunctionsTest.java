package io.tetradb.core.query.functions;

import org.junit.jupiter.api.Test;

import static io.tetradb.core.query.functions.Fn.check;

/** IIF. Examples from https://learn.microsoft.com/azure/cosmos-db/nosql/query/iif. */
class ConditionalFunctionsTest {

    @Test
    void documentedExamples() {
        check("123", "IIF", "true", "123", "456");
        check("456", "IIF", "false", "123", "456");
        check("456", "IIF", "123", "123", "456");
        check("456", "IIF", "\"ABC\"", "123", "456");
        check("456", "IIF", "[1,2,3]", "123", "456");
        check("456", "IIF", "{\"name\": \"Alice\", \"age\": 20}", "123", "456");
    }

    @Test
    void undefinedConditionOrBranches() {
        check("456", "IIF", "undefined", "123", "456");
        check("456", "IIF", "null", "123", "456");
        check("undefined", "IIF", "true", "undefined", "456");
        check("undefined", "IIF", "false", "123", "undefined");
        check("{\"a\":[1]}", "IIF", "true", "{\"a\":[1]}", "0");
    }
}
