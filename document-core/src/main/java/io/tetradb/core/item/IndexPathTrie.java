package io.tetradb.core.item;

import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.index.PathPattern;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * write-cost: a policy's answers per concrete path, kept as a trie, so that encoding an item with its terms
 * ({@link ItemTermRecorder}) asks the policy once per path and container, not once per field of every item: each
 * node knows its flat index path, whether anything under it may be indexed ({@link CompiledIndexingPolicy#mayIndexUnder})
 * and whether a scalar there is ({@link CompiledIndexingPolicy#indexes}). Bounded (property names are user data):
 * past {@value #MAX_NODES} nodes per policy, new paths are answered without being kept.
 */
final class IndexPathTrie {
    private static final int MAX_NODES = 20_000;
    private static final int MAX_POLICIES = 256;
    private static final Map<CompiledIndexingPolicy, Node> ROOTS = new ConcurrentHashMap<>();

    private IndexPathTrie() {
    }

    /** The root of {@code policy}'s trie (the item itself). */
    static Node root(CompiledIndexingPolicy policy) {
        Node root = ROOTS.get(policy);
        if (root == null) {
            if (ROOTS.size() >= MAX_POLICIES) {
                ROOTS.clear(); // policies of deleted or changed containers: rebuilt on their next write
            }
            root = ROOTS.computeIfAbsent(policy, p -> new Node(p, new AtomicInteger(), List.of(), "", true));
        }
        return root;
    }

    /** One concrete path ({@code []} for array elements). */
    static final class Node {
        private final CompiledIndexingPolicy policy;
        private final AtomicInteger nodes;
        private final List<String> concrete;
        /** The flat path of the index entries under this node (array segments left out). */
        final String flat;
        /** Whether anything at or under this path may be indexed. */
        final boolean may;
        /** Whether a scalar at exactly this path is indexed. */
        final boolean indexes;
        private final Map<String, Node> fields = new ConcurrentHashMap<>();
        private volatile Node elements;

        private Node(CompiledIndexingPolicy policy, AtomicInteger nodes, List<String> concrete, String flat,
                     boolean may) {
            this.policy = policy;
            this.nodes = nodes;
            this.concrete = concrete;
            this.flat = flat;
            this.may = may;
            this.indexes = may && !concrete.isEmpty() && policy.indexes(concrete);
        }

        /** The field {@code name} below this path. */
        Node field(String name) {
            Node n = fields.get(name);
            if (n == null) {
                List<String> c = with(name);
                boolean mayUnder = policy.mayIndexUnder(c);
                n = new Node(policy, nodes, c, mayUnder ? IndexTerms.childPath(flat, name) : null, mayUnder);
                if (nodes.incrementAndGet() <= MAX_NODES) {
                    Node raced = fields.putIfAbsent(name, n);
                    n = raced != null ? raced : n;
                }
            }
            return n;
        }

        /** The elements of an array at this path (indexed under this node's flat path). */
        Node elements() {
            Node n = elements;
            if (n == null) {
                n = new Node(policy, nodes, with(PathPattern.ARRAY), flat, may);
                if (nodes.incrementAndGet() <= MAX_NODES) {
                    elements = n;
                }
            }
            return n;
        }

        private List<String> with(String segment) {
            List<String> c = new ArrayList<>(concrete.size() + 1);
            c.addAll(concrete);
            c.add(segment);
            return List.copyOf(c);
        }
    }
}
