package io.tetradb.core.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Test vectors taken from the Azure Cosmos DB SDKs' own tests. Every vector names its source
 * (repository and path, and the commit that was read); the source string is also the assertion
 * message, so a failure says where the expected value came from.
 *
 * <p>Two kinds of expected value appear: EPK strings (top two bits already cleared, what
 * Cosmos routes by), and "raw" baseline values from the SDKs' PartitionKeyHashBaselineTest
 * files, which record the full reversed MurmurHash3 digest before the bits are cleared; for
 * those both the raw digest and the resulting EPK are checked.
 */
class EffectivePartitionKeyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    // Sources.
    private static final String JAVA_HASHING =
            "Azure/azure-sdk-for-java sdk/cosmos/azure-cosmos/src/test/java/com/azure/cosmos/models/"
                    + "PartitionKeyHashingTests.java#effectivePartitionKeyHashV2 @5295f3c4";
    private static final String JAVA_PKI =
            "Azure/azure-sdk-for-java sdk/cosmos/azure-cosmos/src/test/java/com/azure/cosmos/implementation/"
                    + "directconnectivity/PartitionKeyInternalTest.java @14b6bb77"
                    + " (same values in Azure/azure-cosmos-dotnet-v3 Microsoft.Azure.Cosmos/tests/"
                    + "Microsoft.Azure.Cosmos.Tests/Routing/PartitionKeyInternalTest.cs)";
    private static final String JS_V2 =
            "Azure/azure-sdk-for-js sdk/cosmosdb/cosmos/test/internal/unit/hashing/v2.spec.ts @363ae387";
    private static final String PY_BASELINE =
            "Azure/azure-sdk-for-python sdk/cosmos/azure-cosmos/tests/test_data/partition_key_hash_baseline/"
                    + "PartitionKeyHashBaselineTest.";
    private static final String PY_AT = ".xml @d97bd53f";
    private static final String DOTNET_BASELINE =
            "Azure/azure-cosmos-dotnet-v3 Microsoft.Azure.Cosmos/tests/Microsoft.Azure.Cosmos.Tests/"
                    + "BaselineTest/TestBaseline/PartitionKeyHashBaselineTest.";
    private static final String RUST_EPK =
            "Azure/azure-sdk-for-rust sdk/cosmos/azure_data_cosmos_driver/src/models/effective_partition_key.rs";

    private static final String UNDEFINED_EPK = "11622DAA78F835834610ABE56EFF5CB5";
    private static final String NULL_EPK = "378867E4430E67857ACE5C908374FE16";
    private static final String TRUE_EPK = "0E711127C5B5A8E4726AC6DD306A3E59";
    private static final String FALSE_EPK = "2FE1BE91E90A3439635E0E9E37361EF2";
    private static final String REDMOND_EPK = "22E342F38A486A088463DFF7838A5963";
    private static final String FIVE_EPK = "19C08621B135968252FB34B4CF66F811";

    // ---- Java SDK: PartitionKeyHashingTests.effectivePartitionKeyHashV2 (single path /id, hash V2) ----

    @Test
    void javaSdkPartitionKeyHashingTestsV2() {
        String src = JAVA_HASHING;
        epk(src, "32E9366E637A71B4E710384B2F4970A0", text("")); // empty string
        epk(src, "013AEFCF77FA271571CF665A58C933F1", text("partitionKey"));
        epk(src, "332BDF5512AE49615F32C7D98C2DB86C", text("a".repeat(1024))); // 1024 chars, no truncation
        epk(src, NULL_EPK, NullNode.getInstance()); // null and NullNode
        epk(src, UNDEFINED_EPK, MissingNode.getInstance()); // Undefined.value()
        epk(src, TRUE_EPK, BooleanNode.TRUE);
        epk(src, FALSE_EPK, BooleanNode.FALSE);
        epk(src, "01DAEDABF913540367FE219B2AD06148", ShortNode.valueOf(Byte.MIN_VALUE)); // -128
        epk(src, "0C507ACAC853ECA7977BF4CEFB562A25", ShortNode.valueOf(Byte.MAX_VALUE)); // 127
        epk(src, "23D5C6395512BDFEAFADAD15328AD2BB", LongNode.valueOf(Long.MIN_VALUE));
        epk(src, "2EDB959178DFCCA18983F89384D1629B", LongNode.valueOf(Long.MAX_VALUE));
        epk(src, "0B1660D5233C3171725B30D4A5F4CC1F", IntNode.valueOf(Integer.MIN_VALUE));
        epk(src, "2D9349D64712AEB5EB1406E2F0BE2725", IntNode.valueOf(Integer.MAX_VALUE));
        epk(src, "0E6CBA63A280927DE485DEF865800139", DoubleNode.valueOf(Double.MIN_VALUE));
        epk(src, "31424D996457102634591FF245DBCC4D", DoubleNode.valueOf(Double.MAX_VALUE));
    }

    // ---- Java SDK (and .NET): PartitionKeyInternalTest, hash V2 with one /pathN per component ----

    @Test
    void javaSdkPartitionKeyInternalTestV2() throws Exception {
        String src = JAVA_PKI + "#v2ParamProvider";
        epk(src, FIVE_EPK, json("5.0"));
        // More digits than a double holds: hashed as the nearest double, whichever node Jackson makes.
        epk(src, "0EF2E2D82460884AF0F6440BE4F726A8", json("5.12312419050912359123"));
        epk(src, "0EF2E2D82460884AF0F6440BE4F726A8", DecimalNode.valueOf(new BigDecimal("5.12312419050912359123")));
        epk(src, REDMOND_EPK, json("\"redmond\""));
        epk(src, TRUE_EPK, json("true"));
        epk(src, FALSE_EPK, json("false"));
        epk(src, NULL_EPK, json("null"));
        epk(src, UNDEFINED_EPK, MissingNode.getInstance()); // [{}]: {} is how Cosmos writes undefined
        epk(src, "36375D21568760E891C9CB7002D5E059", text("a".repeat(145))); // the literal is 145 'a's
        // [] is the empty partition key: its EPK is the empty string, the minimum EPK.
        assertEquals("", EffectivePartitionKey.toHex(EffectivePartitionKey.hash(List.of())), src);
    }

    @Test
    void javaSdkPartitionKeyInternalTestLongLatinStringsAreNotTruncated() {
        // managedNativeCompatibility, the V2 (isV2 = true) lines: prefixes of one 130-char string.
        // Hash V1 gives the same EPK for every length >= 100; hash V2 must differ for each.
        String src = JAVA_PKI + "#managedNativeCompatibility";
        String latin = "abcdefghijklmnopqrstuvwxyz".repeat(5);
        String[] expected = {
            "072D8FA3228DD2A6C0A7129C845700E6", // 99
            "023D5F0B62EBEF22A43564F267193B4D", // 100
            "357D83181DB32D35F58CDA3C9F2E0742", // 101
            "12B320F72959AB449FD8E090C6B23B88", // 102
            "25FD21A31C69A8C8AD994F7FAC2B2B9F", // 103
            "1DC6FB1CF6E1228C506AA6C8735023C4", // 104
            "308E1E7870956CE5D9BDAD01200E09BD", // 105
            "362E21ABDEA7179DBDF7BF549DD8303B", // 106
            "1EBE932ECEFA4F53CE339D31B6BF53FD", // 107
            "3BFA3A6E9CBABA0EF756AEDEC66B1B3C", // 108
            "2880BF78DE0CE2CD1B0120EDA22601C4", // 109
            "1F3577D1D9CA7FC56100AED11F4DC646", // 110
            "205A9EB61F3B063E61C6ED655C9220E6", // 111
            "1152A43F1A852AFDDD4518C9CDD48616", // 112
            "38E2EB2EF54012B5CA40CDA34F1C7736", // 113
            "19BCC416843B9085DBBC18E8C7C80D72", // 114
            "03F1BB89FD8E9747B047281E80FA2E84", // 115
            "2BA0757B833F3922A3CBBB6DDA3803B4", // 116
        };
        for (int i = 0; i < expected.length; i++) {
            int length = 99 + i;
            epk(src + " latin " + length, expected[i], text(latin.substring(0, length)));
        }
    }

    @Test
    void javaSdkPartitionKeyInternalTestNonLatinStrings() {
        // managedNativeCompatibility, the V2 lines: prefixes (in chars) of a Cyrillic string, so
        // two UTF-8 bytes per char; the hash is over UTF-8, not UTF-16.
        String src = JAVA_PKI + "#managedNativeCompatibility";
        String alphabet = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя";
        assertEquals(33, alphabet.length(), "source file must be read as UTF-8");
        String nonLatin = alphabet.repeat(4);
        epk(src + " nonLatin 49", "3742C1AF65AFA809282539F4BCDF2F6F", text(nonLatin.substring(0, 49)));
        epk(src + " nonLatin 50", "399CF1F141E066E09CC7557EA7F0977A", text(nonLatin.substring(0, 50)));
        epk(src + " nonLatin 51", "2D63C2F5FDAC6EFE5660CD509A723A90", text(nonLatin.substring(0, 51)));
        epk(src + " nonLatin 99", "1E9836D9BCB67FDB2B5C984BD40AFAF9", text(nonLatin.substring(0, 99)));
        epk(src + " nonLatin 100", "16102F19448867537E51BB4377962AF9", text(nonLatin.substring(0, 100)));
        epk(src + " nonLatin 101", "0B6D25D07748AB9CA0F523D4BAD146C8", text(nonLatin.substring(0, 101)));
    }

    // ---- JavaScript SDK: hashing/v2.spec.ts ----

    @Test
    void jsSdkV2Spec() {
        String src = JS_V2;
        epk(src, REDMOND_EPK, text("redmond"));
        epk(src, "0BA3E9CA8EE4C14538828D1612A4B652", text("a".repeat(110))); // the literal is 110 'a's
        epk(src, "32E9366E637A71B4E710384B2F4970A0", text(""));
        epk(src, "05033626483AE80D00E44FBD35362B19", text("aa"));
        epk(src, NULL_EPK, NullNode.getInstance());
        epk(src, TRUE_EPK, BooleanNode.TRUE);
        epk(src, FALSE_EPK, BooleanNode.FALSE);
        epk(src, UNDEFINED_EPK, MissingNode.getInstance()); // {} in the JS SDK
        epk(src, FIVE_EPK, IntNode.valueOf(5)); // integer 5 hashes as the double 5.0
        epk(src, "0E2EE47829D1AF775EEFB6540FD1D0ED", DoubleNode.valueOf(5.5));
        epk(src, "27E7ECA8F2EE3E53424DE8D5220631C6", DoubleNode.valueOf(12313.1221));
        epk(src, "1F56D2538088EBA82CCF988F36E16760", IntNode.valueOf(123456789));
    }

    // ---- Legacy hash V2 over several paths: one hash of all typed bytes concatenated ----

    @Test
    void legacyMultiPathHashV2ConcatenatesBeforeHashing() throws Exception {
        // Not MultiHash and not offered by hash(); checked through the package-private pieces to
        // prove the typed bytes of numbers, strings, booleans and null once more.
        String pki = JAVA_PKI + "#v2ParamProvider [5.0, \"redmond\", true, null]";
        assertEquals(
                "3032DECBE2AB1768D8E0AEDEA35881DF",
                hex(EffectivePartitionKey.hashTypedBytes(concatTyped(
                        json("5.0"), text("redmond"), BooleanNode.TRUE, NullNode.getInstance()))),
                pki);
        String js = JS_V2 + " [\"redmond\", 50, 5.5, true, false, null, \"\", 12313.1221]";
        assertEquals(
                "1A5E512F591E980E07A6D8AD5BD5AB2F",
                hex(EffectivePartitionKey.hashTypedBytes(concatTyped(
                        text("redmond"), IntNode.valueOf(50), DoubleNode.valueOf(5.5), BooleanNode.TRUE,
                        BooleanNode.FALSE, NullNode.getInstance(), text(""), DoubleNode.valueOf(12313.1221)))),
                js);
    }

    // ---- Python SDK baselines (PartitionKeyHashBaselineTest.*.xml): raw digests ----

    @Test
    void pythonBaselineSingletons() {
        // The same four values are in the .NET Singletons.xml (@84ac690d) in this byte order.
        String src = PY_BASELINE + "Singletons" + PY_AT;
        raw(src, "51622DAA78F835834610ABE56EFF5CB5", MissingNode.getInstance()); // UNDEFINED
        raw(src, "778867E4430E67857ACE5C908374FE16", NullNode.getInstance());
        raw(src, "4E711127C5B5A8E4726AC6DD306A3E59", BooleanNode.TRUE);
        raw(src, "EFE1BE91E90A3439635E0E9E37361EF2", BooleanNode.FALSE);
    }

    @Test
    void pythonBaselineNumbers() throws Exception {
        String src = PY_BASELINE + "Numbers" + PY_AT;
        raw(src, "555B95BEDAC4B1E9EC1CDC9BB0DDDE58", json("0")); // positive zero
        // Negative zero hashes its own bits. The baseline means the double -0.0: Jackson reads the
        // JSON text "-0" as the integer 0 (positive zero), only "-0.0" becomes a DoubleNode(-0.0).
        raw(src, "3D018BB1DF3DB27235766E81FD10406E", DoubleNode.valueOf(-0.0));
        raw(src, "3D018BB1DF3DB27235766E81FD10406E", json("-0.0"));
        raw(src, "A0CD98B339BA78A5D0CF6953B87070B0", json("1"));
        raw(src, "59938E7A936C1C5B9E3AE842BBC16839", json("-1"));
        raw(src, "0E6CBA63A280927DE485DEF865800139", json("5E-324")); // epsilon
        raw(src, "71424D996457102634591FF245DBCC4D", json("1.7976931348623157E+308"));
        raw(src, "27050CC4910CFD9DACE1283D3801DF25", json("-1.7976931348623157E+308"));
        raw(src, "5B63B3FB266DB3B6CD3BC79FE893CDE8", DoubleNode.valueOf(Double.NEGATIVE_INFINITY));
        raw(src, "3889F7F08A8CE2A5C9829BBB1944B4FF", DoubleNode.valueOf(Double.POSITIVE_INFINITY));
        // long.MaxValue and MaxValue - 1 round to the same double (2^63), hence the same hash.
        raw(src, "6EDB959178DFCCA18983F89384D1629B", json("9223372036854775807"));
        raw(src, "6EDB959178DFCCA18983F89384D1629B", json("9223372036854775806"));
        raw(src, "63D5C6395512BDFEAFADAD15328AD2BB", json("-9223372036854775808"));
        raw(src, "12C221C7032CED1F9E6693CE1428E6CF", json("9007199254740991")); // 2^53 - 1
        raw(src, "8FEA3467D94AA6E4628EF0B248C1FD9B", json("9007199254740990"));
        raw(src, "55335910D01122E3D99DA5DE569B065D", json("9007199254740992"));
    }

    @Test
    void pythonBaselineNaNIsDotNetNaNBits() {
        // The baseline's NaN is .NET's double.NaN, bits 0xFFF8000000000000 (the Python test says so);
        // Java's Double.NaN is 0x7FF8000000000000 and the Java SDK hashes that, so the SDKs
        // disagree. JSON has no NaN, so hash() refuses it; the vector still pins the number layout.
        String src = PY_BASELINE + "Numbers" + PY_AT + " NaN";
        byte[] typed = ByteBuffer.allocate(9)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(EffectivePartitionKey.NUMBER)
                .putLong(0xFFF8000000000000L)
                .array();
        assertEquals("5AA4222583D70ECAA0922D8CA8EDFCB1", hex(EffectivePartitionKey.reversedDigest(typed)), src);
        assertThrows(IllegalArgumentException.class,
                () -> EffectivePartitionKey.hash(List.of(DoubleNode.valueOf(Double.NaN))));
    }

    @Test
    void pythonBaselineStrings() {
        String src = PY_BASELINE + "Strings" + PY_AT;
        raw(src, "B2E9366E637A71B4E710384B2F4970A0", text(""));
        raw(src, "608BF1D598F5B63AD5520F04FE58C5E8", text("asdf"));
        raw(src, "3C02F609961C32AAC2B912B940D1209A", text("a".repeat(99)));
        raw(src, "8DBD7D229437BB665DE6417747994D57", text("a".repeat(100)));
        raw(src, "88042541D30C8BF90D7092B1519AE0BC", text("a".repeat(101)));
        raw(src, "B3E0AE996F53F2CD5DD5574ACAB3BF19", text("a".repeat(2048)));
    }

    @Test
    void pythonBaselineListsAreMultiHash() {
        // Hierarchical keys: one raw digest per level, each level's top bits cleared on its own.
        String src = PY_BASELINE + "Lists" + PY_AT;
        String p1 = "B499FD5198AE0F1EB6B77F6E428D2FF0";
        String p2 = "E7A1848BD1102A3B65AFF266874D0FF5";
        String p3 = "ECA5ABC953544CF9BD94776DA5E6EA52";
        multi(src + " 1 path", List.of(p1), text("/path1"));
        multi(src + " 2 paths", List.of(p1, p2), text("/path1"), text("/path2"));
        multi(src + " 3 paths", List.of(p1, p2, p3), text("/path1"), text("/path2"), text("/path3"));
        assertEquals(
                "34" + p1.substring(2) + "27" + p2.substring(2) + "2C" + p3.substring(2),
                EffectivePartitionKey.toHex(EffectivePartitionKey.hash(
                        List.of(text("/path1"), text("/path2"), text("/path3")))),
                src);
    }

    // ---- .NET baselines: a helper that hashes strings WITHOUT the 0xFF terminator ----

    @Test
    void dotnetBaselineStringsOmitTheTerminatorSoAreNotEpks() {
        // .NET's PartitionKeyHash.V2.Hash(string) (Microsoft.Azure.Cosmos/src/Routing/PartitionKeyHash.cs)
        // hashes 0x08 + UTF-8 with no 0xFF, and its baselines do not clear the top bits, so its
        // string and list values differ from every EPK above. They match that recipe exactly,
        // which shows the difference is the terminator and nothing else. Values are printed most
        // significant byte first at these commits (another revision printed them reversed).
        String strings = DOTNET_BASELINE + "Strings.xml @45aadd26";
        assertEquals("6A63D2CF33E52BDBDFA3A1B71AF6E07E", hex(EffectivePartitionKey.reversedDigest(
                utf8NoTerminator(""))), strings);
        assertEquals("498D89FE394B068D05EE6EB149D83908", hex(EffectivePartitionKey.reversedDigest(
                utf8NoTerminator("asdf"))), strings);
        assertEquals("4346A8E3F50BE781D8E072651D398EAE", hex(EffectivePartitionKey.reversedDigest(
                utf8NoTerminator("a".repeat(101)))), strings);
        String lists = DOTNET_BASELINE + "Lists.xml @17ee5f7c";
        assertEquals("B63DB6C43A4F1B014C63B0C2E628E812", hex(EffectivePartitionKey.reversedDigest(
                utf8NoTerminator("/path1"))), lists);
        assertNotEquals("2A63D2CF33E52BDBDFA3A1B71AF6E07E",
                EffectivePartitionKey.toHex(EffectivePartitionKey.hash(List.of(text("")))), strings);
    }

    // ---- MultiHash with mixed types: Rust SDK effective_partition_key.rs ----

    @Test
    void rustSdkMultiHashMixedTypes() {
        epkLevels(RUST_EPK + "#multi_hash_two_components", REDMOND_EPK + FIVE_EPK,
                text("redmond"), DoubleNode.valueOf(5.0));
        epkLevels(RUST_EPK + "#multi_hash_three_components", REDMOND_EPK + TRUE_EPK + NULL_EPK,
                text("redmond"), BooleanNode.TRUE, NullNode.getInstance());
        // effective_partition_key_hash_v2: 5.123_124_190_509_124f64
        epk(RUST_EPK + "#effective_partition_key_hash_v2", "0EF2E2D82460884AF0F6440BE4F726A8",
                DoubleNode.valueOf(5.123124190509124));
    }

    @Test
    void multiHashLevelsAreIndependentAndSinglePathIsTheFirstLevel() {
        // multi_hash_with_undefined / multi_hash_single_component_matches_v2 in RUST_EPK: a
        // hierarchical key is the concatenation of the single-path hashes, undefined included,
        // and a prefix of the levels is a prefix of the EPK.
        List<JsonNode> key = List.of(text("tenant1"), MissingNode.getInstance(), IntNode.valueOf(42));
        byte[] whole = EffectivePartitionKey.hash(key);
        assertEquals(3 * EffectivePartitionKey.LEVEL_BYTES, whole.length);
        for (int level = 0; level < key.size(); level++) {
            byte[] single = EffectivePartitionKey.hash(List.of(key.get(level)));
            assertArrayEquals(single, Arrays.copyOfRange(whole, level * 16, level * 16 + 16), RUST_EPK);
        }
        assertEquals(UNDEFINED_EPK, EffectivePartitionKey.toHex(whole).substring(32, 64), RUST_EPK);
        byte[] prefix = EffectivePartitionKey.hash(key.subList(0, 2));
        assertArrayEquals(prefix, Arrays.copyOf(whole, 32));
    }

    // ---- hex form and argument checks ----

    @Test
    void hexRoundTrip() {
        byte[] epk = EffectivePartitionKey.hash(List.of(text("redmond"), BooleanNode.TRUE));
        String hex = EffectivePartitionKey.toHex(epk);
        assertEquals(REDMOND_EPK + TRUE_EPK, hex);
        assertArrayEquals(epk, EffectivePartitionKey.fromHex(hex));
        assertArrayEquals(epk, EffectivePartitionKey.fromHex(hex.toLowerCase()));
        assertArrayEquals(new byte[0], EffectivePartitionKey.fromHex("")); // minimum EPK
        assertArrayEquals(new byte[] {(byte) 0xFF}, EffectivePartitionKey.fromHex("FF")); // maximum EPK
        assertThrows(IllegalArgumentException.class, () -> EffectivePartitionKey.fromHex("ABC"));
        assertThrows(IllegalArgumentException.class, () -> EffectivePartitionKey.fromHex("ZZ"));
    }

    @Test
    void rejectsWhatIsNotAPartitionKeyValue() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        assertThrows(IllegalArgumentException.class,
                () -> EffectivePartitionKey.hash(List.of(nodes.objectNode())));
        assertThrows(IllegalArgumentException.class,
                () -> EffectivePartitionKey.hash(List.of(nodes.arrayNode())));
        assertThrows(NullPointerException.class,
                () -> EffectivePartitionKey.hash(Arrays.asList(text("a"), null)));
    }

    // ---- helpers ----

    private static TextNode text(String s) {
        return TextNode.valueOf(s);
    }

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    private static String hex(byte[] bytes) {
        return EffectivePartitionKey.toHex(bytes);
    }

    /** Single-path EPK (hash V2, equal to one MultiHash level). */
    private static void epk(String source, String expected, JsonNode component) {
        assertEquals(expected, hex(EffectivePartitionKey.hash(List.of(component))), source);
    }

    private static void epkLevels(String source, String expected, JsonNode... components) {
        assertEquals(expected, hex(EffectivePartitionKey.hash(List.of(components))), source);
    }

    /** A baseline's raw digest, then the EPK it implies (top two bits of byte 0 cleared). */
    private static void raw(String source, String rawDigest, JsonNode component) {
        assertEquals(rawDigest, hex(EffectivePartitionKey.reversedDigest(
                EffectivePartitionKey.typedBytes(component))), source + " (raw digest)");
        epk(source + " (EPK)", masked(rawDigest), component);
    }

    private static void multi(String source, List<String> rawLevels, JsonNode... components) {
        StringBuilder expected = new StringBuilder();
        for (String level : rawLevels) {
            expected.append(masked(level));
        }
        epkLevels(source, expected.toString(), components);
    }

    private static String masked(String rawDigestHex) {
        byte[] bytes = EffectivePartitionKey.fromHex(rawDigestHex);
        bytes[0] &= 0x3F;
        return hex(bytes);
    }

    private static byte[] concatTyped(JsonNode... components) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (JsonNode c : components) {
            out.writeBytes(EffectivePartitionKey.typedBytes(c));
        }
        return out.toByteArray();
    }

    private static byte[] utf8NoTerminator(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(EffectivePartitionKey.STRING);
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
