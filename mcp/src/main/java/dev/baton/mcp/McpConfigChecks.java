package dev.baton.mcp;

import dev.baton.InvalidOptionException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/** The checks of an {@link McpServerConfig}: each refuses a bad value with the option's name and the server's. */
final class McpConfigChecks {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_\\-]{1,64}");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.\\-]{0,64}");

    private McpConfigChecks() {
    }

    static String name(String name) {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new InvalidOptionException("name", "MCP server names use letters, digits, '_', '-' (1-64), got '" + name + "'");
        }
        return name;
    }

    static List<String> commandLine(String name, List<String> commandLine) {
        Objects.requireNonNull(commandLine, "commandLine");
        if (commandLine.isEmpty() || commandLine.get(0).isBlank()) {
            throw new InvalidOptionException("commandLine", "the server '" + name + "' needs a program to start, got " + commandLine);
        }
        return List.copyOf(commandLine);
    }

    static URI url(String name, String url) {
        Objects.requireNonNull(url, "url");
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            InvalidOptionException refused = new InvalidOptionException("url", "not a URL: '" + url + "' (server '" + name + "')");
            refused.initCause(e);
            throw refused;
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new InvalidOptionException("url", "the server '" + name + "' needs an http:// or https:// URL with a host, got '" + url + "'");
        }
        return uri;
    }

    static String toolPrefix(String name, String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        if (!PREFIX.matcher(prefix).matches()) {
            throw new InvalidOptionException("toolPrefix", "letters, digits, '_', '.', '-' (up to 64), got '" + prefix + "' (server '" + name + "')");
        }
        return prefix;
    }

    static String mcpToolName(String name, String mcpToolName) {
        Objects.requireNonNull(mcpToolName, "mcpToolName");
        if (mcpToolName.isBlank()) throw new InvalidOptionException("mcpToolName", "empty (server '" + name + "')");
        return mcpToolName;
    }

    static Duration positive(String name, String option, Duration d) {
        Objects.requireNonNull(d, option);
        if (d.isNegative() || d.isZero()) throw new InvalidOptionException(option, "must be positive, was " + d + " (server '" + name + "')");
        return d;
    }

    static Duration notNegative(String name, String option, Duration d) {
        Objects.requireNonNull(d, option);
        if (d.isNegative()) throw new InvalidOptionException(option, "must not be negative, was " + d + " (server '" + name + "')");
        return d;
    }

    /** A long argument (a class path) cut in the middle, so that messages stay readable. */
    static String shorten(String arg) {
        return arg.length() <= 80 ? arg : arg.substring(0, 30) + "..." + arg.substring(arg.length() - 40);
    }
}
