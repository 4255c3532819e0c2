package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.tetradb.core.query.eval.EvalTestSupport.assertResults;
import static io.tetradb.core.query.eval.EvalTestSupport.assertResultsAnyOrder;
import static io.tetradb.core.query.eval.EvalTestSupport.items;
import static io.tetradb.core.query.eval.EvalTestSupport.query;

/**
 * The examples of the Azure Cosmos DB for NoSQL query reference, run over the items each page shows. Each test names
 * its page under https://learn.microsoft.com/azure/cosmos-db/nosql/query/ (or the older sql-query-* pages, which use
 * the "Families" sample of the getting-started page).
 */
class CosmosDocExamplesTest {
    /** The "Families" sample (getting-started, from-clause, join, select pages). */
    static final List<ObjectNode> FAMILIES = items("""
            [{
              "id": "AndersenFamily",
              "lastName": "Andersen",
              "parents": [ { "firstName": "Thomas" }, { "firstName": "Mary Kay" } ],
              "children": [ { "firstName": "Henriette Thaulow", "gender": "female", "grade": 5,
                              "pets": [ { "givenName": "Fluffy" } ] } ],
              "address": { "state": "WA", "county": "King", "city": "Seattle" },
              "creationDate": 1431620472,
              "isRegistered": true
            },
            {
              "id": "WakefieldFamily",
              "parents": [ { "familyName": "Wakefield", "givenName": "Robin" },
                           { "familyName": "Miller", "givenName": "Ben" } ],
              "children": [
                { "familyName": "Merriam", "givenName": "Jesse", "gender": "female", "grade": 1,
                  "pets": [ { "givenName": "Goofy" }, { "givenName": "Shadow" } ] },
                { "familyName": "Miller", "givenName": "Lisa", "gender": "female", "grade": 8 } ],
              "address": { "state": "NY", "county": "Manhattan", "city": "NY" },
              "creationDate": 1431620462,
              "isRegistered": false
            }]""");

    // ---- getting-started / select -----------------------------------------------------------------------------

    @Test
    void selectStarWhereId() { // getting-started
        List<?> r = query("SELECT * FROM Families f WHERE f.id = \"AndersenFamily\"", FAMILIES);
        assertResults("[" + FAMILIES.get(0) + "]", query("SELECT * FROM Families f WHERE f.id = \"AndersenFamily\"",
                FAMILIES));
        org.junit.jupiter.api.Assertions.assertEquals(1, r.size());
    }

    @Test
    void objectLiteralWithAlias() { // getting-started: city = state
        assertResults("[{\"Family\":{\"Name\":\"WakefieldFamily\",\"City\":\"NY\"}}]",
                query("SELECT {\"Name\":f.id, \"City\":f.address.city} AS Family FROM Families f "
                        + "WHERE f.address.city = f.address.state", FAMILIES));
    }

    @Test
    void joinOrderBy() { // getting-started: children of the Wakefields
        assertResults("[{\"givenName\":\"Jesse\"},{\"givenName\":\"Lisa\"}]",
                query("SELECT c.givenName FROM Families f JOIN c IN f.children WHERE f.id = 'WakefieldFamily' "
                        + "ORDER BY f.address.city ASC", FAMILIES));
    }

    @Test
    void selectPropertiesAndGeneratedNames() { // select: $1, $2 for unnamed expressions
        assertResults("[{\"state\":\"WA\",\"city\":\"Seattle\"}]",
                query("SELECT f.address.state, f.address.city FROM Families f WHERE f.id = \"AndersenFamily\"",
                        FAMILIES));
        assertResults("[{\"$1\":{\"state\":\"WA\",\"city\":\"Seattle\",\"name\":\"AndersenFamily\"}}]",
                query("SELECT { \"state\": f.address.state, \"city\": f.address.city, \"name\": f.id } "
                        + "FROM Families f WHERE f.id = \"AndersenFamily\"", FAMILIES));
        assertResults("[{\"$1\":{\"state\":\"WA\",\"city\":\"Seattle\"},\"$2\":{\"name\":\"AndersenFamily\"}}]",
                query("SELECT { \"state\": f.address.state, \"city\": f.address.city }, { \"name\": f.id } "
                        + "FROM Families f WHERE f.id = \"AndersenFamily\"", FAMILIES));
    }

    @Test
    void selectValue() { // select: VALUE
        assertResults("[\"WA\",\"NY\"]", query("SELECT VALUE f.address.state FROM Families f", FAMILIES));
        assertResults("[{\"state\":\"WA\",\"city\":\"Seattle\"}]",
                query("SELECT VALUE { \"state\": f.address.state, \"city\": f.address.city } FROM Families f "
                        + "WHERE f.id = \"AndersenFamily\"", FAMILIES));
    }

    // ---- from ---------------------------------------------------------------------------------------------------

    @Test
    void fromSubPath() { // from: FROM Families.children, Families.address.state
        assertResults("[" + FAMILIES.get(0).get("children") + "," + FAMILIES.get(1).get("children") + "]",
                query("SELECT * FROM Families.children", FAMILIES));
        assertResults("[\"WA\",\"NY\"]", query("SELECT * FROM Families.address.state", FAMILIES));
        // the index form and an iterator over it
        assertResults("[{\"gradeLevel\":\"other\"},{\"gradeLevel\":\"elementary\"}]",
                query("SELECT (c.grade < 5)? \"elementary\": \"other\" AS gradeLevel FROM Families.children[0] c",
                        FAMILIES));
        assertResults("[\"Henriette Thaulow\"]",
                query("SELECT VALUE c.firstName FROM c IN Families.children WHERE IS_DEFINED(c.firstName)", FAMILIES));
        assertResults("[5,1,8]", query("SELECT VALUE c.grade FROM c IN Families.children", FAMILIES));
    }

    @Test
    void fromRootAliasAndIterator() { // from: ROOT, aliases, "FROM x IN y" iterates
        assertResults("[\"AndersenFamily\",\"WakefieldFamily\"]", query("SELECT VALUE r.id FROM root r", FAMILIES));
        assertResults("[\"AndersenFamily\",\"WakefieldFamily\"]", query("SELECT VALUE root.id FROM root", FAMILIES));
        assertResults("[\"WakefieldFamily\"]",
                query("SELECT VALUE Families.id FROM Families WHERE Families.address.state = 'NY'", FAMILIES));
        assertResults("[" + FAMILIES.get(0).get("children").get(0) + "," + FAMILIES.get(1).get("children").get(0)
                        + "," + FAMILIES.get(1).get("children").get(1) + "]",
                query("SELECT * FROM c IN Families.children", FAMILIES));
        // an unaliased alias reference is named by the alias
        assertResults("[{\"r\":{\"state\":\"WA\",\"county\":\"King\",\"city\":\"Seattle\"}}]",
                query("SELECT r FROM Families.address r WHERE r.state = 'WA'", FAMILIES));
    }

    // ---- join ---------------------------------------------------------------------------------------------------

    @Test
    void joinForms() { // join
        assertResults("[]", query("SELECT f.id FROM Families f JOIN f.NonExistent", FAMILIES));
        assertResults("[{\"id\":\"AndersenFamily\"},{\"id\":\"WakefieldFamily\"}]",
                query("SELECT f.id FROM Families f JOIN f.children", FAMILIES));
        assertResults("[{\"id\":\"AndersenFamily\"},{\"id\":\"WakefieldFamily\"},{\"id\":\"WakefieldFamily\"}]",
                query("SELECT f.id FROM Families f JOIN c IN f.children", FAMILIES));
    }

    @Test
    void doubleJoin() { // join: children and their pets
        String sql = "SELECT f.id AS familyName, c.givenName AS childGivenName, c.firstName AS childFirstName, "
                + "p.givenName AS petName FROM Families f JOIN c IN f.children JOIN p IN c.pets";
        assertResults("""
                [{"familyName":"AndersenFamily","childFirstName":"Henriette Thaulow","petName":"Fluffy"},
                 {"familyName":"WakefieldFamily","childGivenName":"Jesse","petName":"Goofy"},
                 {"familyName":"WakefieldFamily","childGivenName":"Jesse","petName":"Shadow"}]""",
                query(sql, FAMILIES));
        assertResults("[{\"familyName\":\"WakefieldFamily\",\"childGivenName\":\"Jesse\",\"petName\":\"Shadow\"}]",
                query(sql + " WHERE p.givenName = \"Shadow\"", FAMILIES));
    }

    // ---- operators ----------------------------------------------------------------------------------------------

    @Test
    void bitwiseOperators() { // bitwise-operators
        assertResults("""
                [{"rightShift":25,"leftShift":400,"zeroFillRightShift":100,"logicalAnd":96,"logicalOr":1004,
                  "logicalExclusiveOr":908}]""",
                query("SELECT (100 >> 2) AS rightShift, (100 << 2) AS leftShift, (100 >>> 0) AS zeroFillRightShift, "
                        + "(100 & 1000) AS logicalAnd, (100 | 1000) AS logicalOr, (100 ^ 1000) AS logicalExclusiveOr",
                        List.of()));
    }

    static final List<ObjectNode> POLES = items("""
            [{"name":"Stangincy trekking poles","price":24.50,"onCloseout":false,"onSale":true,"collapsible":true},
             {"name":"Vimero hiking poles","price":24.50,"onCloseout":false,"onSale":false},
             {"name":"Kramundsen trekking poles","price":24.50,"onCloseout":true,"onSale":true,
              "collapsible":false}]""");

    @Test
    void ternaryAndCoalesce() { // ternary-coalesce-operators
        assertResults("""
                [{"name":"Stangincy trekking poles","subtotal":24.5,"total":20.825},
                 {"name":"Vimero hiking poles","subtotal":24.5,"total":24.5},
                 {"name":"Kramundsen trekking poles","subtotal":24.5,"total":20.825}]""",
                query("SELECT p.name, p.price AS subtotal, p.onSale ? (p.price * 0.85) : p.price AS total "
                        + "FROM products p", POLES));
        assertResults("""
                [{"name":"Stangincy trekking poles","isCollapsible":true},
                 {"name":"Vimero hiking poles","isCollapsible":false},
                 {"name":"Kramundsen trekking poles","isCollapsible":false}]""",
                query("SELECT p.name, p.collapsible ?? false AS isCollapsible FROM products p", POLES));
    }

    // ---- keywords: BETWEEN, DISTINCT, LIKE ----------------------------------------------------------------------

    static final List<ObjectNode> PRICED = items("""
            [{"name":"Teapo surfboard","price":20.0,"category":"Accessories"},
             {"name":"Tool kit","price":7.5,"category":"Tools"},
             {"name":"Gizmo","price":"fifteenDollars"},
             {"name":"Other tool","price":9,"category":"Tools"}]""");

    @Test
    void between() { // keywords: BETWEEN (mixed types skip the item)
        assertResults("[20]", query("SELECT VALUE p.price FROM products p WHERE p.price BETWEEN 17.25 AND 25.50",
                PRICED));
        assertResults("""
                [{"booleanLessThanTen":false,"price":20.0},{"price":"fifteenDollars"}]""",
                query("SELECT (p.price BETWEEN 0 AND 10) AS booleanLessThanTen, p.price FROM products p "
                        + "WHERE p.name IN ('Teapo surfboard', 'Gizmo')", PRICED));
        assertResults("[\"Teapo surfboard\"]",
                query("SELECT VALUE p.name FROM products p WHERE p.price NOT BETWEEN 0 AND 10", PRICED));
    }

    @Test
    void distinct() { // keywords: DISTINCT
        assertResults("[\"Accessories\",\"Tools\"]", query("SELECT DISTINCT VALUE p.category FROM products p",
                PRICED));
        assertResultsAnyOrder("[{},{\"category\":\"Accessories\"},{\"category\":\"Tools\"}]",
                query("SELECT DISTINCT p.category FROM products p", PRICED));
    }

    static final List<ObjectNode> DESCRIBED = items("""
            [{"name":"Road bike","description":"Save 20% today"},
             {"name":"fruit basket","description":"SO fresh PS"},
             {"name":"Winter driver","description":"20-30% off, SOxPS"},
             {"name":"_n","description":"underscore"}]""");

    @Test
    void like() { // like
        assertResults("[\"Winter driver\"]", query("SELECT VALUE p.name FROM products p WHERE p.name LIKE \"%driver%\"",
                DESCRIBED));
        assertResults("[\"fruit basket\"]", query("SELECT VALUE p.name FROM products p WHERE p.name LIKE \"fruit%\"",
                DESCRIBED));
        assertResults("[\"Road bike\",\"fruit basket\",\"_n\"]",
                query("SELECT VALUE p.name FROM products p WHERE p.name NOT LIKE \"%driver%\"", DESCRIBED));
        assertResults("[\"Road bike\"]",
                query("SELECT VALUE p.name FROM products p WHERE p.description LIKE \"%20^%%\" ESCAPE \"^\"",
                        DESCRIBED));
        assertResults("[\"Winter driver\"]",
                query("SELECT VALUE p.name FROM products p WHERE p.description LIKE \"%SO_PS%\"", DESCRIBED));
        assertResults("[\"Winter driver\"]",
                query("SELECT VALUE p.name FROM products p WHERE p.description LIKE \"%SO[t-z]PS%\"", DESCRIBED));
        assertResults("[\"Winter driver\"]",
                query("SELECT VALUE p.name FROM products p WHERE p.description LIKE \"%SO[^abc]PS%\"", DESCRIBED));
        assertResults("[\"Winter driver\"]",
                query("SELECT VALUE p.name FROM products p WHERE p.description LIKE \"20-30[%]%\"", DESCRIBED));
        assertResults("[\"_n\"]", query("SELECT VALUE p.name FROM products p WHERE p.name LIKE \"[_]n\"", DESCRIBED));
        // "%" matches the empty string; a non-string is undefined, so NOT LIKE does not keep it either
        assertResults("[]", query("SELECT VALUE 1 FROM products p WHERE p.price NOT LIKE \"x\"", DESCRIBED));
    }

    // ---- order-by -----------------------------------------------------------------------------------------------

    static final List<ObjectNode> EMPLOYEES = items("""
            [{"name":{"first":"Casey","last":"Jensen"},"team":"Human resources"},
             {"name":{"first":"Amari","last":"Rivera"},"team":"Human resources"},
             {"name":{"first":"Kayla","last":"Lewis"},"team":"Human resources"}]""");

    @Test
    void orderBy() { // order-by
        assertResults("""
                [{"firstName":"Casey","lastName":"Jensen"},{"firstName":"Kayla","lastName":"Lewis"},
                 {"firstName":"Amari","lastName":"Rivera"}]""",
                query("SELECT VALUE { firstName: e.name.first, lastName: e.name.last } FROM employees e "
                        + "ORDER BY e.name.last", EMPLOYEES));
        assertResults("[\"Rivera\",\"Lewis\",\"Jensen\"]",
                query("SELECT VALUE e.name.last FROM employees e ORDER BY e.name.last DESC", EMPLOYEES));
        assertResults("[\"Amari\",\"Casey\",\"Kayla\"]",
                query("SELECT VALUE e.name.first FROM employees e ORDER BY e.team ASC, e.name.first ASC", EMPLOYEES));
    }

    // ---- aggregates ---------------------------------------------------------------------------------------------

    @Test
    void sum() { // sum
        List<ObjectNode> backpacks = items("""
                [{"name":"Sathem Backpack","quantity":0,"detailCategory":"gear-hike-backpacks"},
                 {"name":"Ventrin Backpack","quantity":230,"detailCategory":"gear-hike-backpacks"},
                 {"name":"Martox Backpack","quantity":14,"detailCategory":"gear-hike-backpacks"},
                 {"name":"Rangeo Backpack","quantity":232,"detailCategory":"gear-hike-backpacks"},
                 {"name":"Moonroq Backpack","quantity":141,"detailCategory":"gear-hike-backpacks"},
                 {"name":"Tent","detailCategory":"gear-camp-tents"}]""");
        assertResults("[617]", query("SELECT VALUE SUM(p.quantity) FROM products p "
                + "WHERE p.detailCategory = \"gear-hike-backpacks\"", backpacks));
        // undefined values are left out; a string makes the whole SUM undefined (no result for VALUE)
        assertResults("[617]", query("SELECT VALUE SUM(p.quantity) FROM products p", backpacks));
        assertResults("[]", query("SELECT VALUE SUM(p.name) FROM products p", backpacks));
        assertResults("[{}]", query("SELECT AVG(p.name) AS a FROM products p", backpacks));
    }

    @Test
    void minMax() { // min, max
        List<ObjectNode> bracelets = items("""
                [{"price":87.66,"name":"Genish bracelet","category":"fashion-bracelet"},
                 {"price":27.60,"name":"Plative bracelet","category":"fashion-bracelet"}]""");
        assertResults("[{\"minPrice\":27.6}]", query("SELECT MIN(p.price) AS minPrice FROM products p "
                + "WHERE p.category = \"fashion-bracelet\"", bracelets));
        assertResults("[{\"maxPrice\":87.66}]", query("SELECT MAX(p.price) AS maxPrice FROM products p "
                + "WHERE p.category = \"fashion-bracelet\"", bracelets));
        // across types: null < boolean < number < string
        List<ObjectNode> mixed = items("[{\"v\":12},{\"v\":\"abc\"},{\"v\":true},{\"v\":null},{}]");
        assertResults("[null]", query("SELECT VALUE MIN(c.v) FROM c", mixed));
        assertResults("[\"abc\"]", query("SELECT VALUE MAX(c.v) FROM c", mixed));
    }

    @Test
    void countAndGroupBy() { // count, group-by
        assertResults("[2]", query("SELECT VALUE COUNT(1) FROM Families f", FAMILIES));
        assertResults("[0]", query("SELECT VALUE COUNT(1) FROM Families f WHERE f.id = 'nobody'", FAMILIES));
        assertResults("[3]", query("SELECT VALUE COUNT(c) FROM Families f JOIN c IN f.children", FAMILIES));
        assertResults("""
                [{"n":1},{"category":"Accessories","n":1,"total":20},{"category":"Tools","n":2,"total":16.5}]""",
                query("SELECT p.category, COUNT(1) AS n, SUM(p.price) AS total FROM products p GROUP BY p.category",
                        PRICED));
        assertResults("[{\"$1\":3,\"gender\":\"female\",\"$2\":4.666666666666667}]",
                query("SELECT COUNT(1), c.gender, AVG(c.grade) FROM Families f JOIN c IN f.children "
                        + "GROUP BY c.gender", FAMILIES));
    }

    @Test
    void groupByDocExample() { // group-by (reference items abbreviated; the last one has no softwareDevelopment)
        List<ObjectNode> employees = items("""
                [{"name":"Jordan Mitchell","capabilities":{"softwareDevelopment":"python","mediaTrained":true},
                  "team":"Cloud software engineering"},
                 {"name":"Mikaela Lee","capabilities":{"softwareDevelopment":"javascript","mediaTrained":false},
                  "team":"Cloud software engineering"},
                 {"name":"Graham Barnes","capabilities":{"softwareDevelopment":"c-sharp","mediaTrained":true},
                  "team":"Cloud software engineering"},
                 {"name":"Hayden Cook","capabilities":{"softwareDevelopment":"javascript","mediaTrained":true},
                  "team":"Cloud software engineering"},
                 {"name":"Morgan Connors","capabilities":{"mediaTrained":true},
                  "team":"Cloud software engineering"}]""");
        assertResults("[{},{\"developmentLang\":\"c-sharp\"},{\"developmentLang\":\"javascript\"},"
                        + "{\"developmentLang\":\"python\"}]",
                query("SELECT e.capabilities.softwareDevelopment AS developmentLang FROM employees e "
                        + "WHERE e.team = \"Cloud software engineering\" GROUP BY e.capabilities.softwareDevelopment",
                        employees));
        assertResults("[{\"n\":1},{\"developmentLang\":\"c-sharp\",\"n\":1},"
                        + "{\"developmentLang\":\"javascript\",\"n\":2},{\"developmentLang\":\"python\",\"n\":1}]",
                query("SELECT e.capabilities.softwareDevelopment AS developmentLang, COUNT(1) AS n FROM employees e "
                        + "GROUP BY e.capabilities.softwareDevelopment", employees));
        assertResults("[{\"trained\":false,\"n\":1},{\"trained\":true,\"n\":4}]",
                query("SELECT e.capabilities.mediaTrained AS trained, COUNT(1) AS n FROM employees e "
                        + "GROUP BY e.capabilities.mediaTrained", employees));
    }

    // ---- subqueries ---------------------------------------------------------------------------------------------

    @Test
    void subqueries() { // subquery: EXISTS, ARRAY, scalar; correlated with the outer alias
        assertResults("[\"WakefieldFamily\"]", query("SELECT VALUE f.id FROM Families f "
                + "WHERE EXISTS(SELECT VALUE c FROM c IN f.children WHERE c.grade > 5)", FAMILIES));
        assertResults("[{\"id\":\"AndersenFamily\",\"pets\":[\"Fluffy\"]},"
                        + "{\"id\":\"WakefieldFamily\",\"pets\":[\"Goofy\",\"Shadow\"]}]",
                query("SELECT f.id, ARRAY(SELECT VALUE p.givenName FROM c IN f.children JOIN p IN c.pets) AS pets "
                        + "FROM Families f", FAMILIES));
        assertResults("[{\"id\":\"AndersenFamily\",\"maxGrade\":5},{\"id\":\"WakefieldFamily\",\"maxGrade\":8}]",
                query("SELECT f.id, (SELECT VALUE MAX(c.grade) FROM c IN f.children) AS maxGrade FROM Families f",
                        FAMILIES));
        assertResults("[\"WakefieldFamily\"]", query("SELECT VALUE f.id FROM Families f "
                + "WHERE (SELECT VALUE COUNT(1) FROM c IN f.children) > 1", FAMILIES));
    }

    @Test
    void inList() { // keywords: IN
        assertResults("[{\"id\":\"AndersenFamily\"},{\"id\":\"WakefieldFamily\"}]",
                query("SELECT f.id FROM Families f WHERE f.address.state IN (\"NY\", \"WA\", \"CA\", \"PA\", \"OH\", "
                        + "\"OR\", \"MI\", \"WI\", \"MN\", \"FL\")", FAMILIES));
        assertResults("[\"WakefieldFamily\"]",
                query("SELECT VALUE f.id FROM Families f WHERE f.id NOT IN ('AndersenFamily')", FAMILIES));
    }

    @Test
    void topOffsetLimit() { // top, offset-limit
        assertResults("[5]", query("SELECT TOP 1 VALUE c.grade FROM c IN Families.children", FAMILIES));
        assertResults("[1]", query("SELECT VALUE c.grade FROM c IN Families.children OFFSET 1 LIMIT 1", FAMILIES));
        assertResults("[5,8]", query("SELECT VALUE c.grade FROM c IN Families.children ORDER BY c.grade "
                + "OFFSET 1 LIMIT 5", FAMILIES));
        assertResults("[8]", query("SELECT TOP @n VALUE c.grade FROM c IN Families.children ORDER BY c.grade DESC",
                FAMILIES, java.util.Map.of("@n", EvalTestSupport.json("1"))));
    }
}
