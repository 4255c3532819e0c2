package io.tetradb.core.query.functions;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static io.tetradb.core.query.functions.Fn.check;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mathematical functions. Examples and results from https://learn.microsoft.com/azure/cosmos-db/nosql/query/
 * {abs,acos,asin,atan,atn2,ceiling,cos,cot,degrees,exp,floor,log,log10,pi,power,radians,rand,round,sign,sin,sqrt,
 * square,tan,trunc,numberbin} and the samples repository Azure-Samples/cosmos-db-nosql-query-samples.
 */
class MathFunctionsTest {

    @Test
    void documentedExamples() {
        check("1", "ABS", "-1");
        check("0", "ABS", "0");
        check("1", "ABS", "1");
        check("3.141592653589793", "ACOS", "-1");
        check("-1.5707963267948966", "ASIN", "-1");
        check("-1.5485826962062663", "ATAN", "-45.01");
        check("0.265344532064832", "ATN2", "35.175643", "129.44");
        check("124", "CEILING", "123.45");
        check("-45", "CEILING", "-45.72");
        check("0", "CEILING", "0");
        check("-0.5994654261946543", "COS", "14.78");
        check("-0.040311998371148884", "COT", "124.1332");
        check("90", "DEGREES", "1.5707963267948966");
        check("180", "DEGREES", "3.141592653589793");
        check("270", "DEGREES", "4.71238898038469");
        check("360", "DEGREES", "6.283185307179586");
        check("1", "EXP", "0");
        check("22026.465794806718", "EXP", "10");
        check("485165195.4097903", "EXP", "20");
        check("62", "FLOOR", "62.6");
        check("-146", "FLOOR", "-145.12");
        check("0", "FLOOR", "0.2989");
        check("0", "FLOOR", "0.0");
        check("undefined", "FLOOR", "null");
        check("1.6094379124341003", "LOG", "5");
        check("0.3010299956639812", "LOG", "2", "10");
        check("1", "LOG10", "10");
        check("2", "LOG10", "100");
        check("3.141592653589793", "PI");
        check("1", "POWER", "1", "1");
        check("4", "POWER", "2", "2");
        check("27", "POWER", "3", "3");
        check("256", "POWER", "4", "4");
        check("3125", "POWER", "5", "5");
        check("0", "POWER", "0", "2");
        check("undefined", "POWER", "null", "3");
        check("undefined", "POWER", "2", "null");
        check("3.141592653589793", "RADIANS", "180");
        check("2", "ROUND", "2.4");
        check("3", "ROUND", "2.6");
        check("3", "ROUND", "2.5");
        check("-2", "ROUND", "-2.4");
        check("-3", "ROUND", "-2.6");
        check("-3", "ROUND", "-2.5");
        check("-1", "SIGN", "-2");
        check("0", "SIGN", "0");
        check("1", "SIGN", "2");
        check("1", "SIN", "1.5707963267948966");
        check("3", "SQRT", "9");
        check("9", "SQUARE", "3");
        check("2.25", "SQUARE", "1.5");
        check("1", "TAN", "0.7853981633974483");
        check("4503599627370497", "ROUND", "4503599627370497");
        check("0", "CEILING", "-0.5");
        check("2", "TRUNC", "2.7");
        check("-2", "TRUNC", "-2.7");
    }

    @Test
    void numberBin() {
        check("100", "NumberBin", "37.752", "-100");
        check("30", "NumberBin", "37.752", "10");
        check("37", "NumberBin", "37.752", "1");
        check("undefined", "NumberBin", "37.752", "0");
        check("37.7", "NumberBin", "37.752", "0.1");
        check("37.75", "NumberBin", "37.752", "0.01");
        check("37", "NumberBin", "37.752");
        check("-40", "NumberBin", "-37.752", "10");
        check("undefined", "NumberBin", "\"37\"", "10");
    }

    @Test
    void wrongTypesAreUndefined() {
        for (String f : new String[]{"ABS", "ACOS", "ASIN", "ATAN", "CEILING", "COS", "COT", "DEGREES", "EXP",
                "FLOOR", "LOG", "LOG10", "RADIANS", "ROUND", "SIGN", "SIN", "SQRT", "SQUARE", "TAN", "TRUNC"}) {
            check("undefined", f, "\"1\"");
            check("undefined", f, "undefined");
            check("undefined", f, "true");
            check("undefined", f, "[1]");
        }
        check("undefined", "ATN2", "1", "\"1\"");
        check("undefined", "LOG", "8", "\"2\"");
    }

    @Test
    void nonFiniteResultsStayDoubles() {
        assertTrue(Double.isNaN(Fn.call("SQRT", "-1").doubleValue()));
        assertEquals(Double.NEGATIVE_INFINITY, Fn.call("LOG", "0").doubleValue());
    }

    @Test
    void randIsInUnitIntervalAndInjectable() {
        for (int i = 0; i < 100; i++) {
            double d = Fn.call("RAND").doubleValue();
            assertTrue(d >= 0 && d < 1);
        }
        FunctionContext seeded = Fn.CTX.withRandom(new Random(42));
        double expected = new Random(42).nextDouble();
        assertEquals(expected, Fn.callIn(seeded, "RAND").doubleValue());
    }
}
