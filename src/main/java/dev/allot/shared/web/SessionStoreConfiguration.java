package dev.allot.shared.web;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.session.config.SessionRepositoryCustomizer;
import org.springframework.session.jdbc.JdbcIndexedSessionRepository;
import org.springframework.session.jdbc.PostgreSqlJdbcIndexedSessionRepositoryCustomizer;

/**
 * Browser sessions in PostgreSQL, stored so that a copy of the database signs nobody in: the cookie carries the
 * session id, the table only its SHA-256 ({@code spring_session.session_id}, computed by PostgreSQL in each
 * query below). A session read back takes its id from the cookie that asked for it, never from the row. (The
 * clear id was the cookie's value: read from a copy of the table and sent as the cookie, it signed in as a
 * platform admin.)
 * <p>
 * Attributes are written with an upsert: two requests of one session that add the same attribute at once (a
 * double-clicked form, each answered with a flash message) would otherwise both INSERT it, and the second would
 * fail with a duplicate key after its work was done.
 */
@Configuration(proxyBeanMethods = false)
class SessionStoreConfiguration {

    /** The stored form of a session id given as the query's parameter. */
    static final String HASHED = "encode(sha256(convert_to(CAST(? AS text), 'UTF8')), 'hex')";

    @Bean
    PostgreSqlJdbcIndexedSessionRepositoryCustomizer upsertSessionAttributes() {
        return new PostgreSqlJdbcIndexedSessionRepositoryCustomizer();
    }

    @Bean
    SessionRepositoryCustomizer<JdbcIndexedSessionRepository> hashedSessionIds() {
        return sessions -> {
            sessions.setCreateSessionQuery("""
					INSERT INTO %TABLE_NAME% (PRIMARY_ID, SESSION_ID, CREATION_TIME, LAST_ACCESS_TIME,
					    MAX_INACTIVE_INTERVAL, EXPIRY_TIME, PRINCIPAL_NAME)
					VALUES (?, $, ?, ?, ?, ?, ?)
					""".replace("$", HASHED));
            sessions.setUpdateSessionQuery("""
					UPDATE %TABLE_NAME%
					SET SESSION_ID = $, LAST_ACCESS_TIME = ?, MAX_INACTIVE_INTERVAL = ?, EXPIRY_TIME = ?,
					    PRINCIPAL_NAME = ?
					WHERE PRIMARY_ID = ?
					""".replace("$", HASHED));
            sessions.setGetSessionQuery("""
					SELECT S.PRIMARY_ID, Q.CLEAR_ID AS SESSION_ID, S.CREATION_TIME, S.LAST_ACCESS_TIME,
					    S.MAX_INACTIVE_INTERVAL, SA.ATTRIBUTE_NAME, SA.ATTRIBUTE_BYTES
					FROM (SELECT CAST(? AS text) AS CLEAR_ID) Q
					JOIN %TABLE_NAME% S ON S.SESSION_ID = encode(sha256(convert_to(Q.CLEAR_ID, 'UTF8')), 'hex')
					LEFT JOIN %TABLE_NAME%_ATTRIBUTES SA ON S.PRIMARY_ID = SA.SESSION_PRIMARY_ID
					""");
            sessions.setDeleteSessionQuery("""
					DELETE FROM %TABLE_NAME%
					WHERE SESSION_ID = $
					AND MAX_INACTIVE_INTERVAL >= 0
					""".replace("$", HASHED));
        };
    }
}
