package dev.allot.identity.accounts;

import dev.allot.shared.PageQuery;
import dev.allot.shared.security.PlatformRole;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Repository;

/** Users of Allot's own issuer, with bcrypt password hashes. */
@Repository
public class UserRepository implements UserDetailsService {

    private final JdbcClient jdbc;

    UserRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<UserAccount> find(String username) {
        return jdbc.sql("SELECT * FROM app_user WHERE username = ?")
                .param(username)
                .query(UserRepository::map)
                .optional();
    }

    public List<UserAccount> page(PageQuery page) {
        return jdbc.sql("SELECT * FROM app_user ORDER BY username LIMIT ? OFFSET ?")
                .params(page.size(), page.offset())
                .query(UserRepository::map)
                .list();
    }

    public long count() {
        return jdbc.sql("SELECT count(*) FROM app_user").query(Long.class).single();
    }

    /** Inserts unless the username is taken; answers whether it inserted. */
    public boolean insert(UserAccount user) {
        return jdbc.sql("""
				INSERT INTO app_user (id, username, display_name, password_hash, platform_roles, enabled)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (username) DO NOTHING""")
                        .params(
                                user.id(),
                                user.username(),
                                user.displayName(),
                                user.passwordHash(),
                                user.platformRoles().stream().map(Enum::name).toArray(String[]::new),
                                user.enabled())
                        .update()
                == 1;
    }

    @Override
    public UserDetails loadUserByUsername(String username) {
        // the name the sign-in throttle counted: no other spelling of it reaches the password check
        UserAccount user =
                find(Usernames.normalize(username)).orElseThrow(() -> new UsernameNotFoundException("No such user"));
        return User.withUsername(user.username())
                .password(user.passwordHash())
                .disabled(!user.enabled())
                .authorities(AuthorityUtils.NO_AUTHORITIES)
                .build();
    }

    private static UserAccount map(ResultSet rs, int row) throws SQLException {
        Array roles = rs.getArray("platform_roles");
        Set<PlatformRole> platformRoles = Arrays.stream((String[]) roles.getArray())
                .map(PlatformRole::valueOf)
                .collect(Collectors.toSet());
        return new UserAccount(
                rs.getObject("id", UUID.class),
                rs.getString("username"),
                rs.getString("display_name"),
                rs.getString("password_hash"),
                platformRoles,
                rs.getBoolean("enabled"));
    }
}
