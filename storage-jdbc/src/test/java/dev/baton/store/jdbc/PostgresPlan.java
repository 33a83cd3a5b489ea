package dev.baton.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A PostgreSQL plan as {@code EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON)} returns it: the
 * tree of nodes with what {@link PostgresPlanTest} reads from them (node type, index, index
 * condition, rows, heap fetches), and an indented rendering for assertion messages.
 */
final class PostgresPlan {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One node of the plan.
     *
     * @param type        the node type ({@code Index Scan}, {@code Bitmap Heap Scan}, {@code Sort}, ...)
     * @param direction   {@code Backward} for an index read backwards, else {@code Forward} or empty
     * @param relation    the table it reads, or empty
     * @param index       the index it reads, or empty
     * @param condition   its {@code Index Cond} (the range it reads from the index), or empty
     * @param rows        the rows it returned, over all its loops
     * @param heapFetches the heap pages an {@code Index Only Scan} visited, else 0
     * @param children    the nodes under it
     */
    record Node(String type, String direction, String relation, String index, String condition, double rows,
                long heapFetches, List<Node> children) {

        /** This node and every node under it, depth first. */
        Stream<Node> all() {
            return Stream.concat(Stream.of(this), children.stream().flatMap(Node::all));
        }

        /** The rows its children returned: for a sort, the rows it sorted. */
        double input() {
            return children.stream().mapToDouble(Node::rows).sum();
        }

        boolean isSort() {
            return type.endsWith("Sort");   // Sort, Incremental Sort
        }

        boolean readsIndex() {
            return !index.isEmpty();
        }

        /** The first node of this subtree of type {@code type}. */
        Node first(String type) {
            return all().filter(n -> n.type.equals(type)).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + type + " node in\n" + render(this, 0)));
        }
    }

    private final Node root;

    private PostgresPlan(Node root) {
        this.root = root;
    }

    /** The plan in {@code json}, the one value {@code EXPLAIN (FORMAT JSON)} returns. */
    static PostgresPlan parse(String json) {
        try {
            return new PostgresPlan(node(JSON.readTree(json).get(0).get("Plan")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Node root() {
        return root;
    }

    /** Every node of the plan, depth first. */
    Stream<Node> nodes() {
        return root.all();
    }

    /** The total: the subtree under the first {@code Aggregate}. */
    Node count() {
        return root.first("Aggregate");
    }

    /** The page: the subtree under the first {@code Limit}. */
    Node page() {
        return root.first("Limit");
    }

    @Override
    public String toString() {
        return render(root, 0);
    }

    private static Node node(JsonNode n) {
        List<Node> children = new ArrayList<>();
        if (n.has("Plans")) n.get("Plans").forEach(c -> children.add(node(c)));
        return new Node(n.path("Node Type").asText(), n.path("Scan Direction").asText(), n.path("Relation Name").asText(),
                n.path("Index Name").asText(), n.path("Index Cond").asText(),
                n.path("Actual Rows").asDouble() * n.path("Actual Loops").asDouble(1), n.path("Heap Fetches").asLong(),
                List.copyOf(children));
    }

    private static String render(Node n, int depth) {
        StringBuilder s = new StringBuilder("  ".repeat(depth)).append(n.type);
        if ("Backward".equals(n.direction)) s.append(" Backward");
        if (!n.index.isEmpty()) s.append(" using ").append(n.index);
        if (!n.relation.isEmpty()) s.append(" on ").append(n.relation);
        s.append(" (rows=").append((long) n.rows);
        if (n.type.equals("Index Only Scan")) s.append(", heap fetches=").append(n.heapFetches);
        s.append(')');
        if (!n.condition.isEmpty()) s.append(" cond ").append(n.condition);
        s.append('\n');
        for (Node c : n.children) s.append(render(c, depth + 1));
        return s.toString();
    }
}
