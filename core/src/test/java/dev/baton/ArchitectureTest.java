package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Small rooms, no upward arrows: the dependencies between core's packages, read from the compiled
 * classes (every type a class names in its constant pool: fields, signatures, calls), have no cycle,
 * and the storage SPI ({@code dev.baton.store}) knows nothing of the agent.
 */
class ArchitectureTest {
    private static final Pattern TYPE = Pattern.compile("dev/baton/([a-z0-9/]+)/[A-Z][A-Za-z0-9_$]*|dev/baton/[A-Z][A-Za-z0-9_$]*");
    /** Third-party code relocated into core (victools, core/pom.xml): not core's own packages. */
    private static final String SHADED = "dev/baton/internal/shaded/";

    /** package -> packages it uses, for every class under target/classes. */
    static Map<String, Set<String>> packageGraph() throws IOException {
        Path root = Path.of("target/classes");
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class") && !p.endsWith("module-info.class")).toList()) {
                String rel = root.relativize(f).toString().replace('\\', '/');
                if (rel.startsWith(SHADED)) continue;
                String from = packageOf(rel.substring(0, rel.lastIndexOf('/') + 1) + "X");
                Set<String> uses = graph.computeIfAbsent(from, k -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(f)) {
                    for (String s : utf8Constants(in)) {
                        Matcher m = TYPE.matcher(s);
                        while (m.find()) {
                            String to = packageOf(m.group());
                            if (!to.equals(from)) uses.add(to);
                        }
                    }
                }
            }
        }
        return graph;
    }

    private static String packageOf(String internalName) {
        return internalName.substring(0, internalName.lastIndexOf('/')).replace('/', '.');
    }

    /** Every CONSTANT_Utf8 of a class file: class names, descriptors and generic signatures are among them. */
    static List<String> utf8Constants(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        List<String> out = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> out.add(in.readUTF());
                case 3, 4 -> in.readInt();
                case 5, 6 -> { in.readLong(); i++; }
                case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
                case 9, 10, 11, 12, 17, 18 -> { in.readUnsignedShort(); in.readUnsignedShort(); }
                case 15 -> { in.readUnsignedByte(); in.readUnsignedShort(); }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return out;
    }

    @Test
    void theStorageSpiImportsNothingFromTheAgentPackage() throws IOException {
        Map<String, Set<String>> graph = packageGraph();
        assertThat(graph).containsKey("dev.baton.store");
        assertThat(graph.get("dev.baton.store")).doesNotContain("dev.baton.agent", "dev.baton.memory", "dev.baton.internal");
    }

    @Test
    void corePackagesHaveNoCycle() throws IOException {
        Map<String, Set<String>> graph = packageGraph();
        List<String> cycles = new ArrayList<>();
        for (String start : graph.keySet()) findCycle(graph, start, start, new ArrayList<>(List.of(start)), cycles);
        assertThat(cycles).as("package cycles in %s", graph).isEmpty();
        assertThat(graph.keySet()).contains("dev.baton", "dev.baton.agent", "dev.baton.internal", "dev.baton.memory",
                "dev.baton.model", "dev.baton.store", "dev.baton.tool");
    }

    private static void findCycle(Map<String, Set<String>> g, String start, String at, List<String> path, List<String> out) {
        for (String next : g.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                out.add(String.join(" -> ", path) + " -> " + start);
            } else if (!path.contains(next) && next.compareTo(start) > 0) {
                path.add(next);
                findCycle(g, start, next, path, out);
                path.remove(path.size() - 1);
            }
        }
    }

    @Test
    void theParserSeesARealDependency() throws IOException {
        assertThat(packageGraph().get("dev.baton.agent")).contains("dev.baton.store", "dev.baton.internal", "dev.baton.model");
    }
}
