package dev.baton.release;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/** Reading the project's poms as XML: the module list, a module's coordinates, what it publishes. */
final class Poms {
    private Poms() {
    }

    /** A pom file, parsed. */
    static Element read(Path pom) {
        try (InputStream in = Files.newInputStream(pom)) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(false);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = factory.newDocumentBuilder().parse(in);
            return doc.getDocumentElement();
        } catch (IOException | SAXException | ParserConfigurationException e) {
            throw new AssertionError("cannot read " + pom + ": " + e.getMessage(), e);
        }
    }

    /** The direct child element {@code name} of {@code parent}, or null. */
    static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) return e;
        }
        return null;
    }

    /** The trimmed text at {@code path} (child names separated by '/'), or null. */
    static String text(Element root, String path) {
        Element e = root;
        for (String name : path.split("/")) {
            e = child(e, name);
            if (e == null) return null;
        }
        String t = e.getTextContent().trim();
        return t.isEmpty() ? null : t;
    }

    /** The texts of every direct child {@code name} of the element at {@code path}. */
    static List<String> texts(Element root, String path, String name) {
        List<String> found = new ArrayList<>();
        Element e = root;
        for (String step : path.split("/")) {
            e = child(e, step);
            if (e == null) return found;
        }
        NodeList all = e.getChildNodes();
        for (int i = 0; i < all.getLength(); i++) {
            if (all.item(i) instanceof Element c && c.getTagName().equals(name)) found.add(c.getTextContent().trim());
        }
        return found;
    }

    /** The module folders the root pom lists, in order. */
    static List<String> modules(Path root) {
        return texts(read(root.resolve("pom.xml")), "modules", "module");
    }

    /** The module's own version, or its parent's. */
    static String version(Element pom) {
        String own = text(pom, "version");
        return own != null ? own : text(pom, "parent/version");
    }

    static String packaging(Element pom) {
        String p = text(pom, "packaging");
        return p == null ? "jar" : p;
    }

    /** A module is published unless its pom sets {@code maven.deploy.skip} (the deploy plugin then skips it). */
    static boolean published(Element pom) {
        return !"true".equals(text(pom, "properties/maven.deploy.skip"));
    }
}
