package dev.allot;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Two database roles: migrations run as the owner of the schema ({@code spring.flyway.user}), the application
 * connects as a role that may only read and write rows ({@code spring.datasource.username}). After every
 * migration run the owner grants that role {@code SELECT, INSERT, UPDATE, DELETE} on every table and the use
 * of every sequence, nothing else: it cannot alter or drop a table, truncate one or disable a trigger, so
 * the append-only audit trail and the balanced ledger hold even against the application's own credentials.
 * When both are the same role (a single-role setup) there is nothing to grant, and the start warns.
 */
@Component
class DatabaseRoles implements Callback {

    private static final Logger log = LoggerFactory.getLogger(DatabaseRoles.class);

    private static final Pattern ROLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]{0,62}");

    private final ObjectProvider<DataSource> application;

    DatabaseRoles(ObjectProvider<DataSource> application) {
        this.application = application;
    }

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.AFTER_MIGRATE;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        try {
            String appRole = applicationRole();
            Connection owner = context.getConnection();
            String schema = owner.getSchema();
            String ownerRole = currentRole(owner);
            if (appRole.equals(ownerRole)) {
                log.warn(
                        "The application connects to the database as {}, the role that owns its tables: a leak of "
                                + "its credentials could alter tables or disable the audit trail's triggers. Set "
                                + "spring.flyway.user to the owner and spring.datasource.username to a role that only reads "
                                + "and writes rows (README, Configuration).",
                        appRole);
                return;
            }
            if (!ROLE.matcher(appRole).matches() || !ROLE.matcher(schema).matches()) {
                throw new IllegalStateException("Unexpected role or schema name: " + appRole + ", " + schema);
            }
            try (Statement grant = owner.createStatement()) {
                grant.execute("GRANT USAGE ON SCHEMA \"" + schema + "\" TO \"" + appRole + "\"");
                grant.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \"" + schema + "\" TO \""
                        + appRole + "\"");
                grant.execute(
                        "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA \"" + schema + "\" TO \"" + appRole + "\"");
            }
            log.info(
                    "Database role {} may read and write the rows of schema {}; {} owns it",
                    appRole,
                    schema,
                    ownerRole);
        } catch (SQLException ex) {
            throw new IllegalStateException("Could not grant the application's database role its rights", ex);
        }
    }

    @Override
    public String getCallbackName() {
        return "allot-database-roles";
    }

    private String applicationRole() throws SQLException {
        try (Connection connection = this.application.getObject().getConnection()) {
            return currentRole(connection);
        }
    }

    private static String currentRole(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet role = statement.executeQuery("SELECT current_user")) {
            role.next();
            return role.getString(1);
        }
    }
}
