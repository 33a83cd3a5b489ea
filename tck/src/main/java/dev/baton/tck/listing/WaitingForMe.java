package dev.baton.tck.listing;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.Approver;
import dev.baton.agent.ApproverRule;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.MutableClock;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rules of {@code ListingContract}: see the contract's nested class of this name, and the "waiting
 * for me" rules A12 to A17 of docs/approvals.md. For stores that declare {@link QueryFeature#DECIDERS};
 * skipped for others. Not API.
 */
public abstract class WaitingForMe extends ListingRules {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Approver MARIA = Approver.of("maria", "finance");
    private static final Approver JOHN = Approver.of("john", "finance");
    private static final Approver ANNA = Approver.of("anna", "finance", "ops");
    private static final Approver OTTO = Approver.of("otto", "ops");
    private static final Approver BOB = Approver.of("bob", "support");
    private static final Approver ZOE = Approver.of("zoe");

    /** Charges above 1,000 need two of finance; smaller ones one of finance. */
    private static final ApproverRule TWO_PERSON = ApproverRule.builder("two-person-charges").tool("charge")
            .when(args -> args.path("amount").asInt() > 1000).roles("finance").approvals(2).build();
    private static final ApproverRule SMALL = ApproverRule.builder("small-charges").tool("charge")
            .approveRoles("finance").declineRoles("finance", "support").build();
    private static final ApproverRule DEPLOYS = ApproverRule.builder("deploys").tool("deploy").roles("ops").build();
    /** The question of {@code ask} is answered by support (approving is not what it waits for). */
    private static final ApproverRule QUESTIONS = ApproverRule.builder("questions").tool("ask").approveRoles("finance")
            .answerRoles("support").build();
    /** Any named person may approve a deploy, but not the one who asked for it. */
    private static final ApproverRule OPEN_DEPLOYS = ApproverRule.builder("open-deploys").tool("deploy").build();
    private static final ApproverRule OWN_CHARGES = ApproverRule.builder("own-charges").tool("charge").roles("finance")
            .requesterMayApprove(true).build();

    private final MutableClock clock = new MutableClock(T0.plusSeconds(86_400));
    /** The name each test gives a run, by run id. */
    private final Map<String, String> names = new HashMap<>();

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected WaitingForMe(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @BeforeEach
    void needsTheDecidersFeature() {
        assumeTrue(store.queryFeatures().contains(QueryFeature.DECIDERS), "the store does not declare the DECIDERS query feature");
    }

    // ---- through an agent: core writes the labels, the store filters on them ------------------------------

    private Agent agent(ApproverRule... rules) {
        Tool charge = Tool.builder("charge").description("Charges a card")
                .inputSchema("{\"type\":\"object\",\"required\":[\"amount\"],\"properties\":{\"amount\":{\"type\":\"integer\"}}}")
                .requireApproval(true).execute((input, ctx) -> Map.of("charged", input.path("amount").asInt())).build();
        Tool deploy = Tool.builder("deploy").description("Deploys").requireApproval(true)
                .execute((input, ctx) -> "deployed").build();
        Tool note = Tool.builder("note").description("Notes something").requireApproval(true)
                .execute((input, ctx) -> "noted").build();
        Tool ask = Tool.builder("ask").description("Asks a question")
                .execute((input, ctx) -> ctx.resumeData() == null ? ctx.suspend(Map.of("question", "Which card?")) : "answered")
                .build();
        // "charge 5000 deploy" proposes charge(amount 5000) and deploy in one turn
        DeterministicModel model = DeterministicModel.builder()
                .whenUserSays("charge", "charge", text -> Map.of("amount", Integer.parseInt("0" + text.replaceAll("\\D", ""))))
                .whenUserSays("deploy", "deploy", Map.of("env", "production"))
                .whenUserSays("note", "note", Map.of())
                .whenUserSays("ask", "ask", Map.of())
                .build();
        return Agent.builder(agent).model(model).tools(charge, deploy, note, ask).store(store).clock(clock)
                .instanceId("tck-" + agent).pickupTimeout(Duration.ofMinutes(30)).approverRules(rules).build();
    }

    /** Starts a run that suspends, names it {@code name}, and returns it. */
    private AgentResult start(Agent a, String name, String says, String startedBy, String thread, String resource) {
        clock.advance(Duration.ofSeconds(1));
        AgentResult r = a.generate(says, RunOptions.builder().threadId(thread).resourceId(resource).startedBy(startedBy).build());
        if (r.outcome() != RunOutcome.SUSPENDED) throw new AssertionError("did not suspend: " + r);
        names.put(r.runId(), name);
        return r;
    }

    private AgentResult start(Agent a, String name, String says, String startedBy) {
        return start(a, name, says, startedBy, "t", "u");
    }

    private static String call(AgentResult r, String tool) {
        return r.waitingCalls().stream().filter(c -> c.toolName().equals(tool)).findFirst().orElseThrow().toolCallId();
    }

    private AgentListSuspendedRunsResult listFor(Agent a, Approver who, Function<AgentListSuspendedRunsOptions.Builder,
            AgentListSuspendedRunsOptions.Builder> more) {
        return a.listSuspendedRuns(more.apply(AgentListSuspendedRunsOptions.builder().waitingFor(who)).build());
    }

    /** The names of the runs waiting for {@code who}, in listing order, checked against the total. */
    private List<String> waitingFor(Agent a, Approver who) {
        AgentListSuspendedRunsResult page = listFor(a, who, b -> b);
        assertThat(page.total()).as("the total of the listing waiting for %s", who).isEqualTo(page.runs().size());
        return named(page.runs());
    }

    private List<String> named(List<AgentRun> runs) {
        return runs.stream().map(r -> names.getOrDefault(r.runId(), r.runId())).toList();
    }

    /** Rule A12: a principal sees exactly the runs with a call its roles may decide now: approve, or answer a question. */
    @Test
    void aPrincipalSeesExactlyTheRunsWithACallItsRolesMayDecideNow() {
        Agent a = agent(TWO_PERSON, SMALL, DEPLOYS, QUESTIONS);
        start(a, "charge", "charge 10", "carl");
        start(a, "deploy", "deploy", "carl");
        start(a, "question", "ask", "carl");
        assertThat(waitingFor(a, MARIA)).as("rule A12: finance approves charges").containsExactly("charge");
        assertThat(waitingFor(a, OTTO)).as("rule A12: ops approves deploys").containsExactly("deploy");
        assertThat(waitingFor(a, ANNA)).as("rule A12: either role of the principal").containsExactly("deploy", "charge");
        assertThat(waitingFor(a, BOB)).as("rule A12: support answers the question (declining a charge is not what it waits for)")
                .containsExactly("question");
        assertThat(waitingFor(a, ZOE)).as("rule A12: a principal without roles").isEmpty();
        assertThat(a.listSuspendedRuns().total()).as("the listing without the filter").isEqualTo(3);
    }

    /** Rule A13: a call no rule governs, or whose rule names no role, waits for any named principal (not its requester under a rule). */
    @Test
    void aCallNoRuleGovernsOrWhoseRuleNamesNoRoleWaitsForAnyNamedPrincipal() {
        Agent a = agent(SMALL, OPEN_DEPLOYS);
        start(a, "note", "note", "zoe");
        start(a, "deploy", "deploy", "carl");
        start(a, "own deploy", "deploy", "zoe");
        start(a, "charge", "charge 10", "carl");
        assertThat(waitingFor(a, ZOE)).as("rule A13: no rule (no separation either), and a rule without roles but not her own")
                .containsExactly("deploy", "note");
        assertThat(waitingFor(a, MARIA)).as("rule A13: any named principal, and her role's calls")
                .containsExactly("charge", "own deploy", "deploy", "note");
        assertThat(waitingFor(a, Approver.of("carl", "finance"))).as("rule A13: the requester of the deploy and the charge")
                .containsExactly("own deploy", "note");
    }

    /** Rule A14: the principal that started a run does not see it, unless its rule lets the requester approve. */
    @Test
    void theRequesterDoesNotSeeItsOwnRunUnlessTheRuleLetsTheRequesterApprove() {
        start(agent(SMALL), "separated", "charge 10", "maria");
        Agent own = agent(OWN_CHARGES);
        start(own, "own allowed", "charge 20", "maria");
        assertThat(waitingFor(own, MARIA)).as("rule A14: separation of duties, unless requesterMayApprove").containsExactly("own allowed");
        assertThat(waitingFor(own, JOHN)).as("rule A14: another person of the role").containsExactly("own allowed", "separated");
    }

    /**
     * Rule A15: who approved a call short of its quorum no longer sees it while the other approvers still do; an edit
     * resets the count, and the last approval leaves the run waiting for nobody.
     */
    @Test
    void whoApprovedACallShortOfItsQuorumNoLongerSeesItWhileTheOtherApproversStillDo() {
        Agent a = agent(TWO_PERSON, SMALL);
        AgentResult big = start(a, "big", "charge 5000", "carl");
        assertThat(waitingFor(a, MARIA)).containsExactly("big");
        a.approveToolCall(big.runId(), call(big, "charge"), ApproveOptions.builder().approver(MARIA).build());
        assertThat(waitingFor(a, MARIA)).as("rule A15: maria approved, the quorum is short").isEmpty();
        assertThat(waitingFor(a, JOHN)).as("rule A15: the other approvers still see it").containsExactly("big");
        assertThat(waitingFor(a, ANNA)).containsExactly("big");
        a.approveToolCall(big.runId(), call(big, "charge"), ApproveOptions.builder().approver(JOHN)
                .args(JSON.valueToTree(Map.of("amount", 4000))).build());
        assertThat(waitingFor(a, MARIA)).as("rule A15: an edit resets the approvals: maria may approve the edited call").containsExactly("big");
        assertThat(waitingFor(a, JOHN)).as("rule A15: the editor's edit is his approval").isEmpty();
        AgentResult done = a.approveToolCall(big.runId(), call(big, "charge"), ApproveOptions.builder().approver(ANNA).build()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(waitingFor(a, MARIA)).as("rule A15: the last approval: waiting for nobody").isEmpty();
        assertThat(waitingFor(a, JOHN)).isEmpty();
    }

    /** Rule A15: a run with several waiting calls under different rules waits for exactly the deciders of one of them. */
    @Test
    void aRunWithTwoWaitingCallsUnderDifferentRulesWaitsForExactlyTheDecidersOfEither() {
        Agent a = agent(TWO_PERSON, SMALL, DEPLOYS);
        AgentResult two = start(a, "two", "charge 5000 deploy", "carl");
        assertThat(two.waitingCalls()).hasSize(2);
        for (Approver who : List.of(MARIA, JOHN, ANNA, OTTO)) assertThat(waitingFor(a, who)).as("%s", who).containsExactly("two");
        assertThat(waitingFor(a, BOB)).isEmpty();
        a.approveToolCall(two.runId(), call(two, "charge"), ApproveOptions.builder().approver(MARIA).build());
        assertThat(waitingFor(a, MARIA)).as("rule A15: maria approved the charge and may not approve the deploy").isEmpty();
        assertThat(waitingFor(a, JOHN)).containsExactly("two");
        assertThat(waitingFor(a, OTTO)).containsExactly("two");
        assertThat(waitingFor(a, ANNA)).containsExactly("two");
        a.approveToolCall(two.runId(), call(two, "charge"), ApproveOptions.builder().approver(JOHN).build()).result();
        assertThat(store.find(two.runId()).orElseThrow().status()).as("the deploy still waits").isEqualTo(RunStatus.SUSPENDED);
        assertThat(waitingFor(a, JOHN)).as("rule A15: the charge is approved, only the deploy waits").isEmpty();
        assertThat(waitingFor(a, OTTO)).containsExactly("two");
        assertThat(waitingFor(a, ANNA)).as("rule A15: anna, by her other role").containsExactly("two");
    }

    /** Rule A16: a run claimed by an instance waits for nobody, also once its lease lapsed, though it is listed. */
    @Test
    void aClaimedRunWaitsForNobodyEvenWhenItsLeaseLapsed() {
        Agent a = agent(SMALL, QUESTIONS);
        AgentResult claimed = start(a, "claimed", "charge 10", "carl");
        start(a, "waiting", "charge 20", "carl");
        RunSnapshot s = store.find(claimed.runId()).orElseThrow();
        assertThat(store.compareAndSet(s.version(), s.claimed("gone-instance", clock.instant().plusSeconds(60), s.payload()))).isTrue();
        assertThat(waitingFor(a, MARIA)).as("rule A16: under a live lease").containsExactly("waiting");
        clock.advance(Duration.ofSeconds(61));
        assertThat(named(a.listSuspendedRuns().runs())).as("a lapsed lease is listed").contains("claimed", "waiting");
        assertThat(waitingFor(a, MARIA)).as("rule A16: a lapsed lease").containsExactly("waiting");
        RunSnapshot lapsed = store.find(claimed.runId()).orElseThrow();
        assertThat(lapsed.deciders()).as("a claim keeps the labels").isEqualTo(s.deciders()).isNotEmpty();
        // whatever labels core wrote: the run had them, it matches none of them while claimed
        List<RunQuery.Decider> itsOwn = lapsed.deciders().stream().map(l -> d(l, "no-such-label")).toList();
        RunQuery asOfNow = RunQuery.forAgent(agent, clock.instant()).deciders(itsOwn).build();
        assertThat(lapsed.effectiveStatus(clock.instant())).isEqualTo(RunStatus.SUSPENDED);
        assertThat(store.list(asOfNow).items()).extracting(RunSnapshot::runId).as("rule A16: the store's own query")
                .doesNotContain(claimed.runId());
        AgentResult asked = start(a, "question", "ask", "carl");
        assertThat(waitingFor(a, BOB)).containsExactly("question");
        a.resumeStream(Map.of("card", "visa"), ResumeOptions.builder().runId(asked.runId()).toolCallId(call(asked, "ask")).build(),
                DecisionOptions.builder().approver(BOB).build()).result();
        assertThat(waitingFor(a, BOB)).as("an answered question waits for nobody").isEmpty();
    }

    /** Rule A17: totals, offset pages and cursor pages of a waiting-for listing count only its matches, with the other filters. */
    @Test
    void totalsPagesAndCursorsOfAWaitingForListingAgreeWithTheFilterAndCombineWithTheOtherFilters() {
        Agent a = agent(SMALL, DEPLOYS);
        List<String> mine = new ArrayList<>();
        List<String> mineInT1 = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            boolean charge = i % 3 != 2;
            String thread = i % 2 == 0 ? "t1" : "t2";
            String resource = i < 5 ? "u1" : "u2";
            String name = "run" + i;
            start(a, name, charge ? "charge " + (10 + i) : "deploy", "carl", thread, resource);
            if (charge) {
                mine.add(0, name);
                if (thread.equals("t1")) mineInT1.add(0, name);
            }
        }
        assertThat(waitingFor(a, MARIA)).containsExactlyElementsOf(mine);
        // offset pages
        List<String> paged = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            int page = p;
            AgentListSuspendedRunsResult r = listFor(a, MARIA, b -> b.perPage(2).page(page));
            assertThat(r.total()).as("rule A17: the total of every page").isEqualTo(mine.size());
            paged.addAll(named(r.runs()));
        }
        assertThat(paged).as("rule A17: offset pages").containsExactlyElementsOf(mine);
        // cursor pages
        AgentListSuspendedRunsResult first = listFor(a, MARIA, b -> b.perPage(4).page(0));
        List<String> walked = new ArrayList<>(named(first.runs()));
        String cursor = first.nextCursor();
        for (int p = 0; p < 10 && cursor != null; p++) {
            String at = cursor;
            AgentListSuspendedRunsResult r = listFor(a, MARIA, b -> b.perPage(4).cursor(at));
            assertThat(r.total()).isEqualTo(mine.size());
            walked.addAll(named(r.runs()));
            cursor = r.nextCursor();
        }
        assertThat(walked).as("rule A17: cursor pages").containsExactlyElementsOf(mine);
        // with the other filters
        AgentListSuspendedRunsResult inT1 = listFor(a, MARIA, b -> b.threadId("t1"));
        assertThat(named(inT1.runs())).as("rule A17: with a thread").containsExactlyElementsOf(mineInT1);
        assertThat(inT1.total()).isEqualTo(mineInT1.size());
        AgentListSuspendedRunsResult inU2 = listFor(a, MARIA, b -> b.resourceId("u2").threadId("t2"));
        assertThat(named(inU2.runs())).as("rule A17: with a thread and a resource").containsExactly("run7");
        assertThat(listFor(a, OTTO, b -> b.resourceId("u1")).runs()).extracting(r -> names.get(r.runId()))
                .as("rule A17: with a resource").containsExactly("run2");
    }

    // ---- the store alone: the labels as core writes them, the match rule of RunQuery ----------------------

    private RunSnapshot labelled(String name, String thread, String resource, long offset, String... labels) {
        return run(name, thread, offset, null).toBuilder().resourceId(resource).deciders(List.of(labels)).build();
    }

    private static RunQuery.Decider d(String granted, String unlessExcluded) {
        return new RunQuery.Decider(granted, unlessExcluded);
    }

    /**
     * Rule A17: the labels are stored with the run, read back in order (listed too), replaced by each suspended write, kept
     * by a claim, gone with the run (a new run under its id has none of them); another agent's labels never count.
     */
    @Test
    void theLabelsAreStoredWithTheRunReplacedByEachWriteAndKeptByAClaim() {
        String longest = "r:" + "é".repeat(126);
        RunSnapshot s = insert(labelled("a", "t", "u", 0, "r:ops", "*", "x:3:ops:bob", longest, "#AbC-_09", "x:*:a:b:c"));
        RunSnapshot back = store.find(s.runId()).orElseThrow();
        assertThat(back).isEqualTo(s);
        assertThat(back.deciders()).containsExactly("#AbC-_09", "*", "r:ops", longest, "x:*:a:b:c", "x:3:ops:bob");
        assertThat(store.list(query().deciders(List.of(d(longest, "x:no"))).build()).items()).extracting(RunSnapshot::runId)
                .containsExactly(s.runId());
        assertThat(store.list(query().deciders(List.of(d("r:ops", "x:3:ops:bob"))).build()).total())
                .as("granted, but excluded").isZero();
        assertThat(store.list(query().deciders(List.of(d("r:ops", "x:3:ops:ann"))).build()).total()).isEqualTo(1);
        assertThat(store.list(query().deciders(List.of()).build()).total()).as("an empty list matches nothing").isZero();
        for (boolean withPayload : new boolean[] {false, true}) {
            assertThat(store.list(query().deciders(List.of(d("r:ops", "x:3:ops:ann"))).withPayload(withPayload).build()).items())
                    .singleElement().satisfies(listed -> assertThat(listed.deciders()).as("a listed run carries its labels,"
                            + " with payload %s", withPayload).isEqualTo(s.deciders()));
        }
        String other = uniqueId("tck-listing-other");
        insert(s.toBuilder().agentId(other).runId(other + "/a").build());
        assertThat(store.list(query().deciders(List.of(d("r:ops", "x:3:ops:ann"))).build()).total())
                .as("another agent's run with the same labels never counts").isEqualTo(1);
        RunSnapshot next = s.suspended(T0.plusSeconds(5), s.payload(), null, s.summary(), List.of("r:finance"));
        assertThat(store.compareAndSet(s.version(), next)).isTrue();
        assertThat(store.find(s.runId()).orElseThrow().deciders()).containsExactly("r:finance");
        assertThat(store.list(query().deciders(List.of(d("r:ops", "x:3:ops:ann"))).build()).total()).as("the old labels are gone").isZero();
        assertThat(store.list(query().deciders(List.of(d("r:finance", "x"))).build()).total()).isEqualTo(1);
        RunSnapshot claimed = next.claimed("me", T0.plusSeconds(7_200), next.payload());
        assertThat(store.compareAndSet(next.version(), claimed)).isTrue();
        assertThat(store.find(s.runId()).orElseThrow().deciders()).as("a claim keeps the labels").containsExactly("r:finance");
        assertThat(store.list(query().deciders(List.of(d("r:finance", "x"))).build()).total()).as("but matches no decider").isZero();
        assertThat(store.list(query().status(RunStatus.RESUMING).deciders(List.of(d("r:finance", "x"))).build()).total())
                .as("not even asked for by its status").isZero();
        assertThat(store.renewLease(s.runId(), claimed.version(), "me", T0.plusSeconds(7_300))).isTrue();
        assertThat(store.find(s.runId()).orElseThrow().deciders()).as("so does a renewal").containsExactly("r:finance");
        RunSnapshot renewed = store.find(s.runId()).orElseThrow();
        RunSnapshot none = renewed.suspended(T0.plusSeconds(9), renewed.payload(), null, renewed.summary(), null);
        assertThat(store.compareAndSet(renewed.version(), none)).isTrue();
        assertThat(store.find(s.runId()).orElseThrow().deciders()).isEmpty();
        assertThat(store.list(query().deciders(List.of(d("r:finance", "x"))).build()).total()).isZero();
        RunSnapshot relabelled = none.suspended(T0.plusSeconds(10), none.payload(), null, none.summary(), List.of("r:finance"));
        assertThat(store.compareAndSet(none.version(), relabelled)).isTrue();
        assertThat(store.list(query().deciders(List.of(d("r:finance", "x"))).build()).total()).as("labelled again").isEqualTo(1);
        assertThat(store.delete(s.runId(), relabelled.version())).isTrue();
        insert(run("a", "t", 0, null));
        assertThat(store.list(query().deciders(List.of(d("r:finance", "x"))).build()).total())
                .as("a new run under a deleted run's id, without labels, has none of the old ones").isZero();
        RunSnapshot again = insert(labelled("b", "t", "u", 1, "r:finance"));
        assertThat(store.delete(again.runId(), again.version())).isTrue();
        assertThat(store.list(query().deciders(List.of(d("r:finance", "x"))).build()).total()).as("deleted with the run").isZero();
    }

    /** Rule A17: against {@link RunQuery#matches}: every page, cursor and total of seeded queries with the other filters. */
    @Test
    void seededDecidersQueriesWithTheOtherFiltersAgreeWithTheReferenceInTotalOffsetAndCursorPages() {
        Random random = new Random(3714);
        String[] grants = {"*", "r:a", "r:b", "r:c"};
        List<RunSnapshot> all = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            Set<String> labels = new TreeSet<>();
            for (String g : grants) {
                if (random.nextInt(3) == 0) {
                    labels.add(g);
                    if (random.nextBoolean()) labels.add("x:" + g + ":" + (random.nextBoolean() ? "p" : "q"));
                }
            }
            RunSnapshot s = labelled("s" + i, random.nextBoolean() ? "t1" : "t2", random.nextBoolean() ? "u1" : "u2",
                    random.nextInt(20) * 1000L, labels.toArray(String[]::new));
            insert(s);
            if (random.nextInt(6) == 0) {
                RunSnapshot c = s.claimed("other", T0.plusSeconds(random.nextBoolean() ? 10 : 10_000), s.payload());
                assertThat(store.compareAndSet(s.version(), c)).isTrue();
                s = c;
            }
            all.add(s);
        }
        Instant now = T0.plusSeconds(3600);
        int checked = 0;
        for (int k = 0; k < 60; k++) {
            List<RunQuery.Decider> ds = new ArrayList<>();
            String name = random.nextBoolean() ? "p" : "q";
            for (String g : grants) if (random.nextInt(3) > 0) ds.add(d(g, "x:" + g + ":" + name));
            RunQuery.Builder b = RunQuery.forAgent(agent, now).deciders(ds).status(random.nextInt(4) == 0 ? null : RunStatus.SUSPENDED);
            if (random.nextBoolean()) b.threadId(random.nextBoolean() ? "t1" : "t2");
            if (random.nextBoolean()) b.resourceId(random.nextBoolean() ? "u1" : "u2");
            if (random.nextInt(3) == 0) b.createdFrom(T0.plusSeconds(random.nextInt(10)));
            if (random.nextInt(3) == 0) b.createdTo(T0.plusSeconds(10 + random.nextInt(10)));
            RunQuery base = b.build();
            List<RunSnapshot> expected = all.stream().filter(base::matches).sorted(RunQuery.ORDER).toList();
            List<String> expectedIds = expected.stream().map(RunSnapshot::runId).toList();
            RunPage every = store.list(base);
            assertThat(ids(every)).as("rule A17: %s", base).containsExactlyElementsOf(expectedIds);
            assertThat(every.total()).isEqualTo(expected.size());
            assertThat(store.list(base.toBuilder().countOnly().build()).total()).as("count only: %s", base).isEqualTo(expected.size());
            int per = 1 + random.nextInt(5);
            List<String> paged = new ArrayList<>();
            for (int off = 0; off <= expected.size(); off += per) {
                RunPage p = store.list(base.toBuilder().page(off, per).build());
                assertThat(p.total()).isEqualTo(expected.size());
                paged.addAll(ids(p));
            }
            assertThat(paged).as("rule A17: offset pages of %s", base).containsExactlyElementsOf(expectedIds);
            List<String> walked = new ArrayList<>();
            RunQuery.After after = null;
            for (int guard = 0; guard <= expected.size(); guard++) {
                RunPage p = store.list(base.toBuilder().after(after, per).build());
                assertThat(p.total()).isEqualTo(expected.size());
                walked.addAll(ids(p));
                if (p.items().size() < per) break;
                RunSnapshot last = p.items().get(p.items().size() - 1);
                after = new RunQuery.After(last.createdAt(), last.runId());
            }
            assertThat(walked).as("rule A17: cursor pages of %s", base).containsExactlyElementsOf(expectedIds);
            checked += expected.size();
        }
        assertThat(checked).as("the seeded queries match runs").isGreaterThan(60);
    }
}
