package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.StoreException;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FunctionRegistryTest {

    @Test
    void lookupIsCaseInsensitive() {
        FunctionRegistry r = FunctionRegistry.standard();
        assertEquals("UPPER", r.lookup("upper").name());
        assertEquals("StringEquals", r.lookup("STRINGEQUALS").name());
        Fn.assertResult("\"ABC\"", r.invoke("Upper", List.of(Fn.json("\"abc\"")), Fn.CTX));
        assertTrue(r.contains("array_contains"));
    }

    @Test
    void unknownFunctionIs400NamingIt() {
        StoreException e = assertThrows(StoreException.class, () -> FunctionRegistry.standard().lookup("NoSuchFn"));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains("NoSuchFn"), e.getMessage());
        // spatial and vector functions are not built in
        assertThrows(StoreException.class, () -> FunctionRegistry.standard().lookup("ST_DISTANCE"));
        assertThrows(StoreException.class, () -> FunctionRegistry.standard().lookup("VectorDistance"));
    }

    @Test
    void wrongArgumentCountIs400() {
        List<JsonNode> one = List.of(Fn.json("\"a\""));
        StoreException e = assertThrows(StoreException.class,
                () -> FunctionRegistry.standard().invoke("CONCAT", one, Fn.CTX));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains("CONCAT"), e.getMessage());
        assertEquals(400, assertThrows(StoreException.class,
                () -> FunctionRegistry.standard().resolve("PI", 1)).status());
        assertEquals(400, assertThrows(StoreException.class,
                () -> FunctionRegistry.standard().resolve("SUBSTRING", 4)).status());
        assertEquals(400, assertThrows(StoreException.class,
                () -> FunctionRegistry.standard().resolve("DateTimeFromParts", 8)).status());
        FunctionRegistry.standard().resolve("CONCAT", 20);
    }

    @Test
    void everyFamilyIsRegistered() {
        FunctionRegistry r = FunctionRegistry.standard();
        for (String name : new String[]{"CONCAT", "ABS", "IntAdd", "IS_ARRAY", "ARRAY_SLICE", "IIF",
                "DateTimeAdd", "DocumentId"}) {
            assertTrue(r.contains(name), name);
        }
        assertEquals(99, r.all().size(), "functions (including the Static date-time variants and SEEK_HINT)");
    }

    @Test
    void customRegistriesAcceptMoreFunctionsButNoDuplicates() {
        FunctionRegistry r = FunctionRegistry.createStandard();
        r.register("udf_twice", 1, 1, (a, c) -> Args.number(a.get(0).doubleValue() * 2));
        Fn.assertResult("4", r.invoke("UDF_TWICE", List.of(Fn.json("2")), Fn.CTX));
        assertThrows(IllegalArgumentException.class, () -> r.register("upper", 1, 1, (a, c) -> a.get(0)));
    }

    @Test
    void theTestHelperDetectsWrongResults() {
        assertThrows(AssertionFailedError.class, () -> Fn.check("2", "ABS", "-1"));
        assertThrows(AssertionFailedError.class, () -> Fn.check("undefined", "ABS", "-1"));
        assertThrows(AssertionFailedError.class, () -> Fn.check("1", "ABS", "\"x\""));
    }
}
