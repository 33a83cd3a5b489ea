package dev.baton.examples;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.BatonException;
import dev.baton.StoreProviderException;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.PrintStream;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The approval inbox: a command-line program over an agent whose runs wait for people.
 *
 * <pre>
 * java -jar examples/target/baton-examples.jar demo          # the whole story, two JVMs
 * java -jar examples/target/baton-examples.jar start         # start sample runs, then exit
 * java -jar examples/target/baton-examples.jar list --resource alice
 * java -jar examples/target/baton-examples.jar approve RUN CALL
 * java -jar examples/target/baton-examples.jar serve --port 8080   # the web inbox and the HTTP API
 * OPENAI_API_KEY=... java -jar examples/target/baton-examples.jar start --model openai:gpt-4o-mini "Book a flight to Lisbon"
 * </pre>
 *
 * Every invocation is a new JVM: it rebuilds the agents and finds the runs in the store
 * ({@code --store URL}, default a SQLite file under {@code ./data/}). Exit codes: 0 done,
 * 1 the operation failed (e.g. no such run), 2 bad arguments (one line saying what is wrong and a
 * one-line hint to {@code --help} on stderr).
 *
 * <p>The command line is parsed by picocli: the commands are the classes in {@link InboxCommands},
 * each with its own {@code @Option}s; the options every command takes are on
 * {@link InboxCommands.Root} (inherited by every command, so they go before or after the command
 * name). The usage text is generated from those annotations, so a new option appears in it by
 * itself.
 */
public final class InboxApp {

    /**
     * Where {@code start}, {@code list}, ... keep runs unless {@code --store} or BATON_STORE_URL says
     * otherwise. SQLite, because several processes may open the file at once (WAL and a busy
     * timeout, set by the JDBC store); H2's AUTO_SERVER mode fails when two processes start together.
     */
    public static final String DEFAULT_STORE = "jdbc:sqlite:./data/baton.db";
    /** The demo's own database, so playing it never touches runs you started by hand. */
    public static final String DEMO_STORE = "jdbc:sqlite:./data/demo.db";

    private InboxApp() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /** Runs one command; returns the exit code. Never throws for bad input. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, System::getenv);
    }

    /** {@link #run(String[], PrintStream, PrintStream)} with {@code env} for the API keys of {@code --model}. */
    static int run(String[] args, PrintStream out, PrintStream err, java.util.function.UnaryOperator<String> env) {
        CommandLine line = InboxCommands.commandLine(out, env);
        try {
            ParseResult parsed = line.parseArgs(args);
            ParseResult leaf = parsed;
            while (leaf.subcommand() != null) leaf = leaf.subcommand();
            if (parsed.isUsageHelpRequested() || leaf.isUsageHelpRequested()) {
                out.println(usage(line));
                return 0;
            }
            Callable<?> command = (Callable<?>) leaf.commandSpec().userObject();
            return (Integer) command.call();
        } catch (ParameterException e) {
            return usageError(err, line, message(e, args), false);
        } catch (UsageException e) {
            return usageError(err, line, e.getMessage(), e.showsUsage());
        } catch (IllegalArgumentException e) {
            // core's InvalidOptionException (perPage, page, fromDate > toDate)
            return usageError(err, line, e.getMessage(), false);
        } catch (StoreProviderException e) {
            return usageError(err, line, "--store: " + e.getMessage(), false);
        } catch (BatonException e) {
            err.println("error: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("error: interrupted");
            return 1;
        } catch (Exception e) {
            err.println("error: " + e);
            return 1;
        }
    }

    /**
     * Prints a command-line mistake: the error on one line, then a one-line hint naming
     * {@code --help} (the whole usage only when no command was given, where it is the answer), and
     * returns 2. The usage is 25 lines; printed after every mistake it buried the one that mattered.
     */
    private static int usageError(PrintStream err, CommandLine line, String message, boolean withUsage) {
        err.println("error: " + message);
        err.println(withUsage ? usage(line) : hint(line));
        return 2;
    }

    /** The line after an error: where the usage is. */
    static String hint(CommandLine line) {
        return "(" + line.getCommandSpec().name() + " --help prints the usage)";
    }

    /** picocli's parse errors, said the way this program always said them. */
    static String message(ParameterException e, String[] args) {
        if (e.getCause() instanceof TypeConversionException conversion && e.getArgSpec() instanceof OptionSpec o) {
            return o.longestName() + " " + conversion.getMessage();
        }
        if (e instanceof MissingParameterException missing) {
            ArgSpec spec = e.getArgSpec() != null ? e.getArgSpec()
                    : missing.getMissing() == null || missing.getMissing().isEmpty() ? null : missing.getMissing().get(0);
            if (spec instanceof OptionSpec o) return o.longestName() + " needs a value";
        }
        if (e instanceof OverwrittenOptionException && e.getArgSpec() instanceof OptionSpec o) {
            return o.longestName() + " is given twice";
        }
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            CommandSpec where = u.getCommandLine().getCommandSpec();
            boolean topLevel = where.parent() == null;
            if (first.startsWith("--")) {
                String name = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
                boolean last = args.length > 0 && args[args.length - 1].equals(first);
                if (last && !first.contains("=")) return name + " needs a value";
                return topLevel ? "unknown option " + name : "'" + where.name() + "' has no option " + name;
            }
            if (first.startsWith("-") && first.length() > 1) return "unknown option '" + first + "' (options are spelled --name value)";
            if (topLevel) return "unknown command '" + first + "'";
            return "'" + where.name() + "' does not take '" + first + "'";
        }
        return e.getMessage();
    }

    /** The usage, generated from the commands' annotations. */
    static String usage(CommandLine line) {
        CommandSpec root = line.getCommandSpec();
        StringBuilder b = new StringBuilder("usage: ").append(root.name());
        for (OptionSpec o : globalOptions(root)) b.append(" [").append(o.longestName()).append(' ').append(o.paramLabel()).append(']');
        b.append(" COMMAND [ARGS]");
        String nl = System.lineSeparator();
        for (CommandLine sub : line.getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            if (spec.usageMessage().hidden()) continue;
            StringBuilder synopsis = new StringBuilder(spec.name());
            for (OptionSpec o : spec.options()) {
                if (o.inherited() || o.usageHelp() || o.hidden()) continue;
                if (o.arity().max() == 0) synopsis.append(" [").append(o.longestName()).append(']');   // a flag
                else synopsis.append(" [").append(o.longestName()).append(' ').append(o.paramLabel()).append(']');
            }
            for (PositionalParamSpec p : spec.positionalParameters()) {
                if (!p.hidden()) synopsis.append(' ').append(p.paramLabel());
            }
            String[] description = spec.usageMessage().description();
            String first = description.length == 0 ? "" : description[0];
            if (synopsis.length() <= 37) {
                b.append(nl).append("  ").append(String.format("%-38s", synopsis)).append(' ').append(first);
            } else {
                b.append(nl).append("  ").append(synopsis).append(nl).append(" ".repeat(41)).append(first);
            }
            for (int i = 1; i < description.length; i++) b.append(nl).append(" ".repeat(41)).append(description[i]);
        }
        b.append(nl).append("approve, decline, resume, continue, cancel and discard also take:").append(nl).append(InboxRunCommands.USAGE);
        b.append(nl).append("start, approve, decline, resume and continue also take:").append(nl).append(ModelChoice.USAGE);
        for (OptionSpec o : globalOptions(root)) {
            String[] description = o.description();
            b.append(nl).append("  ").append(String.format("%-13s", o.longestName() + " " + o.paramLabel()))
                    .append(' ').append(description.length == 0 ? "" : description[0]);
            for (int i = 1; i < description.length; i++) b.append(nl).append(" ".repeat(16)).append(description[i]);
        }
        return b.toString();
    }

    private static List<OptionSpec> globalOptions(CommandSpec root) {
        return root.options().stream().filter(o -> !o.usageHelp() && !o.hidden()).toList();
    }

    /** Opens the store; a URL no provider accepts is a usage error (see {@link #run}). */
    static SnapshotStore openStore(String url) {
        createSqliteFolder(url);
        return SnapshotStores.open(url);
    }

    /** SQLite creates its file but not the folder it is in; {@code ./data/} may not exist on a fresh clone. */
    private static void createSqliteFolder(String url) {
        if (!url.startsWith("jdbc:sqlite:")) return;
        String path = url.substring("jdbc:sqlite:".length());
        int query = path.indexOf('?');
        if (query >= 0) path = path.substring(0, query);
        if (path.startsWith("file:")) path = path.substring("file:".length());
        if (path.isEmpty() || path.startsWith(":memory:")) return;
        java.io.File parent = new java.io.File(path).getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            throw new UsageException("--store: cannot create the folder " + parent + " for " + url);
        }
    }

    /** The store of commands other than {@code demo}: {@code --store}, else BATON_STORE_URL, else {@link #DEFAULT_STORE}. */
    static String defaultStore() {
        String configured = SnapshotStores.defaultUrl();
        return configured.equals("memory:") && System.getProperty(SnapshotStores.URL_PROPERTY) == null
                && System.getenv(SnapshotStores.URL_ENV) == null ? DEFAULT_STORE : configured;
    }

    /** {@code yyyy-MM-dd} is the start of that day (UTC); an ISO instant or local date-time is taken as is. */
    static Instant fromDate(String text) {
        return date("from", text, false);
    }

    /** {@code yyyy-MM-dd} is the end of that day (UTC, inclusive); an ISO instant or local date-time is taken as is. */
    static Instant toDate(String text) {
        return date("to", text, true);
    }

    private static Instant date(String option, String text, boolean endOfDay) {
        String t = text.trim();
        try {
            if (t.length() == 10) {
                LocalDate day = LocalDate.parse(t);
                return endOfDay ? day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusMillis(1)
                        : day.atStartOfDay().toInstant(ZoneOffset.UTC);
            }
            if (t.endsWith("Z") || t.matches(".*[+-]\\d\\d:\\d\\d$")) return java.time.OffsetDateTime.parse(t).toInstant();
            return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new UsageException("--" + option + ": expected yyyy-MM-dd or an ISO date-time, was '" + text + "'");
        }
    }

    static JsonNode json(String text) {
        return json("JSON", text);
    }

    /** {@code text} as JSON; a usage error naming {@code what} (the argument or option) if it is not. */
    static JsonNode json(String what, String text) {
        try {
            JsonNode node = new ObjectMapper().readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new UsageException(what + ": " + (what.equals("JSON") ? "resume data" : "the JSON") + " is empty");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new UsageException(what + ": not valid JSON: " + e.getOriginalMessage() + " in '" + text + "'");
        }
    }
}
