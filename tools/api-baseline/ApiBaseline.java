import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Baton's API baseline: one line per public or protected type and member of a module, read from its
 * compiled classes (no class is loaded), so a change of the public API shows up as a diff of a
 * committed text file.
 *
 * <pre>
 * java tools/api-baseline/ApiBaseline.java check  core/target/classes core/api/baton-core.api
 * java tools/api-baseline/ApiBaseline.java update core/target/classes core/api/baton-core.api
 * </pre>
 * {@code check} fails (exit 1) listing every member added ({@code +}) or removed ({@code -}) since
 * the baseline was generated; {@code update} writes it. Packages named {@code *.internal*} are not
 * API and are left out. The build runs it in {@code process-classes} (see the parent POM,
 * execution {@code api-baseline}); {@code -Dbaton.api=update} regenerates.
 *
 * <p>A single-file program for the Java launcher (JEP 330): it needs nothing but the JDK.
 */
public final class ApiBaseline {
    private static final int PUBLIC = 0x0001, PRIVATE = 0x0002, PROTECTED = 0x0004, STATIC = 0x0008, FINAL = 0x0010,
            SYNCHRONIZED_OR_SUPER = 0x0020, VOLATILE_OR_BRIDGE = 0x0040, VARARGS = 0x0080, INTERFACE = 0x0200,
            ABSTRACT = 0x0400, SYNTHETIC = 0x1000, ANNOTATION = 0x2000, ENUM = 0x4000;

    public static void main(String[] args) throws IOException {
        if (args.length != 3 || !(args[0].equals("check") || args[0].equals("update"))) {
            System.err.println("usage: java ApiBaseline.java check|update <classes dir> <baseline file>");
            System.exit(2);
        }
        Path classes = Path.of(args[1]);
        Path baseline = Path.of(args[2]);
        List<String> current = describe(classes);
        if (args[0].equals("update")) {
            Files.createDirectories(baseline.toAbsolutePath().getParent());
            Files.write(baseline, current, StandardCharsets.UTF_8);
            System.out.println("API baseline written: " + baseline + " (" + current.size() + " lines)");
            return;
        }
        List<String> committed = Files.exists(baseline) ? Files.readAllLines(baseline, StandardCharsets.UTF_8) : List.of();
        if (committed.equals(current)) {
            // quiet when it matches: a build's output (and ./mvnw -q, the README's main job) shows only what differs
            return;
        }
        Set<String> before = qualified(committed);
        Set<String> after = qualified(current);
        StringBuilder out = new StringBuilder();
        out.append("The public API differs from its baseline ").append(baseline).append(":\n");
        for (String line : after) if (!before.contains(line)) out.append("  + ").append(line).append('\n');
        for (String line : before) if (!after.contains(line)) out.append("  - ").append(line).append('\n');
        out.append("If the change is intended (and recorded in CHANGELOG.md), regenerate the baseline and commit it:\n")
                .append("  ./mvnw -B -pl <module> process-classes -Dbaton.api=update\n");
        System.err.print(out);
        System.exit(1);
    }

    /** Each line with its type in front (a member line is only unique together with its type). */
    static Set<String> qualified(List<String> lines) {
        Set<String> out = new LinkedHashSet<>();
        String type = "";
        for (String line : lines) {
            if (!line.startsWith(" ")) {
                type = line;
                out.add(line);
            } else {
                out.add(type.replaceAll("  /\\*.*", "") + " ::" + line);
            }
        }
        return out;
    }

    /** The baseline lines of every API class under {@code root}, sorted. */
    static List<String> describe(Path root) throws IOException {
        Map<String, ClassInfo> all = new HashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                if (f.getFileName().toString().equals("module-info.class") || f.getFileName().toString().equals("package-info.class")) {
                    continue;
                }
                try (InputStream in = Files.newInputStream(f)) {
                    ClassInfo c = ClassInfo.read(in);
                    all.put(c.name, c);
                }
            }
        }
        Map<String, List<String>> byType = new TreeMap<>(Comparator.comparing(ApiBaseline::dotted));
        for (ClassInfo c : all.values()) {
            if (!isApi(c, all)) continue;
            List<String> members = new ArrayList<>();
            for (Member m : c.fields) if (visible(m.access) && (m.access & SYNTHETIC) == 0) members.add("  " + m.renderField());
            for (Member m : c.methods) {
                if (!visible(m.access) || (m.access & (SYNTHETIC | VOLATILE_OR_BRIDGE)) != 0 || m.name.equals("<clinit>")) continue;
                members.add("  " + m.renderMethod(c));
            }
            inheritHidden(c, all, members);
            members.sort(null);
            List<String> lines = new ArrayList<>();
            lines.add(c.renderHeader());
            lines.addAll(members);
            byType.put(c.name, lines);
        }
        List<String> out = new ArrayList<>();
        for (List<String> lines : byType.values()) out.addAll(lines);
        return out;
    }

    /**
     * A public class whose superclass is a non-public class of the module (one half of a split
     * file) has that class's public and protected members as its own API: they are listed under it,
     * and the header names the nearest superclass that is not hidden.
     */
    private static void inheritHidden(ClassInfo c, Map<String, ClassInfo> all, List<String> members) {
        ClassInfo hidden;
        while (c.superName != null && (hidden = all.get(c.superName)) != null && !isApi(hidden, all)) {
            for (Member m : hidden.fields) {
                String line = "  " + m.renderField();
                if (visible(m.access) && (m.access & SYNTHETIC) == 0 && !members.contains(line)) members.add(line);
            }
            for (Member m : hidden.methods) {
                if (!visible(m.access) || (m.access & (SYNTHETIC | VOLATILE_OR_BRIDGE)) != 0 || m.name.startsWith("<")) continue;
                String line = "  " + m.renderMethod(c);
                if (!members.contains(line)) members.add(line);
            }
            c.superName = hidden.superName;
        }
    }

    private static boolean visible(int access) {
        return (access & (PUBLIC | PROTECTED)) != 0;
    }

    private static boolean isApi(ClassInfo c, Map<String, ClassInfo> all) {
        String pkg = c.name.contains("/") ? c.name.substring(0, c.name.lastIndexOf('/')) : "";
        if (("/" + pkg + "/").contains("/internal/")) return false;
        // the TCK's API is its contracts and hooks; its rule-group and support packages are not
        // (docs/certification.md, "Compatibility")
        if (pkg.startsWith("dev/baton/tck/")) return false;
        if ((c.access & SYNTHETIC) != 0) return false;
        if (c.outer == null) return (c.access & PUBLIC) != 0;
        if (!visible(c.innerAccess)) return false;
        ClassInfo outer = all.get(c.outer);
        return outer != null && isApi(outer, all);
    }

    static String dotted(String internalName) {
        return internalName.replace('/', '.');
    }

    /** A field or method as read from the class file. */
    record Member(int access, String name, String descriptor, String signature, List<String> exceptions) {
        String renderField() {
            return modifiers(access & ~(VOLATILE_OR_BRIDGE | VARARGS)) + typeOf(descriptor, new int[] {0}) + " " + name
                    + (signature == null ? "" : "  /* " + signature + " */");
        }

        String renderMethod(ClassInfo owner) {
            int[] at = {1};
            List<String> params = new ArrayList<>();
            while (descriptor.charAt(at[0]) != ')') params.add(typeOf(descriptor, at));
            at[0]++;
            String ret = typeOf(descriptor, at);
            int mods = access & ~(SYNCHRONIZED_OR_SUPER | VARARGS);
            if ((owner.access & INTERFACE) != 0) mods &= ~ABSTRACT;   // implied
            String head = name.equals("<init>") ? dotted(owner.name) : ret + " " + name;
            return modifiers(mods) + head + "(" + String.join(", ", params) + ")"
                    + (exceptions.isEmpty() ? "" : " throws " + String.join(", ", exceptions.stream().map(ApiBaseline::dotted).toList()))
                    + (signature == null ? "" : "  /* " + signature + " */");
        }
    }

    static String modifiers(int a) {
        StringBuilder b = new StringBuilder();
        if ((a & PUBLIC) != 0) b.append("public ");
        if ((a & PROTECTED) != 0) b.append("protected ");
        if ((a & STATIC) != 0) b.append("static ");
        if ((a & FINAL) != 0) b.append("final ");
        if ((a & ABSTRACT) != 0) b.append("abstract ");
        return b.toString();
    }

    static String typeOf(String d, int[] at) {
        char c = d.charAt(at[0]++);
        switch (c) {
            case 'B': return "byte";
            case 'C': return "char";
            case 'D': return "double";
            case 'F': return "float";
            case 'I': return "int";
            case 'J': return "long";
            case 'S': return "short";
            case 'Z': return "boolean";
            case 'V': return "void";
            case '[': return typeOf(d, at) + "[]";
            case 'L': {
                int end = d.indexOf(';', at[0]);
                String n = d.substring(at[0], end);
                at[0] = end + 1;
                return dotted(n);
            }
            default: throw new IllegalArgumentException("bad descriptor " + d);
        }
    }

    /** What the baseline needs of one class file. */
    static final class ClassInfo {
        int access;
        int innerAccess;
        String name;
        String outer;
        String superName;
        List<String> interfaces = new ArrayList<>();
        String signature;
        List<Member> fields = new ArrayList<>();
        List<Member> methods = new ArrayList<>();

        String renderHeader() {
            String kind = (access & ANNOTATION) != 0 ? "@interface" : (access & INTERFACE) != 0 ? "interface"
                    : (access & ENUM) != 0 ? "enum" : "java/lang/Record".equals(superName) ? "record" : "class";
            int a = outer == null ? access : innerAccess;
            int mods = a & (PUBLIC | PROTECTED | STATIC | FINAL | ABSTRACT);
            if ((access & INTERFACE) != 0) mods &= ~(ABSTRACT | STATIC);
            if (kind.equals("enum") || kind.equals("record")) mods &= ~(FINAL | STATIC);
            StringBuilder b = new StringBuilder(modifiers(mods)).append(kind).append(' ').append(dotted(name));
            boolean plainSuper = superName == null || superName.equals("java/lang/Object") || superName.equals("java/lang/Record")
                    || superName.equals("java/lang/Enum");
            if (!plainSuper) b.append(" extends ").append(dotted(superName));
            if (!interfaces.isEmpty()) {
                b.append((access & INTERFACE) != 0 ? " extends " : " implements ")
                        .append(String.join(", ", interfaces.stream().map(ApiBaseline::dotted).toList()));
            }
            if (signature != null && !kind.equals("enum")) b.append("  /* ").append(signature).append(" */");
            return b.toString();
        }

        static ClassInfo read(InputStream raw) throws IOException {
            DataInputStream in = new DataInputStream(raw);
            if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            Object[] pool = new Object[count];
            int[] classIndex = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> pool[i] = in.readUTF();
                    case 3, 4 -> in.readInt();
                    case 5, 6 -> { in.readLong(); i++; }
                    case 7 -> classIndex[i] = in.readUnsignedShort();
                    case 8, 16, 19, 20 -> in.readUnsignedShort();
                    case 9, 10, 11, 12, 17, 18 -> { in.readUnsignedShort(); in.readUnsignedShort(); }
                    case 15 -> { in.readUnsignedByte(); in.readUnsignedShort(); }
                    default -> throw new IOException("unknown constant pool tag " + tag);
                }
            }
            ClassInfo c = new ClassInfo();
            c.access = in.readUnsignedShort();
            c.name = (String) pool[classIndex[in.readUnsignedShort()]];
            int sup = in.readUnsignedShort();
            c.superName = sup == 0 ? null : (String) pool[classIndex[sup]];
            int ifaces = in.readUnsignedShort();
            for (int i = 0; i < ifaces; i++) c.interfaces.add((String) pool[classIndex[in.readUnsignedShort()]]);
            for (int pass = 0; pass < 2; pass++) {
                int n = in.readUnsignedShort();
                for (int i = 0; i < n; i++) {
                    int access = in.readUnsignedShort();
                    String name = (String) pool[in.readUnsignedShort()];
                    String desc = (String) pool[in.readUnsignedShort()];
                    String signature = null;
                    List<String> exceptions = new ArrayList<>();
                    int attrs = in.readUnsignedShort();
                    for (int a = 0; a < attrs; a++) {
                        String an = (String) pool[in.readUnsignedShort()];
                        int len = in.readInt();
                        if (an.equals("Signature")) {
                            signature = (String) pool[in.readUnsignedShort()];
                        } else if (an.equals("Exceptions")) {
                            int k = in.readUnsignedShort();
                            for (int e = 0; e < k; e++) exceptions.add((String) pool[classIndex[in.readUnsignedShort()]]);
                        } else {
                            in.skipNBytes(len);
                        }
                    }
                    exceptions.sort(null);
                    (pass == 0 ? c.fields : c.methods).add(new Member(access, name, desc, signature, exceptions));
                }
            }
            int attrs = in.readUnsignedShort();
            for (int a = 0; a < attrs; a++) {
                String an = (String) pool[in.readUnsignedShort()];
                int len = in.readInt();
                if (an.equals("Signature")) {
                    c.signature = (String) pool[in.readUnsignedShort()];
                } else if (an.equals("InnerClasses")) {
                    int k = in.readUnsignedShort();
                    for (int e = 0; e < k; e++) {
                        int inner = in.readUnsignedShort();
                        int outer = in.readUnsignedShort();
                        in.readUnsignedShort();
                        int flags = in.readUnsignedShort();
                        if (inner != 0 && c.name.equals(pool[classIndex[inner]])) {
                            c.innerAccess = flags;
                            c.outer = outer == 0 ? "?local" : (String) pool[classIndex[outer]];
                        }
                    }
                } else {
                    in.skipNBytes(len);
                }
            }
            return c;
        }
    }
}
