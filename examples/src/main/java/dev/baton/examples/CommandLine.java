package dev.baton.examples;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A parsed command line: the command, its positional arguments, and {@code --name value} options
 * (also {@code --name=value}), anywhere on the line. Every option takes a value; an unknown
 * option, a missing value or a repeated option is a {@link UsageException}.
 */
final class CommandLine {
    /** Options every command accepts. */
    static final Set<String> GLOBAL = Set.of("store", "agent");

    private final String command;
    private final List<String> positional;
    private final Map<String, String> options;

    private CommandLine(String command, List<String> positional, Map<String, String> options) {
        this.command = command;
        this.positional = positional;
        this.options = options;
    }

    /**
     * Parses {@code args}; {@code allowed} maps each command to the options it takes (besides
     * {@link #GLOBAL}).
     */
    static CommandLine parse(String[] args, Map<String, Set<String>> allowed) {
        List<String> positional = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        boolean onlyPositional = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!onlyPositional && a.equals("--")) {
                onlyPositional = true;
            } else if (!onlyPositional && a.startsWith("--") && a.length() > 2) {
                String name = a.substring(2);
                String value;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                } else {
                    if (i + 1 >= args.length) throw new UsageException("--" + name + " needs a value");
                    value = args[++i];
                }
                if (options.put(name, value) != null) throw new UsageException("--" + name + " is given twice");
            } else if (!onlyPositional && a.startsWith("-") && a.length() > 1 && !isNumber(a)) {
                throw new UsageException("unknown option '" + a + "' (options are spelled --name value)");
            } else {
                positional.add(a);
            }
        }
        if (positional.isEmpty()) throw new UsageException("no command given");
        String command = positional.remove(0);
        Set<String> own = allowed.get(command);
        if (own == null) throw new UsageException("unknown command '" + command + "'");
        for (String name : options.keySet()) {
            if (!GLOBAL.contains(name) && !own.contains(name)) {
                throw new UsageException("'" + command + "' has no option --" + name);
            }
        }
        return new CommandLine(command, List.copyOf(positional), options);
    }

    private static boolean isNumber(String s) {
        return s.matches("-\\d+");
    }

    String command() { return command; }

    List<String> positional() { return positional; }

    @Nullable String option(String name) { return options.get(name); }

    String option(String name, String fallback) { return options.getOrDefault(name, fallback); }

    /** Exactly {@code n} positional arguments, else a usage error naming {@code what}. */
    List<String> exactly(int n, String what) {
        if (positional.size() != n) {
            throw new UsageException("'" + command + "' takes " + what + " (got " + positional.size()
                    + " argument" + (positional.size() == 1 ? "" : "s") + ")");
        }
        return positional;
    }

    /** An optional integer option; its range is checked by whoever uses it (core, for paging). */
    @Nullable Integer intOption(String name) {
        String v = options.get(name);
        if (v == null) return null;
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be an integer, was '" + v + "'");
        }
    }
}
