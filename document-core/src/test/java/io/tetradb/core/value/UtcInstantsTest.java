package io.tetradb.core.value;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The positional reader agrees with java.time on the UTC form and leaves every other form to it. */
class UtcInstantsTest {
    @Test
    void agreesWithJavaTime() {
        Random random = new Random(17);
        for (int i = 0; i < 20_000; i++) {
            long seconds = Math.floorMod(random.nextLong(), 253402300800L); // years 1970-9999
            int digits = random.nextInt(10);
            long nanos = digits == 0 ? 0 : random.nextInt(1_000_000_000);
            String fraction = "";
            if (digits > 0) {
                String nine = String.format("%09d", nanos);
                fraction = "." + nine.substring(0, digits);
                nanos = Long.parseLong((nine.substring(0, digits) + "000000000").substring(0, 9));
            }
            String text = Instant.ofEpochSecond(seconds).toString().replace("Z", "").substring(0, 19) + fraction + "Z";
            Instant expected = OffsetDateTime.parse(text).toInstant();
            assertEquals(expected, UtcInstants.parse(text), text);
            assertEquals(Instant.ofEpochSecond(seconds, nanos), expected, text);
        }
    }

    @Test
    void otherFormsAreLeftToJavaTime() {
        for (String other : List.of("2020-02-30T00:00:00Z", "2020-01-01T00:00:00+01:00", "2020-01-01T24:00:00Z",
                "2020-01-01 00:00:00Z", "2020-01-01T00:00:00.Z", "2020-1-01T00:00:00Z", "+2020-01-01T00:00:00Z",
                "2020-01-01T00:00:00.1234567890Z", "2020-01-01T00:00Z", "")) {
            assertNull(UtcInstants.parse(other), other);
        }
    }
}
