package dev.baton.spring;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

/**
 * {@code baton.http.*}: the HTTP API and inbox page in Spring MVC. Part of {@link BatonProperties};
 * Spring binds it.
 *
 * <p>Not thread-safe: Spring binds it once at start, and the starter reads it when it builds the API.
 */
public class BatonHttpProperties {
    /** Whether to serve the HTTP API and the inbox page. */
    private boolean enabled;

    /** Where the API and the page are mounted; the page is at this path with a trailing slash. */
    private String basePath = "/baton";

    /** Whether to serve the inbox page (the API is served either way). */
    private boolean inbox = true;
    /** Whether principals limited to resources see agents' instructions and tool descriptions in {@code GET /agents}. */
    private boolean agentDetailsForRestricted;

    /** The largest request body accepted; larger ones get 413. */
    private DataSize maxBodySize = DataSize.ofKilobytes(256);

    /** How many event streams one principal may have open at once; one more is 429 too-many-streams. */
    private int maxStreamsPerPrincipal = 8;

    /**
     * Let every request in as one unrestricted principal when nothing else authenticates it. Only
     * for a server bound to loopback on a single-user machine.
     */
    private boolean anonymous;

    /**
     * Let Tomcat pass an encoded slash (%2F) in a path through to the API instead of rejecting the
     * request, so ids holding a slash can be addressed. Applies to the whole server.
     */
    private boolean allowEncodedSlash = true;

    /** Bearer tokens the API accepts ({@code Authorization: Bearer <token>}), each with its principal. */
    private List<Token> tokens = new ArrayList<>();

    /**
     * The host names the API answers to, as the {@code Host} header names them ({@code name} for any
     * port, {@code name:port}, or {@code *} for any host); any other {@code Host} gets 421.
     */
    private List<String> allowedHosts = new ArrayList<>(List.of("localhost", "127.0.0.1", "[::1]"));

    /** Origins ({@code scheme://host[:port]}) whose pages may send state-changing requests; others get 403. */
    private List<String> trustedOrigins = new ArrayList<>();

    /** Creates the settings with their defaults (Spring does). */
    public BatonHttpProperties() {
    }

    /** {@return whether to serve the HTTP API and the inbox page (default false)} */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether to serve the HTTP API and the inbox page ({@code baton.http.enabled}) */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return where the API and the page are mounted (default {@code /baton})} */
    public String getBasePath() {
        return basePath;
    }

    /** @param basePath where the API and the page are mounted ({@code baton.http.base-path}) */
    public void setBasePath(String basePath) {
        this.basePath = basePath;
    }

    /** {@return whether to serve the inbox page (default true)} */
    public boolean isInbox() {
        return inbox;
    }

    /** @param inbox whether to serve the inbox page ({@code baton.http.inbox}) */
    public void setInbox(boolean inbox) {
        this.inbox = inbox;
    }

    /** {@return whether principals limited to resources see instructions and tool descriptions (default false)} */
    public boolean isAgentDetailsForRestricted() {
        return agentDetailsForRestricted;
    }

    /** @param show whether principals limited to resources see them ({@code baton.http.agent-details-for-restricted}) */
    public void setAgentDetailsForRestricted(boolean show) {
        this.agentDetailsForRestricted = show;
    }

    /** {@return the largest request body accepted (default 256 KB)} */
    public DataSize getMaxBodySize() {
        return maxBodySize;
    }

    /** @param maxBodySize the largest request body accepted ({@code baton.http.max-body-size}) */
    public void setMaxBodySize(DataSize maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    /** {@return how many event streams one principal may have open at once (default 8)} */
    public int getMaxStreamsPerPrincipal() {
        return maxStreamsPerPrincipal;
    }

    /** @param maxStreamsPerPrincipal the bound on one principal's open event streams ({@code baton.http.max-streams-per-principal}) */
    public void setMaxStreamsPerPrincipal(int maxStreamsPerPrincipal) {
        this.maxStreamsPerPrincipal = maxStreamsPerPrincipal;
    }

    /** {@return whether an unauthenticated request is let in as one unrestricted principal (default false)} */
    public boolean isAnonymous() {
        return anonymous;
    }

    /** @param anonymous whether to let unauthenticated requests in ({@code baton.http.anonymous}; loopback only) */
    public void setAnonymous(boolean anonymous) {
        this.anonymous = anonymous;
    }

    /** {@return whether Tomcat passes an encoded slash in a path through to the API (default true)} */
    public boolean isAllowEncodedSlash() {
        return allowEncodedSlash;
    }

    /** @param allowEncodedSlash whether Tomcat passes {@code %2F} through ({@code baton.http.allow-encoded-slash}) */
    public void setAllowEncodedSlash(boolean allowEncodedSlash) {
        this.allowEncodedSlash = allowEncodedSlash;
    }

    /** {@return the bearer tokens the API accepts, each with its principal} */
    public List<Token> getTokens() {
        return tokens;
    }

    /** @param tokens the bearer tokens the API accepts ({@code baton.http.tokens[i].*}) */
    public void setTokens(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** {@return the host names the API answers to (default: localhost, 127.0.0.1, [::1], any port)} */
    public List<String> getAllowedHosts() {
        return allowedHosts;
    }

    /** @param allowedHosts the host names the API answers to ({@code baton.http.allowed-hosts}) */
    public void setAllowedHosts(List<String> allowedHosts) {
        this.allowedHosts = allowedHosts;
    }

    /** {@return the origins whose pages may send state-changing requests besides the server's own (default none)} */
    public List<String> getTrustedOrigins() {
        return trustedOrigins;
    }

    /** @param trustedOrigins origins trusted to send state-changing requests ({@code baton.http.trusted-origins}) */
    public void setTrustedOrigins(List<String> trustedOrigins) {
        this.trustedOrigins = trustedOrigins;
    }

    /** One bearer token of {@code baton.http.tokens}. */
    public static class Token {
        /** The token (at least 16 characters); take it from the environment, never from a committed file. */
        private @Nullable String token;

        /** The principal's name, shown by GET /me and in logs. */
        private @Nullable String name;

        /** The resource ids this principal may see; empty for all. */
        private Set<String> resourceIds = new LinkedHashSet<>();

        /** The roles this principal holds, which the agents' approver rules check; empty for none. */
        private Set<String> roles = new LinkedHashSet<>();

        /** Creates an empty entry (Spring does). */
        public Token() {
        }

        /** {@return the token, or null if none was given (the start fails then)} */
        public @Nullable String getToken() {
            return token;
        }

        /** @param token the token, at least 16 characters */
        public void setToken(@Nullable String token) {
            this.token = token;
        }

        /** {@return the principal's name, or null (the start fails then)} */
        public @Nullable String getName() {
            return name;
        }

        /** @param name the principal's name */
        public void setName(@Nullable String name) {
            this.name = name;
        }

        /** {@return the resource ids this principal may see; empty for all} */
        public Set<String> getResourceIds() {
            return resourceIds;
        }

        /** @param resourceIds the resource ids this principal may see; empty for all */
        public void setResourceIds(Set<String> resourceIds) {
            this.resourceIds = resourceIds;
        }

        /** {@return the roles this principal holds, which the agents' approver rules check; empty for none} */
        public Set<String> getRoles() {
            return roles;
        }

        /** @param roles the roles this principal holds, which the agents' approver rules check */
        public void setRoles(Set<String> roles) {
            this.roles = roles;
        }
    }
}
