package io.tetradb.core.query.functions;

import org.junit.jupiter.api.Test;

import static io.tetradb.core.query.functions.Fn.check;

/**
 * String functions. Examples and results from the Cosmos DB NoSQL query reference pages,
 * https://learn.microsoft.com/azure/cosmos-db/nosql/query/{concat,contains,endswith,startswith,index-of,left,right,
 * length,lower,upper,ltrim,rtrim,trim,replace,replicate,reverse,substring,tostring,stringequals,stringtoarray,
 * stringtoboolean,stringtonull,stringtonumber,stringtoobject,regexmatch} (and the query samples repository
 * Azure-Samples/cosmos-db-nosql-query-samples they include).
 */
class StringFunctionsTest {

    @Test
    void concat() {
        check("\"AdventureWorks\"", "CONCAT", "\"Adventure\"", "\"Works\"");
        check("\"a-b-c\"", "CONCAT", "\"a\"", "\"-\"", "\"b\"", "\"-\"", "\"c\"");
        check("undefined", "CONCAT", "\"a\"", "1");
        check("undefined", "CONCAT", "\"a\"", "undefined");
    }

    @Test
    void containsStartsWithEndsWith() {
        check("true", "CONTAINS", "\"AdventureWorks\"", "\"Works\"");
        check("false", "CONTAINS", "\"AdventureWorks\"", "\"works\"");
        check("true", "CONTAINS", "\"AdventureWorks\"", "\"works\"", "true");
        check("false", "CONTAINS", "\"AdventureWorks\"", "\"Cosmos\"", "true");
        check("true", "STARTSWITH", "\"AdventureWorks\"", "\"Adventure\"");
        check("false", "STARTSWITH", "\"AdventureWorks\"", "\"adventure\"");
        check("true", "STARTSWITH", "\"AdventureWorks\"", "\"adventure\"", "true");
        check("true", "ENDSWITH", "\"AdventureWorks\"", "\"Works\"");
        check("false", "ENDSWITH", "\"AdventureWorks\"", "\"works\"");
        check("true", "ENDSWITH", "\"AdventureWorks\"", "\"works\"", "true");
        check("false", "ENDSWITH", "\"AdventureWorks\"", "\"Adventure\"", "false");
        check("undefined", "CONTAINS", "123", "\"1\"");
        check("undefined", "STARTSWITH", "\"abc\"", "null");
        check("undefined", "ENDSWITH", "undefined", "\"c\"");
        check("undefined", "CONTAINS", "\"abc\"", "\"a\"", "\"yes\"");
    }

    @Test
    void indexOf() {
        check("0", "INDEX_OF", "\"AdventureWorks\"", "\"A\"");
        check("13", "INDEX_OF", "\"AdventureWorks\"", "\"s\"");
        check("0", "INDEX_OF", "\"AdventureWorks\"", "\"Adventure\"");
        check("9", "INDEX_OF", "\"AdventureWorks\"", "\"Works\"");
        check("5", "INDEX_OF", "\"AdventureWorks\"", "\"tureW\"");
        check("-1", "INDEX_OF", "\"AdventureWorks\"", "\"Cosmos\"");
        check("9", "INDEX_OF", "\"AdventureWorks\"", "\"Works\"", "5");
        check("-1", "INDEX_OF", "\"AdventureWorks\"", "\"Adventure\"", "5");
        check("-1", "INDEX_OF", "\"AdventureWorks\"", "\"aD\"");
        check("undefined", "INDEX_OF", "\"abc\"", "1");
        check("undefined", "INDEX_OF", "\"abc\"", "\"b\"", "\"1\"");
    }

    @Test
    void leftRightSubstring() {
        check("\"A\"", "LEFT", "\"AdventureWorks\"", "1");
        check("\"Adven\"", "LEFT", "\"AdventureWorks\"", "5");
        check("\"AdventureWorks\"", "LEFT", "\"AdventureWorks\"", "14");
        check("\"AdventureWorks\"", "SUBSTRING", "\"AdventureWorks\"", "0", "14");
        check("\"\"", "SUBSTRING", "\"AdventureWorks\"", "0", "-1");
        check("\"Adventure\"", "LEFT", "\"AdventureWorks\"", "9");
        check("\"\"", "LEFT", "\"AdventureWorks\"", "0");
        check("\"\"", "LEFT", "\"AdventureWorks\"", "-3");
        check("\"AdventureWorks\"", "LEFT", "\"AdventureWorks\"", "100");
        check("\"Works\"", "RIGHT", "\"AdventureWorks\"", "5");
        check("\"\"", "RIGHT", "\"AdventureWorks\"", "0");
        check("\"AdventureWorks\"", "RIGHT", "\"AdventureWorks\"", "100");
        check("\"Adventure\"", "SUBSTRING", "\"AdventureWorks\"", "0", "9");
        check("\"Works\"", "SUBSTRING", "\"AdventureWorks\"", "9", "5");
        check("\"Works\"", "SUBSTRING", "\"AdventureWorks\"", "9", "100");
        check("\"\"", "SUBSTRING", "\"AdventureWorks\"", "100", "1");
        check("undefined", "LEFT", "\"abc\"", "\"1\"");
        check("undefined", "RIGHT", "42", "1");
        check("undefined", "SUBSTRING", "\"abc\"", "0", "undefined");
    }

    @Test
    void lengthCaseReverse() {
        check("14", "LENGTH", "\"AdventureWorks\"");
        check("0", "LENGTH", "\"\"");
        check("\"adventureworks\"", "LOWER", "\"AdventureWorks\"");
        check("\"ADVENTUREWORKS\"", "UPPER", "\"AdventureWorks\"");
        check("\"skroWerutnevdA\"", "REVERSE", "\"AdventureWorks\"");
        check("undefined", "LENGTH", "[1,2]");
        check("undefined", "LOWER", "null");
        check("undefined", "UPPER", "undefined");
        check("undefined", "REVERSE", "true");
    }

    @Test
    void trims() {
        check("\"AdventureWorks\"", "TRIM", "\"   AdventureWorks\"");
        check("\"AdventureWorks\"", "TRIM", "\"AdventureWorks   \"");
        check("\"AdventureWorks\"", "TRIM", "\"   AdventureWorks   \"");
        check("\"---AdventureWorks---\"", "TRIM", "\"---AdventureWorks---\"");
        check("\"AdventureWorks\"", "TRIM", "\"___AdventureWorks___\"", "\"_\"");
        check("\"AdventureWorks\"", "TRIM", "\"---AdventureWorks---\"", "\"-\"");
        check("\" AdventureWorks \"", "TRIM", "\"-- AdventureWorks --\"", "\"-\"");
        check("\"AdventureWorks\"", "TRIM", "\"-_-AdventureWorks-_-\"", "\"-_\"");
        check("\"AdventureWorks   \"", "LTRIM", "\"   AdventureWorks   \"");
        check("\"AdventureWorks---\"", "LTRIM", "\"---AdventureWorks---\"", "\"-\"");
        check("\"   AdventureWorks\"", "RTRIM", "\"   AdventureWorks   \"");
        check("\"---AdventureWorks\"", "RTRIM", "\"---AdventureWorks---\"", "\"-\"");
        check("undefined", "TRIM", "1");
        check("undefined", "LTRIM", "\"abc\"", "1");
    }

    @Test
    void replaceReplicate() {
        check("\"Adventure Works\"", "REPLACE", "\"Adventure-Works\"", "\"-\"", "\" \"");
        check("\"AdventureWorks\"", "REPLACE", "\"AdventureWorks\"", "\"Cosmos\"", "\"x\"");
        check("undefined", "REPLACE", "\"abc\"", "1", "\"x\"");
        check("\"CosmicCosmicCosmic\"", "REPLICATE", "\"Cosmic\"", "3");
        check("\"aaa\"", "REPLICATE", "\"a\"", "3");
        check("\"\"", "REPLICATE", "\"a\"", "0");
        check("\"abab\"", "REPLICATE", "\"ab\"", "2.7");
        check("undefined", "REPLICATE", "\"a\"", "-1");
        check("undefined", "REPLICATE", "\"a\"", "10001");
        check("undefined", "REPLICATE", "1", "2");
    }

    @Test
    void toStringExamples() {
        check("\"125\"", "ToString", "125");
        check("\"0.1234\"", "ToString", "0.1234");
        check("\"false\"", "ToString", "false");
        check("\"[1,2,3]\"", "ToString", "[ 1, 2, 3 ]");
        check("\"{\\\"department\\\":\\\"Bicycles\\\"}\"", "ToString", "{ \"department\": \"Bicycles\" }");
        check("\"Hello World\"", "ToString", "\"Hello World\"");
        check("undefined", "ToString", "undefined");
        check("\"null\"", "ToString", "null");
        check("\"5\"", "ToString", "5.0");
    }

    @Test
    void toStringOfNonFiniteNumbers() {
        Fn.assertResult("\"NaN\"", Fn.REGISTRY.invoke("ToString",
                java.util.List.of(com.fasterxml.jackson.databind.node.DoubleNode.valueOf(Double.NaN)), Fn.CTX));
        Fn.assertResult("\"Infinity\"", Fn.REGISTRY.invoke("ToString", java.util.List.of(
                com.fasterxml.jackson.databind.node.DoubleNode.valueOf(Double.POSITIVE_INFINITY)), Fn.CTX));
    }

    @Test
    void stringEquals() {
        check("true", "StringEquals", "\"abc\"", "\"abc\"");
        check("false", "StringEquals", "\"abc\"", "\"ABC\"");
        check("true", "StringEquals", "\"abc\"", "\"ABC\"", "true");
        check("false", "StringEquals", "\"abc\"", "\"ABC\"", "false");
        check("undefined", "StringEquals", "\"1\"", "1");
    }

    @Test
    void stringToConversions() {
        check("100", "StringToNumber", "\"100\"");
        check("3.14", "StringToNumber", "\"3.14\"");
        check("60", "StringToNumber", "\"   60   \"");
        check("-1.79769e+308", "StringToNumber", "\"-1.79769e+308\"");
        check("undefined", "StringToNumber", "\"Hello\"");
        check("undefined", "StringToNumber", "\"0xF\"");
        check("undefined", "StringToNumber", "12");

        check("true", "StringToBoolean", "\"true\"");
        check("true", "StringToBoolean", "\"true  \"");
        check("false", "StringToBoolean", "\"  false\"");
        check("false", "StringToBoolean", "\"  false  \"");
        check("undefined", "StringToBoolean", "true");
        check("undefined", "StringToBoolean", "\"100\"");
        check("undefined", "StringToBoolean", "\"3.14\"");
        check("undefined", "StringToBoolean", "\"-1.79769e+308\"");
        check("undefined", "StringToBoolean", "\"Hello\"");
        check("undefined", "StringToBoolean", "undefined");
        check("undefined", "StringToBoolean", "null");
        check("undefined", "StringToBoolean", "[ 1, 2, 3 ]");
        check("undefined", "StringToBoolean", "\"TRUE\"");

        check("null", "StringToNull", "\"null\"");
        check("null", "StringToNull", "\"  null \"");
        check("null", "StringToNull", "\"null   \"");
        check("undefined", "StringToNull", "\"NULL\"");
        check("undefined", "StringToNull", "\"Null\"");
        check("undefined", "StringToNull", "\"true\"");
        check("undefined", "StringToNull", "false");
        check("undefined", "StringToNull", "undefined");
        check("undefined", "StringToNull", "null");

        check("[]", "StringToArray", "\"[]\"");
        check("[\"coats\",\"gloves\",\"hats\"]", "StringToArray", Fn.str("[ \"coats\", \"gloves\", \"hats\" ]"));
        check("[{\"types\":[\"coats\",\"gloves\"]},[\"hats\"],76,false,null]", "StringToArray",
                Fn.str("[ { \"types\": [ \"coats\", \"gloves\" ] }, [ \"hats\" ], 76, false, null ]"));
        check("[[\"coats\",\"gloves\"],[\"hats\"]]", "StringToArray", Fn.str("[ [ \"coats\", \"gloves\" ], [ \"hats\" ] ]"));
        check("undefined", "StringToArray", Fn.str("[ 'coats', 'gloves', 'hats' ]"));
        check("undefined", "StringToArray", "undefined");
        check("undefined", "StringToArray", "null");
        check("{}", "StringToObject", "\"{}\"");
        check("{\"isAvailable\":true}", "StringToObject", Fn.str("{\"isAvailable\": true}"));
        check("{\"division\":{\"name\":\"Sales\"}}", "StringToObject", Fn.str("{\"division\": {\"name\": \"Sales\"}}"));
        check("undefined", "StringToObject", Fn.str("{'price': 27.55}"));
        check("undefined", "StringToNumber", "undefined");
        check("undefined", "StringToNumber", "null");
        check("[\"A\",\"B\",\"C\"]", "StringToArray", "\"[\\\"A\\\",\\\"B\\\",\\\"C\\\"]\"");
        check("[1,[2,3],{\"a\":true}]", "StringToArray", "\" [1, [2, 3], {\\\"a\\\": true}] \"");
        check("undefined", "StringToArray", "\"['A','B']\"");
        check("undefined", "StringToArray", "\"[1,2\"");
        check("undefined", "StringToArray", "\"{}\"");

        check("{\"name\":\"Alice\",\"age\":20}", "StringToObject", "\"{\\\"name\\\": \\\"Alice\\\", \\\"age\\\": 20}\"");
        check("undefined", "StringToObject", "\"{'name': 'Alice'}\"");
        check("undefined", "StringToObject", "\"{name: 1}\"");
        check("undefined", "StringToObject", "\"[]\"");
        check("undefined", "StringToObject", "\"{} {}\"");
    }

    @Test
    void regexMatch() {
        check("false", "RegexMatch", "\"abcd\"", "\"ABC\"");
        check("true", "RegexMatch", "\"abcd\"", "\"ABC\"", "\"i\"");
        check("true", "RegexMatch", "\"abcd\"", "\"ab.\"", "\"\"");
        check("true", "RegexMatch", "\"abcd\"", "\"ab c\"", "\"x\"");
        check("true", "RegexMatch", "\"abcd\"", "\"aB c\"", "\"ix\"");
        check("true", "RegexMatch", "\"03a\"", "\"[0-9]\"");
        check("true", "RegexMatch", "\"salt3824908\"", "\"salt{1}\"");
        check("true", "RegexMatch", "\"shame\"", "\"s....\"", "\"i\"");
        check("true", "RegexMatch", "\"a\\nb\"", "\"^b$\"", "\"m\"");
        check("false", "RegexMatch", "\"a\\nb\"", "\"a.b\"");
        check("true", "RegexMatch", "\"a\\nb\"", "\"a.b\"", "\"s\"");
        check("undefined", "RegexMatch", "\"abc\"", "\"a\"", "\"q\"");
        check("undefined", "RegexMatch", "\"abc\"", "\"(\"");
        check("undefined", "RegexMatch", "1", "\"1\"");
    }
}
