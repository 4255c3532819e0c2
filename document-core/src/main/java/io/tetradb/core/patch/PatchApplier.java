package io.tetradb.core.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.util.ArrayList;
import java.util.List;

/**
 * Applies Cosmos DB patch operations to a copy of an item, all or nothing: the first invalid operation fails the
 * whole patch with 400 and the caller keeps the original.
 */
public final class PatchApplier {
    private PatchApplier() {
    }

    /** A patched deep copy of {@code item}. */
    public static ObjectNode apply(ObjectNode item, List<PatchOperation> operations) {
        ObjectNode doc = item.deepCopy();
        for (PatchOperation op : operations) {
            applyOne(doc, op);
        }
        return doc;
    }

    private static void applyOne(ObjectNode doc, PatchOperation op) {
        List<String> path = pointer(op.path());
        switch (op.type()) {
            case ADD -> add(doc, path, requireValue(op), true);
            case SET -> add(doc, path, requireValue(op), false);
            case REPLACE -> {
                requireExisting(doc, path, op);
                add(doc, path, requireValue(op), false);
            }
            case REMOVE -> remove(doc, path, op);
            case INCREMENT -> increment(doc, path, op);
            case MOVE -> {
                List<String> from = pointer(op.from());
                if (op.path().startsWith(op.from() + "/")) {
                    throw bad(op, "cannot move a value into one of its own children");
                }
                JsonNode moved = requireExisting(doc, from, op);
                remove(doc, from, op);
                add(doc, path, moved, false);
            }
            default -> throw bad(op, "unknown operation");
        }
    }

    private static JsonNode requireValue(PatchOperation op) {
        if (op.value() == null) {
            throw bad(op, "the operation needs a value");
        }
        return op.value().deepCopy();
    }

    /** add inserts into arrays ("-" appends); set/replace overwrite the element at an array index. */
    private static void add(ObjectNode doc, List<String> path, JsonNode value, boolean insertIntoArrays) {
        JsonNode parent = parent(doc, path);
        String last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode o) {
            o.set(last, value);
        } else if (parent instanceof ArrayNode a) {
            if (last.equals("-")) {
                a.add(value);
                return;
            }
            int index = index(last, a.size() + (insertIntoArrays ? 1 : 0), path);
            if (insertIntoArrays) {
                a.insert(index, value);
            } else if (index == a.size()) {
                a.add(value);
            } else {
                a.set(index, value);
            }
        } else {
            throw new StoreException(Status.BAD_REQUEST, "patch path " + join(path) + ": its parent is not an object or array");
        }
    }

    private static void remove(ObjectNode doc, List<String> path, PatchOperation op) {
        requireExisting(doc, path, op);
        JsonNode parent = parent(doc, path);
        String last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode o) {
            o.remove(last);
        } else {
            ((ArrayNode) parent).remove(index(last, parent.size(), path));
        }
    }

    private static void increment(ObjectNode doc, List<String> path, PatchOperation op) {
        JsonNode by = op.value();
        if (by == null || !by.isNumber()) {
            throw bad(op, "increment needs a numeric value");
        }
        JsonNode current = find(doc, path);
        JsonNode result;
        if (current == null) {
            result = by;
        } else if (!current.isNumber()) {
            throw bad(op, "the target is not a number");
        } else if (current.isIntegralNumber() && by.isIntegralNumber()) {
            result = LongNode.valueOf(Math.addExact(current.longValue(), by.longValue()));
        } else {
            result = DoubleNode.valueOf(current.doubleValue() + by.doubleValue());
        }
        add(doc, path, result, false);
    }

    private static JsonNode requireExisting(ObjectNode doc, List<String> path, PatchOperation op) {
        JsonNode n = find(doc, path);
        if (n == null) {
            throw bad(op, "the path does not exist in the item");
        }
        return n;
    }

    private static JsonNode find(JsonNode doc, List<String> path) {
        JsonNode n = doc;
        for (String segment : path) {
            if (n instanceof ObjectNode o) {
                n = o.get(segment);
            } else if (n instanceof ArrayNode a) {
                int i = parseIndex(segment);
                n = i >= 0 && i < a.size() ? a.get(i) : null;
            } else {
                return null;
            }
            if (n == null) {
                return null;
            }
        }
        return n;
    }

    private static JsonNode parent(ObjectNode doc, List<String> path) {
        JsonNode parent = find(doc, path.subList(0, path.size() - 1));
        if (parent == null || !parent.isContainerNode()) {
            throw new StoreException(Status.BAD_REQUEST, "patch path " + join(path) + ": its parent does not exist");
        }
        return parent;
    }

    private static int index(String segment, int limit, List<String> path) {
        int i = parseIndex(segment);
        if (i < 0 || i >= limit) {
            throw new StoreException(Status.BAD_REQUEST, "patch path " + join(path) + ": array index out of range");
        }
        return i;
    }

    private static int parseIndex(String segment) {
        if (segment.isEmpty() || segment.length() > 9 || !segment.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(segment);
    }

    /** Splits a JSON pointer ({@code ~1} is "/", {@code ~0} is "~"). */
    public static List<String> pointer(String path) {
        if (path == null || !path.startsWith("/") || path.length() < 2) {
            throw new StoreException(Status.BAD_REQUEST, "invalid patch path '" + path + "': it must start with /");
        }
        List<String> out = new ArrayList<>();
        for (String s : path.substring(1).split("/", -1)) {
            out.add(s.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }

    private static String join(List<String> path) {
        return "/" + String.join("/", path);
    }

    private static StoreException bad(PatchOperation op, String why) {
        return new StoreException(Status.BAD_REQUEST, "patch " + op.type().opName() + " " + op.path() + ": " + why);
    }
}
