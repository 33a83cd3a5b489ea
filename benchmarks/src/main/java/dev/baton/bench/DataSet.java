package dev.baton.bench;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The seeded runs, a pure function of the run index: every backend gets exactly the same
 * {@code n} suspended runs, so their numbers compare.
 *
 * <ul>
 *   <li>100 agents ({@code agent-000} .. {@code agent-099}), run {@code i} belongs to agent {@code i % 100};</li>
 *   <li>1,000 threads: each agent owns 10 ({@code thread-0000} .. {@code thread-0999}, thread {@code t}
 *       belongs to agent {@code t % 100}); a run picks one of its agent's threads at random;</li>
 *   <li>10,000 resources: each agent owns 100 ({@code user-00000} .. {@code user-09999}, same rule);</li>
 *   <li>creation times uniform over the 30 days from {@link #START}; suspended up to 2 minutes later;</li>
 *   <li>the payload is what core writes for a run waiting for the approval of {@code bookFlight},
 *       with the user's prompt padded with words to {@code size} characters in total;</li>
 *   <li>one run in four carries decider labels (the "waiting for me" filter, {@link RunSnapshot#deciders()}),
 *       as core computes them for {@code bookFlight} under one approver rule and a requester ({@link #deciders(int)});
 *       the other runs have none, as runs stored before the labels existed.</li>
 * </ul>
 * So at 1,000,000 runs an agent has 10,000 runs, a thread about 1,000 and a resource about 100.
 */
public final class DataSet {
    /** Bump when the generated rows change: seeded databases with another version are re-seeded. */
    public static final int VERSION = 3;   // 2: every run has the listing summary core writes beside the payload; 3: decider labels on a quarter of the runs
    public static final int AGENTS = 100;
    public static final int THREADS = 1_000;
    public static final int RESOURCES = 10_000;
    public static final Instant START = Instant.parse("2026-10-01T00:00:00Z");
    public static final Duration SPAN = Duration.ofDays(30);
    public static final String TOOL = "bookFlight";
    public static final String PROMPT = "Book me a flight to SFO. ";

    /** The principal of the "waiting for me" listing: two roles, and the requester of some labelled runs. */
    public static final String ASKING_NAME = "alice";
    public static final String[] ASKING_ROLES = {"finance", "ops"};
    /** Who started the labelled runs (the rule excludes the requester: separation of duties). */
    static final String[] REQUESTERS = {"alice", "bob", "carol", "dave"};
    /**
     * The approver roles of the rule a labelled run's call falls under, by kind: finance (4 in 10), ops (2 in 10),
     * finance or ops (1 in 10), legal (1 in 10, a role the principal lacks), no role (2 in 10: any named
     * principal but the requester, label {@code *}).
     */
    static final String[][] KINDS = {{"finance"}, {"finance"}, {"finance"}, {"finance"}, {"ops"}, {"ops"},
        {"finance", "ops"}, {"legal"}, {}, {}};

    private static final String[] WORDS = words();
    /** The labels core computes, per kind and requester: {@code LABELS[kind][requester]}. */
    private static final java.util.List<java.util.List<java.util.Set<String>>> LABELS = labels();
    /** Stands for the padding in the encoded template; plain ASCII, so JSON leaves it as it is. */
    private static final String MARK = "@@padding@@";

    public final int n;
    public final int size;
    private final RunState template;
    /** The summary core stores beside the payload: the waiting approval; the same for every run (it names no run). */
    private final String summary;

    public DataSet(int n, int size) {
        this.n = n;
        this.size = size;
        this.template = template();
        this.summary = SnapshotCodec.encodeAll(template).summary();
    }

    /** A short name for namespaces: {@code 10k_2k}, {@code 1m_2k}, {@code 10k_14k}. */
    public String tag() {
        return tag(n, size);
    }

    public static String tag(int n, int size) {
        return human(n) + "_" + (size % 1024 == 0 ? (size / 1024) + "k" : size + "b");
    }

    static String human(int n) {
        if (n % 1_000_000 == 0) return (n / 1_000_000) + "m";
        if (n % 1_000 == 0) return (n / 1_000) + "k";
        return Integer.toString(n);
    }

    public static String agentId(int agent) {
        return String.format("agent-%03d", agent);
    }

    public static String threadId(int thread) {
        return String.format("thread-%04d", thread);
    }

    public static String resourceId(int resource) {
        return String.format("user-%05d", resource);
    }

    /** The tool every seeded run waits on; it needs approval, and returns a booking. */
    public static Tool bookFlight() {
        return Tool.builder(TOOL)
                .description("Books a flight")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}")
                .requireApproval(true)
                .execute((input, ctx) -> Map.of("booked", input.path("to").asText()))
                .build();
    }

    /** The model of every benchmark agent: asks for {@code bookFlight} on "flight", then answers. */
    public static LanguageModel model() {
        return DeterministicModel.builder().whenUserSays("flight", TOOL, Map.of("to", "SFO")).build();
    }

    /** An agent as the benchmarks use it: the deterministic model, {@code bookFlight}, the given store. */
    public static Agent agent(String id, SnapshotStore store) {
        return Agent.builder(id).instructions("You book flights.").model(model()).tools(bookFlight()).store(store).build();
    }

    /** Run {@code i}, as a store holds it right after core stored its suspension. */
    public RunSnapshot run(int i) {
        SplittableRandom r = random(i);
        int agent = i % AGENTS;
        int thread = agent + AGENTS * r.nextInt(THREADS / AGENTS);
        int resource = agent + AGENTS * r.nextInt(RESOURCES / AGENTS);
        long created = START.toEpochMilli() + r.nextLong(SPAN.toMillis());
        long suspended = created + 1 + r.nextLong(120_000);
        String runId = runId(r);
        String agentId = agentId(agent);
        String threadId = threadId(thread);
        String resourceId = resourceId(resource);
        Instant createdAt = Instant.ofEpochMilli(created);
        return RunSnapshot.builder()
                .runId(runId).agentId(agentId).status(RunStatus.SUSPENDED)
                .threadId(threadId).resourceId(resourceId)
                .createdAt(createdAt).suspendedAt(Instant.ofEpochMilli(suspended))
                .payload(payload(runId, agentId, threadId, resourceId, createdAt, r))
                .summary(summary)
                .deciders(deciders(i))
                .build();
    }

    /**
     * The decider labels of run {@code i}: empty for three runs in four; else what core writes for a run of
     * {@code bookFlight} under the rule of kind {@link #KINDS}, started by one of {@link #REQUESTERS}
     * (drawn from the run index apart from the other draws, so the rest of the run is as in version 2).
     */
    public java.util.Set<String> deciders(int i) {
        long h = mix(i + 0xDEC1DE5L);
        if ((h & 3) != 0) return java.util.Set.of();
        int kind = (int) Long.remainderUnsigned(h >>> 2, KINDS.length);
        int requester = (int) Long.remainderUnsigned(h >>> 20, REQUESTERS.length);
        return LABELS.get(kind).get(requester);
    }

    /** The label pairs {@link #ASKING_NAME} with {@link #ASKING_ROLES} asks with, spelled as core spells them. */
    public static java.util.List<dev.baton.store.RunQuery.Decider> askingDeciders() {
        java.util.List<dev.baton.store.RunQuery.Decider> out = new java.util.ArrayList<>();
        out.add(new dev.baton.store.RunQuery.Decider("*", "x:*:" + ASKING_NAME));
        for (String role : ASKING_ROLES) {
            out.add(new dev.baton.store.RunQuery.Decider("r:" + role, "x:" + role.length() + ":" + role + ":" + ASKING_NAME));
        }
        return out;
    }

    /** The asking principal as core's API takes it. */
    public static dev.baton.agent.Approver asking() {
        return dev.baton.agent.Approver.of(ASKING_NAME, ASKING_ROLES);
    }

    /**
     * Core's own labels for every kind and requester: a real agent with the kind's approver rule (the requester
     * may not approve) runs {@code bookFlight} started by the requester, on the memory store, and the stored
     * snapshot's {@link RunSnapshot#deciders()} are read back.
     */
    private static java.util.List<java.util.List<java.util.Set<String>>> labels() {
        java.util.List<java.util.List<java.util.Set<String>>> out = new java.util.ArrayList<>();
        for (String[] roles : KINDS) {
            java.util.List<java.util.Set<String>> per = new java.util.ArrayList<>();
            for (String requester : REQUESTERS) {
                try (SnapshotStore store = MemorySnapshotStore.create()) {
                    dev.baton.agent.ApproverRule rule = dev.baton.agent.ApproverRule.builder("bench-" + String.join("-", roles))
                            .tool(TOOL).approveRoles(roles).requesterMayApprove(false).build();
                    Agent a = Agent.builder("labels").instructions("You book flights.").model(model()).tools(bookFlight())
                            .approverRules(rule).store(store).build();
                    AgentResult r = a.generate(PROMPT, RunOptions.builder().threadId("t").startedBy(requester).build());
                    if (r.outcome() != RunOutcome.SUSPENDED) throw new IllegalStateException("label run did not suspend: " + r);
                    java.util.Set<String> labels = store.find(r.runId()).orElseThrow().deciders();
                    if (labels.isEmpty()) throw new IllegalStateException("core wrote no labels for " + rule);
                    per.add(labels);
                }
            }
            out.add(java.util.List.copyOf(per));
        }
        return java.util.List.copyOf(out);
    }

    /** The runId of run {@code i}, without building the run (same draws as {@link #run}). */
    public String runId(int i) {
        SplittableRandom r = random(i);
        r.nextInt(THREADS / AGENTS);
        r.nextInt(RESOURCES / AGENTS);
        r.nextLong(SPAN.toMillis());
        r.nextLong(120_000);
        return runId(r);
    }

    private static String runId(SplittableRandom r) {
        return new UUID((r.nextLong() & ~0xF000L) | 0x4000L,
                (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L).toString();
    }

    /** The run indexes in runId order: primary-key order, so bulk loads append to the key's B-tree. */
    public int[] inRunIdOrder() {
        String[] ids = new String[n];
        for (int i = 0; i < n; i++) ids[i] = runId(i);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        java.util.Arrays.sort(order, (a, b) -> ids[a].compareTo(ids[b]));
        int[] out = new int[n];
        for (int i = 0; i < n; i++) out[i] = order[i];
        return out;
    }

    private static SplittableRandom random(int i) {
        return new SplittableRandom(mix(i + 0x5EEDL));
    }

    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The payload core would write for this run, its prompt padded so the JSON is {@code size} characters. */
    private synchronized String payload(String runId, String agentId, String threadId, String resourceId,
                                        Instant createdAt, SplittableRandom r) {
        RunState s = template;
        s.runId = runId;
        s.agentId = agentId;
        s.threadId = threadId;
        s.resourceId = resourceId;
        s.createdAt = createdAt;
        s.messages.set(0, new Message.User(PROMPT + MARK));
        String encoded = SnapshotCodec.encode(s);
        int at = encoded.indexOf(MARK);
        int missing = size - (encoded.length() - MARK.length());
        return encoded.substring(0, at) + (missing > 0 ? filler(missing, r) : "") + encoded.substring(at + MARK.length());
    }

    /** A prompt for a new run whose stored payload is about {@code size} characters. */
    public static String paddedPrompt(int size, SplittableRandom r) {
        return PROMPT + filler(Math.max(0, size - 520), r);
    }

    /** Plain words (no characters JSON escapes), exactly {@code length} characters. */
    static String filler(int length, SplittableRandom r) {
        StringBuilder b = new StringBuilder(length + 16);
        while (b.length() < length) b.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
        b.setLength(length);
        return b.toString();
    }

    private static String[] words() {
        SplittableRandom r = new SplittableRandom(42);
        String[] syllables = {"ka", "lo", "mi", "ter", "san", "ve", "ro", "dun", "pla", "zi", "fo", "ret", "al", "gen", "us", "o"};
        String[] w = new String[512];
        for (int i = 0; i < w.length; i++) {
            StringBuilder b = new StringBuilder();
            int k = 1 + r.nextInt(4);
            for (int j = 0; j < k; j++) b.append(syllables[r.nextInt(syllables.length)]);
            w[i] = b.toString();
        }
        return w;
    }

    /**
     * The state of a real run waiting for approval, produced by core itself (a real agent on the
     * memory store), so the seeded payloads have exactly the format core writes and reads.
     */
    private static RunState template() {
        try (SnapshotStore store = MemorySnapshotStore.create()) {
            Agent a = agent("template", store);
            AgentResult r = a.generate(PROMPT, RunOptions.builder().threadId("t").resourceId("r").build());
            if (r.outcome() != RunOutcome.SUSPENDED) throw new IllegalStateException("template run did not suspend: " + r);
            RunSnapshot s = store.find(r.runId()).orElseThrow();
            return SnapshotCodec.decode(s);
        }
    }

}
