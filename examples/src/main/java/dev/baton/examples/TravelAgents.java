package dev.baton.examples;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.memory.Memory;
import dev.baton.store.StoreCapability;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.store.SnapshotStore;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolContext;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The agents of the approval inbox, built the same way in every process: same ids, same tools,
 * same store. That is all a new JVM needs to find and resume the runs an earlier one left.
 *
 * <ul>
 *   <li>{@value #CONCIERGE}: books flights (always asks for approval), refunds orders (asks only
 *       above {@value #REFUND_LIMIT} EUR, a per-call predicate) and asks for a passport number
 *       (suspends the run until someone sends the data).</li>
 *   <li>{@value #TRAVEL_DESK}: a supervisor that hands visa questions to its subagent
 *       {@value #VISA_DESK}, whose {@code applyVisa} tool needs approval.</li>
 * </ul>
 * The model is Baton's {@link DeterministicModel} (keyword rules, no network, same answer every
 * time) unless a real one is given ({@code --model}, see {@link ModelChoice}); the tools are the same.
 * {@code bookFlight} and {@code refund} declare their input as records: the JSON schema a real
 * model sees is generated from them, and arguments that do not fit go back to the model as a
 * tool error. The concierge keeps thread memory: a follow-up question in a thread ("Which flight
 * did you book for me?") sees the thread's earlier runs.
 */
public final class TravelAgents implements AutoCloseable {
    /** The demo's memory threads and their resources (thread ids are scoped by resource), deleted by the demo when it starts again. */
    static final Map<String, String> THREADS = Map.of("alice-lisbon", "alice", "bob-orders", "bob", "carol-tokyo", "carol",
            "carol-orders", "carol", "dave-documents", "dave");


    /** The inbox agent's id. */
    public static final String CONCIERGE = "concierge";
    /** The supervisor's id. */
    public static final String TRAVEL_DESK = "travel-desk";
    /** The subagent's id; the supervisor calls it as the tool {@code agent-visa-desk}. */
    public static final String VISA_DESK = "visa-desk";
    /** Refunds above this amount (EUR) wait for approval; smaller ones go through. */
    public static final int REFUND_LIMIT = 100;

    private static final Pattern DESTINATION = Pattern.compile("(?i)\\bto ([\\p{L}][\\p{L} .'-]*?)(?:[,.!?]|$| for | on )");
    private static final Pattern AMOUNT = Pattern.compile("(\\d+)");
    private static final Pattern ORDER = Pattern.compile("(?i)\\border ([A-Z0-9-]+)");
    private static final Pattern COUNTRY = Pattern.compile("(?i)\\bvisa for ([\\p{L}][\\p{L} ]*?)(?:[,.!?]|$)");

    private final Agent concierge;
    private final Agent visaDesk;
    private final Agent travelDesk;

    /** Builds the three agents on {@code store} (not closed by {@link #close()}) with {@code clock}. */
    public TravelAgents(SnapshotStore store, Clock clock) {
        this(store, clock, null);
    }

    /**
     * Builds the three agents on {@code store} (not closed by {@link #close()}) with {@code clock};
     * all three ask {@code model}, or their deterministic rules when it is null.
     */
    public TravelAgents(SnapshotStore store, Clock clock, @Nullable LanguageModel model) {
        AgentBuilder concierge = Agent.builder(CONCIERGE)
                .instructions("You book flights, refund orders and collect passport numbers.")
                .model(model != null ? model : DeterministicModel.builder()
                        // a follow-up only thread memory can answer: the booking was an earlier run of the thread
                        .whenUserAsks("which flight", conversation -> {
                            String booked = DeterministicModel.lastToolResult(conversation);
                            return booked == null ? "I have no booking in this conversation."
                                    : "Earlier in this conversation: " + booked;
                        })
                        .whenUserSays("flight", "bookFlight", text -> Map.of("to", destination(text)))
                        .whenUserSays("refund", "refund", text -> ordered("amount", amount(text), "order", order(text)))
                        .whenUserSays("passport", "askPassportNumber", text -> Map.of("purpose", text))
                        .build())
                .tools(bookFlight(), refund(), askPassportNumber())
                .store(store)
                .clock(clock);
        // conversations per thread, in the same store, when the store keeps them (every Baton store does)
        if (store.capabilities().contains(StoreCapability.THREAD_MEMORY)) concierge.memory(Memory.builder().lastMessages(20).build());
        this.concierge = concierge.build();
        this.visaDesk = Agent.builder(VISA_DESK)
                .instructions("You file visa applications.")
                .model(model != null ? model : DeterministicModel.builder()
                        .whenUserSays("visa", "applyVisa", text -> Map.of("country", country(text)))
                        .build())
                .tools(applyVisa())
                .store(store)
                .clock(clock)
                .build();
        this.travelDesk = Agent.builder(TRAVEL_DESK)
                .instructions("You supervise; visa questions go to the visa desk.")
                .model(model != null ? model : DeterministicModel.builder()
                        .whenUserSays("visa", "agent-" + VISA_DESK, text -> Map.of("prompt", text))
                        .build())
                .subagents(visaDesk)
                .store(store)
                .clock(clock)
                .build();
    }

    public Agent concierge() { return concierge; }

    public Agent travelDesk() { return travelDesk; }

    public Agent visaDesk() { return visaDesk; }

    /** All three, in the order the inbox shows them. */
    public List<Agent> all() {
        return List.of(concierge, travelDesk, visaDesk);
    }

    /** The agent with this id. */
    public Agent byId(String id) {
        for (Agent a : all()) {
            if (a.id().equals(id)) return a;
        }
        throw new UsageException("--agent: unknown agent '" + id + "'; known: " + ids());
    }

    /** The agent ids, for messages. */
    public static List<String> ids() {
        return List.of(CONCIERGE, TRAVEL_DESK, VISA_DESK);
    }

    // ---- tools --------------------------------------------------------------------------------

    /** {@code bookFlight}'s input: its JSON schema is generated from this record. */
    record Flight(@JsonPropertyDescription("the destination city") String to) { }

    /** {@code refund}'s input. */
    record Refund(@JsonPropertyDescription("the amount in EUR") int amount,
                  @JsonPropertyDescription("the order number, e.g. A-1001") String order) { }

    static Tool bookFlight() {
        return Tool.builder("bookFlight")
                .description("Books a flight; every booking waits for a human's approval.")
                .input(Flight.class)
                .requireApproval(true)
                .execute((Flight in, ToolContext ctx) ->
                        ordered("booked", in.to(), "confirmation", "BK-" + ctx.runId().substring(0, 6).toUpperCase(Locale.ROOT)))
                .build();
    }

    static Tool refund() {
        return Tool.builder("refund")
                .description("Refunds an order; amounts above " + REFUND_LIMIT + " EUR wait for approval.")
                .input(Refund.class)
                .requireApproval((Refund r) -> r.amount() > REFUND_LIMIT)
                .execute((Refund r, ToolContext ctx) -> ordered("refunded", r.amount(), "order", r.order()))
                .build();
    }

    static Tool askPassportNumber() {
        return Tool.builder("askPassportNumber")
                .description("Asks the traveller for a passport number; the run waits until it arrives.")
                // what the run waits for: other data is refused before the tool runs, and the inbox suggests it
                .resumeSchema("{\"type\":\"object\",\"required\":[\"passportNumber\"],"
                        + "\"properties\":{\"passportNumber\":{\"type\":\"string\"}}}")
                .execute((input, ctx) -> {
                    if (ctx.resumeData() == null) {
                        return ctx.suspend(Map.of("question", "What is your passport number?"));
                    }
                    String number = ctx.resumeData().path("passportNumber").asText().trim();
                    if (number.length() < 4) {
                        // still missing: suspend again, same run id, new question
                        return ctx.suspend(Map.of("question", "That was not a passport number. What is it?"));
                    }
                    return Map.of("passportOnFile", "*".repeat(number.length() - 3) + number.substring(number.length() - 3));
                })
                .build();
    }

    static Tool applyVisa() {
        return Tool.builder("applyVisa")
                .description("Files a visa application; waits for approval.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"country\":{\"type\":\"string\"}}}")
                .requireApproval(true)
                .execute((input, ctx) -> ordered("visa", "filed", "country", input.path("country").asText()))
                .build();
    }

    /** A two-entry map that keeps its order, so JSON prints the same every time. */
    static Map<String, Object> ordered(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    // ---- what the deterministic model reads from a prompt -------------------------------------

    static String destination(String text) {
        Matcher m = DESTINATION.matcher(text);
        return m.find() ? m.group(1).trim() : "somewhere";
    }

    static int amount(String text) {
        Matcher m = AMOUNT.matcher(text);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    static String order(String text) {
        Matcher m = ORDER.matcher(text);
        return m.find() ? m.group(1) : "unknown";
    }

    static String country(String text) {
        Matcher m = COUNTRY.matcher(text);
        return m.find() ? m.group(1).trim() : "unknown";
    }

    /** Closes the agents; the store passed in stays open (its owner closes it). */
    @Override
    public void close() {
        travelDesk.close();
        visaDesk.close();
        concierge.close();
    }
}
