package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A principal is an immutable value: built by its factories or its builder, validated in {@code build()}. */
class PrincipalTest {

    @Test
    void anUnrestrictedPrincipalMayAccessEveryRunIncludingOnesWithoutAResource() {
        Principal admin = Principal.unrestricted("admin");
        assertThat(admin.name()).isEqualTo("admin");
        assertThat(admin.resourceIds()).isNull();
        assertThat(admin.isRestricted()).isFalse();
        assertThat(admin.mayAccess("alice")).isTrue();
        assertThat(admin.mayAccess(null)).isTrue();
    }

    @Test
    void aRestrictedPrincipalMayAccessOnlyRunsOfItsResources() {
        Principal p = Principal.limitedTo("team", "globex", "acme");
        assertThat(p.isRestricted()).isTrue();
        assertThat(p.resourceIds()).containsExactly("acme", "globex");
        assertThat(p.mayAccess("acme")).isTrue();
        assertThat(p.mayAccess("initech")).isFalse();
        assertThat(p.mayAccess(null)).isFalse();
    }

    @Test
    void theBuilderAndTheFactoriesMakeEqualPrincipals() {
        Principal built = Principal.builder().name("team").resourceIds(List.of("acme", "globex", "acme")).build();
        assertThat(built).isEqualTo(Principal.limitedTo("team", "globex", "acme"));
        assertThat(built.hashCode()).isEqualTo(Principal.limitedTo("team", "acme", "globex").hashCode());
        assertThat(Principal.builder().name("admin").build()).isEqualTo(Principal.unrestricted("admin"));
        assertThat(built).isNotEqualTo(Principal.unrestricted("team"));
        assertThat(built.toString()).isEqualTo("Principal[name=team, resourceIds=[acme, globex], roles=[]]");
    }

    @Test
    void toBuilderMakesAChangedCopyAndLeavesTheOriginalAsItWas() {
        Principal alice = Principal.limitedTo("alice", "alice");
        Principal admin = alice.toBuilder().name("alice-admin").resourceIds(null).build();
        assertThat(admin).isEqualTo(Principal.unrestricted("alice-admin"));
        assertThat(alice).isEqualTo(Principal.limitedTo("alice", "alice"));
        assertThat(alice.toBuilder().build()).isEqualTo(alice);
    }

    @Test
    void theResourceIdsAreACopyThatCannotBeChanged() {
        List<String> ids = new ArrayList<>(List.of("acme"));
        Principal p = Principal.limitedTo("team", ids);
        ids.add("globex");
        assertThat(p.resourceIds()).containsExactly("acme");
        assertThatThrownBy(() -> p.resourceIds().add("globex")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anEmptySetOfResourceIdsIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> Principal.limitedTo("nobody", List.of()))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("resourceIds"))
                .hasMessageContaining("at least one resource id");
        assertThatThrownBy(() -> Principal.limitedTo("nobody"))
                .isInstanceOf(InvalidOptionException.class);
    }

    @Test
    void aPrincipalWithoutANameIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> Principal.builder().resourceIds(List.of("acme")).build())
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("name"));
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> Principal.builder().name("team").resourceIds(withNull))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("resourceIds"));
    }

    @Test
    void rolesAreEmptyByDefaultSortedCopiedAndPartOfEquality() {
        assertThat(Principal.unrestricted("maria").roles()).isEmpty();
        List<String> roles = new ArrayList<>(List.of("travel", "finance", "travel"));
        Principal maria = Principal.builder().name("maria").roles(roles).build();
        roles.add("admin");
        assertThat(maria.roles()).containsExactly("finance", "travel");
        assertThatThrownBy(() -> maria.roles().add("admin")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(maria).isNotEqualTo(Principal.unrestricted("maria"));
        assertThat(maria).isEqualTo(Principal.builder().name("maria").roles(List.of("travel", "finance")).build());
        assertThat(maria.hashCode()).isEqualTo(Principal.builder().name("maria").roles(List.of("finance", "travel")).build().hashCode());
        assertThat(maria.toString()).isEqualTo("Principal[name=maria, resourceIds=null, roles=[finance, travel]]");
        assertThat(maria.toBuilder().build()).isEqualTo(maria);
        assertThat(maria.toBuilder().roles(List.of()).build()).isEqualTo(Principal.unrestricted("maria"));
    }

    @Test
    void aBlankOrNullRoleIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> Principal.builder().name("maria").roles(List.of(" ")))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("roles"));
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> Principal.builder().name("maria").roles(withNull))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("roles"));
    }
}
