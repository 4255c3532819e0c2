package io.tetradb.bench.itemformat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.BinaryItemWriter;

/** Our own format (io.tetradb.core.item, "TB1"): sorted field-offset tables, binary search per field. */
final class TetraCandidate implements Candidate {
    private final BinaryItemWriter writer = new BinaryItemWriter(2048, 256);

    @Override
    public String name() {
        return "tb1";
    }

    @Override
    public boolean typed() {
        return true;
    }

    @Override
    public byte[] encode(ObjectNode item) {
        return writer.write(item);
    }

    @Override
    public ObjectNode decode(byte[] stored) {
        return BinaryItemReader.readObject(stored, 0);
    }

    @Override
    public JsonNode field(byte[] stored, String name) {
        int at = BinaryItemReader.find(stored, 0, name);
        return at < 0 ? MissingNode.getInstance() : BinaryItemReader.read(stored, at);
    }

    @Override
    public JsonNode path(byte[] stored, String outer, String inner) {
        int at = BinaryItemReader.find(stored, 0, outer);
        at = at < 0 ? -1 : BinaryItemReader.find(stored, at, inner);
        return at < 0 ? MissingNode.getInstance() : BinaryItemReader.read(stored, at);
    }
}
