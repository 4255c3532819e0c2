package io.tetradb.table.filter;

import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.TableException;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FilterParserTest {

    @Test
    void typedLiterals() {
        assertEquals(new Filter.Comparison("A", Filter.Op.EQ, EdmValue.string("it's")), FilterParser.parse("A eq 'it''s'"));
        assertEquals(EdmValue.int64(9007199254740993L), lit("A gt 9007199254740993L"));
        assertEquals(EdmValue.int32(-5), lit("A gt -5"));
        assertEquals(EdmValue.int64(3_000_000_000L), lit("A gt 3000000000"));
        assertEquals(EdmValue.dbl(1.5), lit("A le 1.5"));
        assertEquals(EdmValue.dbl(1000.0), lit("A le 1e3"));
        assertEquals(EdmValue.bool(true), lit("A eq true"));
        assertEquals(EdmValue.dateTime(Instant.parse("2016-03-01T09:30:00.1234567Z")),
                lit("A eq datetime'2016-03-01T09:30:00.1234567Z'"));
        UUID u = UUID.randomUUID();
        assertEquals(EdmValue.guid(u), lit("A eq guid'" + u + "'"));
        assertEquals(EdmValue.binary(new byte[]{1, (byte) 0xff}), lit("A eq X'01ff'"));
        assertEquals(EdmValue.binary(new byte[]{1, (byte) 0xff}), lit("A eq binary'01FF'"));
    }

    @Test
    void precedenceParenthesesAndFlippedOperands() {
        Filter f = FilterParser.parse("(A eq 1 or B eq 2) and not (C lt 3)");
        assertTrue(f instanceof Filter.And a && a.left() instanceof Filter.Or && a.right() instanceof Filter.Not);
        Filter g = FilterParser.parse("A eq 1 or B eq 2 and C eq 3");
        assertTrue(g instanceof Filter.Or o && o.right() instanceof Filter.And, "and binds tighter than or");
        assertEquals(new Filter.Comparison("Age", Filter.Op.GT, EdmValue.int32(5)), FilterParser.parse("5 lt Age"));
    }

    @Test
    void evaluatorIsTypeExact() {
        Map<String, EdmValue> e = Map.of("Age", EdmValue.int32(42), "Big", EdmValue.int64(9007199254740993L),
                "Name", EdmValue.string("Ben"));
        assertTrue(FilterEvaluator.matches(FilterParser.parse("Age eq 42 and Name ge 'B'"), e::get));
        // numbers compare by value across Int32, Int64 and Double (OData's numeric promotion, as Azure does)
        assertTrue(FilterEvaluator.matches(FilterParser.parse("Age eq 42L"), e::get), "Int32 vs Int64 literal");
        assertTrue(FilterEvaluator.matches(FilterParser.parse("Age eq 42.0"), e::get), "Int32 vs Double literal");
        assertTrue(FilterEvaluator.matches(FilterParser.parse("Big gt 42"), e::get), "Int64 vs Int32 literal");
        assertFalse(FilterEvaluator.matches(FilterParser.parse("Age eq '42'"), e::get), "Int32 vs String literal");
        assertTrue(FilterEvaluator.matches(FilterParser.parse("Big gt 9007199254740992L"), e::get));
        assertFalse(FilterEvaluator.matches(FilterParser.parse("Missing eq 1"), e::get));
        assertFalse(FilterEvaluator.matches(FilterParser.parse("not (Missing eq 1)"), e::get));
        assertTrue(FilterEvaluator.matches(FilterParser.parse("Missing eq 1 or Age ne 1"), e::get));
    }

    @Test
    void badFiltersAreInvalidInput() {
        for (String bad : new String[]{"", "A eq", "A eq 'x", "A eq 1 and", "(A eq 1", "A foo 1", "A eq B",
                "A eq datetime'yesterday'", "A eq guid'123'", "A eq X'0g'", "A eq 12abc", "A eq 1.5L", "eq eq 1",
                "A eq 1)", "A eq 99999999999999999999"}) {
            TableException e = assertThrows(TableException.class, () -> FilterParser.parse(bad), bad);
            assertEquals(400, e.status());
            assertEquals("InvalidInput", e.errorCode());
        }
        StringBuilder sixteen = new StringBuilder("A eq 0");
        for (int i = 1; i < 16; i++) {
            sixteen.append(" or A eq ").append(i);
        }
        assertThrows(TableException.class, () -> FilterParser.parse(sixteen.toString()));
        assertEquals(EdmType.INT32, ((Filter.Comparison) ((Filter.Or) FilterParser.parse(
                sixteen.substring(0, sixteen.lastIndexOf(" or")))).right()).literal().type(), "15 comparisons are fine");
    }

    private static EdmValue lit(String filter) {
        return ((Filter.Comparison) FilterParser.parse(filter)).literal();
    }
}
