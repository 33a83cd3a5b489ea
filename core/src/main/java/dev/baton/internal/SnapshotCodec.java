package dev.baton.internal;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.baton.SnapshotFormatException;
import dev.baton.store.RunSnapshot;

/** Turns {@link RunState} into the snapshot payload and back, checking the format version. Not API. */
public final class SnapshotCodec {

    /**
     * The payload format this Baton writes. Version 2 records each call's progress (EXECUTING,
     * attempts, resume data, the subagent run it drives) so that a run can be continued from any
     * point, and stores messages in {@link MessageCodec}'s form. The snapshot format has its own
     * number, apart from Baton's version; 2 is the first format any release (0.1.0) writes.
     */
    public static final int FORMAT_VERSION = 2;
    /** The oldest payload format this Baton reads (format 1 was never released). */
    public static final int OLDEST_READABLE_VERSION = 2;

    /** The mapper for payloads and tool values. */
    public static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.PUBLIC_ONLY)
            .registerModule(MessageCodec.module())
            .registerModule(new com.fasterxml.jackson.databind.module.SimpleModule("baton-instant")
                    .addDeserializer(java.time.Instant.class, new IsoInstant()));   // registered last: it wins over JavaTimeModule's

    /** How every payload this Baton writes begins (fields in {@link RunState}'s order): such a payload is read in one pass. */
    private static final String OWN_PREFIX = "{\"formatVersion\":" + FORMAT_VERSION + ",";
    private static final com.fasterxml.jackson.databind.ObjectReader STATE_READER = JSON.readerFor(RunState.class);
    private static final com.fasterxml.jackson.databind.ObjectWriter STATE_WRITER = JSON.writerFor(RunState.class);
    static final com.fasterxml.jackson.databind.ObjectWriter SUMMARY_WRITER = JSON.writerFor(RunSummary.class);

    private SnapshotCodec() {
    }

    /**
     * What one write stores for {@code state}: the payload, the listing summary, the run's
     * deadline (the soonest {@code expiresAt} of its waiting calls, or {@code escalatesAt} of one
     * that has yet to escalate: what {@code listDue} finds for the expiry sweep) and its decider labels
     * ({@link RunSnapshot#deciders()}: who may decide its waiting calls, by the agent's approver rules).
     */
    public record Encoded(String payload, String summary, java.time.@org.jspecify.annotations.Nullable Instant expiresAt,
                          java.util.Set<String> deciders) {
    }

    /** {@code state} encoded without decider labels (benchmarks, tools): a run written so is waiting for nobody. */
    public static Encoded encodeAll(RunState state) {
        return encodeAll(state, java.util.Set.of());
    }

    /** {@code state} encoded with the decider labels the agent computed for it. */
    public static Encoded encodeAll(RunState state, java.util.Set<String> deciders) {
        java.time.Instant deadline = null;
        for (CallState c : state.calls) {
            if (c.waiting() && c.expiresAt != null && (deadline == null || c.expiresAt.isBefore(deadline))) deadline = c.expiresAt;
            // a call's escalation is due on the same index: the sweep that expires runs escalates them
            if (c.waiting() && c.escalatesAt != null && (deadline == null || c.escalatesAt.isBefore(deadline))) deadline = c.escalatesAt;
        }
        return new Encoded(encode(state), RunSummary.of(state).encode(), deadline, deciders);
    }

    public static String encode(RunState state) {
        try {
            return text(STATE_WRITER, state);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot serialise run " + state.runId + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code writer.writeValueAsString(value)}, the same text, written into this thread's reused
     * buffer: the only new memory is the returned string (Jackson's own way builds the text in
     * segments, then a char array, then the string). A buffer grown past 64 K characters is let go.
     */
    static String text(com.fasterxml.jackson.databind.ObjectWriter writer, Object value) throws java.io.IOException {
        Buffer b = BUFFER.get();
        if (b.busy) b = new Buffer();   // written from within a write: a buffer of its own
        b.busy = true;
        b.length = 0;
        try {
            writer.writeValue(b, value);
            return b.text();
        } finally {
            b.busy = false;
            if (b.chars.length > 65_536) BUFFER.remove();
            b.length = 0;
        }
    }

    private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);

    /**
     * A Writer over a char array that is kept for the thread (never closed for real). Not a StringBuilder: appending
     * chars to one that holds Latin-1 checks and narrows them one at a time, where {@code new String(char[], ...)}
     * narrows the whole text at once.
     */
    private static final class Buffer extends java.io.Writer {
        char[] chars = new char[4096];
        int length;
        boolean busy;

        private void room(int more) {
            if (length + more > chars.length) {
                chars = java.util.Arrays.copyOf(chars, Math.max(length + more, 2 * chars.length));
            }
        }

        String text() {
            return new String(chars, 0, length);
        }

        @Override
        public void write(char[] cbuf, int off, int len) {
            room(len);
            System.arraycopy(cbuf, off, chars, length, len);
            length += len;
        }

        @Override
        public void write(String str, int off, int len) {
            room(len);
            str.getChars(off, off + len, chars, length);
            length += len;
        }

        @Override
        public void write(int c) {
            room(1);
            chars[length++] = (char) c;
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    /** Reads the payload of {@code snapshot}, or throws {@link SnapshotFormatException} naming the run. */
    public static RunState decode(RunSnapshot snapshot) {
        String runId = snapshot.runId();
        RunState state = null;
        if (snapshot.payload().startsWith(OWN_PREFIX)) {
            // written in the current format (by this Baton, or one that writes the same): bound in one pass,
            // without the tree; anything that does not bind is read again below, for the precise error
            try {
                state = STATE_READER.readValue(snapshot.payload());
                if (state != null && state.formatVersion != FORMAT_VERSION) state = null;   // a repeated formatVersion
            } catch (JsonProcessingException | RuntimeException e) {
                state = null;
            }
        }
        if (state == null) state = decodeChecked(snapshot, runId);
        if (!runId.equals(state.runId) || !snapshot.agentId().equals(state.agentId) || state.messages == null
                || state.calls == null) {
            throw new SnapshotFormatException(runId, "the payload's runId, agentId, messages or calls are missing or do not match the stored row", null);
        }
        for (CallState c : state.calls) {
            if (c == null || c.toolCallId == null || c.toolName == null || c.status == null) {
                throw new SnapshotFormatException(runId, "a tool call in the payload is incomplete", null);
            }
        }
        state.formatVersion = FORMAT_VERSION;   // written back in the current format
        return state;
    }

    /** The payload read as a tree first: its format version checked before it is bound. */
    private static RunState decodeChecked(RunSnapshot snapshot, String runId) {
        JsonNode tree;
        try {
            tree = JSON.readTree(snapshot.payload());
        } catch (JsonProcessingException e) {
            throw new SnapshotFormatException(runId, "the payload is not valid JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (tree == null || !tree.isObject()) {
            throw new SnapshotFormatException(runId, "the payload is not a JSON object", null);
        }
        JsonNode version = tree.get("formatVersion");
        if (version == null || !version.canConvertToInt()) {
            throw new SnapshotFormatException(runId, "the payload has no formatVersion", null);
        }
        if (version.asInt() < OLDEST_READABLE_VERSION || version.asInt() > FORMAT_VERSION) {
            throw new SnapshotFormatException(runId, "it was written in snapshot format version " + version.asInt()
                    + ", and this Baton reads versions " + OLDEST_READABLE_VERSION + " to " + FORMAT_VERSION
                    + "; resume it with a Baton that knows that version", null);
        }
        RunState state;
        try {
            state = JSON.treeToValue(tree, RunState.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new SnapshotFormatException(runId, "the payload does not describe a run (" + e.getMessage() + ")", e);
        }
        if (state == null) throw new SnapshotFormatException(runId, "the payload does not describe a run", null);
        return state;
    }

    /**
     * Reads an {@link java.time.Instant} in the form this Baton writes it ({@code Instant.toString()}:
     * {@code 2026-12-05T03:20:11.123456Z}, years 0000 to 9999, 0 to 9 fraction digits) by hand: the
     * JDK's ISO parser builds a formatter on every call, the larger part of reading a snapshot. Any
     * other form (a leap second, an offset, a number, a wider year) goes to Jackson's own reader, so
     * what is accepted, and how it is refused, does not change.
     */
    static final class IsoInstant extends com.fasterxml.jackson.databind.JsonDeserializer<java.time.Instant>
            implements com.fasterxml.jackson.databind.deser.ContextualDeserializer {
        /** A property with a format of its own ({@code @JsonFormat}, a config override) is read by Jackson's reader, as it was. */
        @Override
        public com.fasterxml.jackson.databind.JsonDeserializer<?> createContextual(com.fasterxml.jackson.databind.DeserializationContext ctxt,
                com.fasterxml.jackson.databind.@org.jspecify.annotations.Nullable BeanProperty property)
                throws com.fasterxml.jackson.databind.JsonMappingException {
            com.fasterxml.jackson.annotation.JsonFormat.Value format = property != null
                    ? property.findPropertyFormat(ctxt.getConfig(), java.time.Instant.class)
                    : ctxt.getDefaultPropertyFormat(java.time.Instant.class);
            if (format == null || format.equals(com.fasterxml.jackson.annotation.JsonFormat.Value.empty())) return this;
            return com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer.INSTANT.createContextual(ctxt, property);
        }

        @Override
        public java.time.Instant deserialize(com.fasterxml.jackson.core.JsonParser p, com.fasterxml.jackson.databind.DeserializationContext ctxt)
                throws java.io.IOException {
            if (p.hasToken(com.fasterxml.jackson.core.JsonToken.VALUE_STRING)) {
                java.time.Instant fast = parse(p.getText());
                if (fast != null) return fast;
            }
            return com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer.INSTANT.deserialize(p, ctxt);
        }

        /** The instant {@code s} names in the plain ISO form, or null if it is in any other form. */
        static java.time.@org.jspecify.annotations.Nullable Instant parse(String s) {
            int n = s.length();
            if (n < 20 || n > 30 || s.charAt(n - 1) != 'Z' || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
                    || s.charAt(13) != ':' || s.charAt(16) != ':') {
                return null;
            }
            int year = digits(s, 0, 4), month = digits(s, 5, 7), day = digits(s, 8, 10);
            int hour = digits(s, 11, 13), minute = digits(s, 14, 16), second = digits(s, 17, 19);
            if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                    || second < 0 || second > 59) {
                return null;
            }
            int nanos = 0;
            if (n > 20) {
                if (s.charAt(19) != '.' || n == 21) return null;
                int fraction = digits(s, 20, n - 1);
                if (fraction < 0) return null;
                nanos = fraction;
                for (int k = n - 1 - 20; k < 9; k++) nanos *= 10;
            }
            if (day > java.time.YearMonth.of(year, month).lengthOfMonth()) return null;
            long epochDay = java.time.LocalDate.of(year, month, day).toEpochDay();
            return java.time.Instant.ofEpochSecond(epochDay * 86_400L + hour * 3_600L + minute * 60L + second, nanos);
        }

        private static int digits(String s, int from, int to) {
            int v = 0;
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                if (c < '0' || c > '9') return -1;
                v = v * 10 + (c - '0');
            }
            return v;
        }
    }
}
