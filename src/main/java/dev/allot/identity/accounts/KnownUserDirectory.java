package dev.allot.identity.accounts;

import dev.allot.tenancy.KnownUsers;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Users of Allot's own issuer, and those an external issuer has signed in here (linked at their first sign-in). */
@Component
class KnownUserDirectory implements KnownUsers {

    private final UserRepository users;

    private final JdbcClient jdbc;

    KnownUserDirectory(UserRepository users, JdbcClient jdbc) {
        this.users = users;
        this.jdbc = jdbc;
    }

    @Override
    public boolean exists(String username) {
        return users.find(username).isPresent()
                || jdbc.sql("SELECT EXISTS (SELECT 1 FROM external_identity WHERE username = ?)")
                        .param(username)
                        .query(Boolean.class)
                        .single();
    }
}
