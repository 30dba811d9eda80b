package dev.allot.identity;

import dev.allot.shared.security.Caller;
import java.util.ArrayList;
import java.util.List;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/** A bearer token authenticated as a {@link Caller}; the role authorities are for logs and metrics. */
class CallerAuthentication extends JwtAuthenticationToken {

    private final Caller caller;

    CallerAuthentication(Jwt jwt, Caller caller) {
        super(jwt, authorities(caller), caller.subject());
        this.caller = caller;
    }

    @Override
    public Object getPrincipal() {
        return caller;
    }

    private static List<GrantedAuthority> authorities(Caller caller) {
        List<GrantedAuthority> authorities = new ArrayList<>();
        caller.platformRoles().forEach(role -> authorities.add(new SimpleGrantedAuthority("ROLE_" + role.name())));
        return authorities;
    }
}
