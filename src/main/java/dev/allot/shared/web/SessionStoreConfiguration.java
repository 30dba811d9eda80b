package dev.allot.shared.web;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.session.jdbc.PostgreSqlJdbcIndexedSessionRepositoryCustomizer;

/**
 * Sessions in PostgreSQL write their attributes with an upsert: two requests of one session that add the same
 * attribute at once (a double-clicked form, each answered with a flash message) would otherwise both INSERT it,
 * and the second would fail with a duplicate key after its work was done.
 */
@Configuration(proxyBeanMethods = false)
class SessionStoreConfiguration {

	@Bean
	PostgreSqlJdbcIndexedSessionRepositoryCustomizer upsertSessionAttributes() {
		return new PostgreSqlJdbcIndexedSessionRepositoryCustomizer();
	}

}
