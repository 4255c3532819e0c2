package io.tetradb.core.query.functions;

import org.junit.jupiter.api.Test;

import static io.tetradb.core.query.functions.Fn.check;

/**
 * Array functions, CHOOSE and ObjectToArray. Examples from https://learn.microsoft.com/azure/cosmos-db/nosql/query/
 * {array-concat,array-contains,array-contains-any,array-contains-all,array-length,array-slice,setintersect,setunion,
 * choose,objecttoarray} and the samples repository Azure-Samples/cosmos-db-nosql-query-samples.
 */
class ArrayFunctionsTest {
    private static final String GREEK = "[\"Alpha\", \"Bravo\", \"Charlie\", \"Delta\", \"Echo\", \"Foxtrot\", \"Golf\"]";
    private static final String SCORES = "[70, 86, 92, 99, 85, 90, 82]";

    @Test
    void arrayConcat() {
        check("[\"apples\",\"strawberries\",\"bananas\",\"pineapples\",\"raspberries\"]", "ARRAY_CONCAT",
                "[\"apples\", \"strawberries\", \"bananas\"]", "[\"pineapples\", \"raspberries\"]");
        check("[1,2,3,[4]]", "ARRAY_CONCAT", "[1]", "[2]", "[3, [4]]");
        check("undefined", "ARRAY_CONCAT", "[1]", "2");
        check("undefined", "ARRAY_CONCAT", "[1]", "undefined");
    }

    @Test
    void arrayContains() {
        check("true", "ARRAY_CONTAINS", "[\"coats\", \"jackets\", \"sweatshirts\"]", "\"coats\"");
        check("false", "ARRAY_CONTAINS", "[\"coats\", \"jackets\", \"sweatshirts\"]", "\"hoodies\"");
        check("true", "ARRAY_CONTAINS", "[{ \"category\": \"shirts\", \"color\": \"blue\" }]",
                "{ \"category\": \"shirts\", \"color\": \"blue\" }");
        check("false", "ARRAY_CONTAINS", "[{ \"category\": \"shirts\", \"color\": \"blue\" }]",
                "{ \"category\": \"shirts\" }");
        check("true", "ARRAY_CONTAINS", "[{ \"category\": \"shirts\", \"color\": \"blue\" }]",
                "{ \"category\": \"shirts\" }", "true");
        check("false", "ARRAY_CONTAINS", "[{ \"category\": \"shirts\", \"color\": \"blue\" }]",
                "{ \"category\": \"shorts\", \"color\": \"blue\" }", "true");
        // the index example of the issue: a partial match on one property of a link
        check("true", "ARRAY_CONTAINS", "[{\"target\":\"S1\",\"doc_type\":\"x\"},{\"target\":\"S12345\",\"doc_type\":\"y\"}]",
                "{\"target\":\"S12345\"}", "true");
        check("true", "ARRAY_CONTAINS", "[1, 5, 9]", "5.0");
        check("true", "ARRAY_CONTAINS", "[{\"b\":2,\"a\":1}]", "{\"a\":1,\"b\":2}");
        check("true", "ARRAY_CONTAINS", "[[1,2],[3]]", "[1,2]");
        check("false", "ARRAY_CONTAINS", "[[1,2],[3]]", "[1]", "true");
        check("true", "ARRAY_CONTAINS", "[null]", "null");
        check("undefined", "ARRAY_CONTAINS", "[1]", "undefined");
        check("undefined", "ARRAY_CONTAINS", "\"coats\"", "\"coats\"");
        check("undefined", "ARRAY_CONTAINS", "undefined", "1");
    }

    @Test
    void arrayContainsAnyAll() {
        check("true", "ARRAY_CONTAINS_ANY", "[1, true, \"3\", [1,2,3]]", "1", "true", "\"3\"", "[1,2,3]");
        check("true", "ARRAY_CONTAINS_ANY", "[1, 2, 3, 4]", "2", "3", "4", "5");
        check("true", "ARRAY_CONTAINS_ANY", "[1, 2, 3, 4]", "1", "undefined");
        check("false", "ARRAY_CONTAINS_ANY", "[1, 2, 3, 4]", "5", "6", "7", "8");
        check("false", "ARRAY_CONTAINS_ANY", "[]", "1", "2", "3");
        check("undefined", "ARRAY_CONTAINS_ANY", "[1, 2, 3, 4]", "5", "undefined");
        check("true", "ARRAY_CONTAINS_ALL", "[1, true, \"3\", [1,2,3]]", "1", "true", "\"3\"", "[1,2,3]");
        check("false", "ARRAY_CONTAINS_ALL", "[1, 2, 3, 4]", "2", "3", "4", "5");
        check("undefined", "ARRAY_CONTAINS_ALL", "[1, 2, 3, 4]", "1", "undefined");
        check("false", "ARRAY_CONTAINS_ALL", "[1, 2, 3, 4]", "5", "6", "7", "8");
        check("false", "ARRAY_CONTAINS_ALL", "[]", "1", "2", "3");
        check("false", "ARRAY_CONTAINS_ALL", "[1, 2, 3, 4]", "5", "undefined");
        check("true", "ARRAY_CONTAINS_ANY", "[1, true, \"3\", [1,2,3]]", "1");
        check("true", "ARRAY_CONTAINS_ANY", "[1, true, \"3\", [1,2,3]]", "true", "\"3\"", "[1,2,3]");
        check("false", "ARRAY_CONTAINS_ANY", "[1, true, \"3\", [1,2,3]]", "[1,2]", "2");
        check("true", "ARRAY_CONTAINS_ALL", "[1, true, \"3\", [1,2,3]]", "1", "true", "\"3\"", "[1,2,3]");
        check("false", "ARRAY_CONTAINS_ALL", "[1, true, \"3\", [1,2,3]]", "1", "2");
        check("undefined", "ARRAY_CONTAINS_ANY", "1", "1");
        check("undefined", "ARRAY_CONTAINS_ALL", "{}", "1");
    }

    @Test
    void arrayLength() {
        check("3", "ARRAY_LENGTH", "[\"apples\", \"strawberries\", \"bananas\"]");
        check("0", "ARRAY_LENGTH", "[]");
        check("2", "ARRAY_LENGTH", "[[\"apples\", \"strawberries\"], [\"bananas\"]]");
        check("undefined", "ARRAY_LENGTH", "\"abc\"");
        check("undefined", "ARRAY_LENGTH", "undefined");
    }

    @Test
    void arraySlice() {
        check(SCORES, "ARRAY_SLICE", SCORES, "0");
        check("[86, 92, 99, 85, 90, 82]", "ARRAY_SLICE", SCORES, "1");
        check("[82]", "ARRAY_SLICE", SCORES, "-1");
        check("[90, 82]", "ARRAY_SLICE", SCORES, "-2");
        check("[70, 86, 92]", "ARRAY_SLICE", SCORES, "0", "3");
        check(SCORES, "ARRAY_SLICE", SCORES, "0", "12");
        check("[99, 85, 90, 82]", "ARRAY_SLICE", SCORES, "3", "5");
        check("[90]", "ARRAY_SLICE", SCORES, "-2", "1");
        check("[\"Foxtrot\"]", "ARRAY_SLICE", GREEK, "-2", "1");
        check(GREEK, "ARRAY_SLICE", GREEK, "-100");
        check("[]", "ARRAY_SLICE", GREEK, "100");
        check("[]", "ARRAY_SLICE", GREEK, "1", "0");
        check("undefined", "ARRAY_SLICE", "\"abc\"", "1");
        check("undefined", "ARRAY_SLICE", GREEK, "\"1\"");
        check("undefined", "ARRAY_SLICE", GREEK, "1", "null");
    }

    @Test
    void setIntersectAndUnion() {
        check("[3,4]", "SetIntersect", "[1, 2, 3, 4]", "[3, 4, 5, 6]");
        check("[]", "SetIntersect", "[1, 2, 3, 4]", "[]");
        check("[1]", "SetIntersect", "[1, 2, 3, 4]", "[1, 1, 1, 1]");
        check("[]", "SetIntersect", "[1, 2, 3, 4]", "[\"A\", \"B\"]");
        check("[\"A\",1]", "SetIntersect", "[1, 2, \"A\", \"B\"]", "[\"A\", 1]");
        check("[\"Rhino\",\"Finch\"]", "SetIntersect", "[\"Finch\", \"Mine Shaft\", \"Rhino\"]",
                "[\"Rhino\", \"Finch\"]");
        check("[1,2,3,4,5,6]", "SetUnion", "[1, 2, 3, 4]", "[3, 4, 5, 6]");
        check("[1,2,3,4]", "SetUnion", "[1, 2, 3, 4]", "[]");
        check("[1,2,3,4]", "SetUnion", "[1, 2, 3, 4]", "[1, 1, 1, 1]");
        check("[1,2,\"A\",\"B\"]", "SetUnion", "[1, 2, \"A\", \"B\"]", "[\"A\", 1]");
        check("[\"Cutty Sark\",\"Horizon\",\"Russet\",\"Fuscous\",\"Tacha\"]", "SetUnion",
                "[\"Cutty Sark\", \"Horizon\", \"Russet\", \"Fuscous\"]", "[\"Fuscous\", \"Horizon\", \"Tacha\"]");
        check("[\"B\",\"C\"]", "SetIntersect", "[\"A\", \"B\", \"C\"]", "[\"B\", \"C\", \"D\"]");
        check("[]", "SetIntersect", "[\"A\", \"B\"]", "[\"C\", \"D\"]");
        check("[1.0]", "SetIntersect", "[1, 1, 2]", "[1.0, 3]");
        check("[{\"a\":1}]", "SetIntersect", "[{\"a\":1}, {\"a\":2}]", "[{\"a\":1.0}]");
        check("[\"A\",\"B\",\"C\",\"D\"]", "SetUnion", "[\"A\", \"B\", \"C\"]", "[\"B\", \"C\", \"D\"]");
        check("[1,2,3]", "SetUnion", "[1, 1, 2]", "[2.0, 3]");
        check("[[1],{\"a\":1}]", "SetUnion", "[[1], {\"a\":1}]", "[[1], {\"a\":1}]");
        check("undefined", "SetIntersect", "[1]", "1");
        check("undefined", "SetUnion", "undefined", "[1]");
    }

    @Test
    void choose() {
        check("\"adventure\"", "CHOOSE", "1", "\"adventure\"", "\"works\"", "true", "[1]");
        check("\"works\"", "CHOOSE", "2", "\"adventure\"", "\"works\"", "true", "[1]");
        check("[1]", "CHOOSE", "4", "\"adventure\"", "\"works\"", "true", "[1]");
        check("undefined", "CHOOSE", "5", "\"adventure\"", "\"works\"", "true", "[1]");
        check("undefined", "CHOOSE", "0", "\"adventure\"");
        check("undefined", "CHOOSE", "-1", "\"adventure\"");
        check("undefined", "CHOOSE", "1.5", "\"adventure\"", "\"works\"");
        check("undefined", "CHOOSE", "\"1\"", "\"adventure\"");
    }

    @Test
    void objectToArray() {
        String quantities = "{\"small\": 15, \"medium\": 24, \"large\": 2, \"xlarge\": 0}";
        check("[{\"size\":\"small\",\"quantity\":15},{\"size\":\"medium\",\"quantity\":24},"
                + "{\"size\":\"large\",\"quantity\":2},{\"size\":\"xlarge\",\"quantity\":0}]",
                "ObjectToArray", quantities, "\"size\"", "\"quantity\"");
        check("[{\"k\":\"a\",\"v\":1},{\"k\":\"b\",\"v\":[2]}]", "ObjectToArray", "{\"a\":1,\"b\":[2]}");
        check("[{\"key\":\"a\",\"v\":1}]", "ObjectToArray", "{\"a\":1}", "\"key\"");
        check("[]", "ObjectToArray", "{}");
        check("undefined", "ObjectToArray", "[1]");
        check("undefined", "ObjectToArray", "{\"a\":1}", "1");
    }
}
