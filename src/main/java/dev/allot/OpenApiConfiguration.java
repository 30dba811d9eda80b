package dev.allot;

import java.util.List;

import dev.allot.shared.security.Caller;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.security.OAuthFlow;
import io.swagger.v3.oas.models.security.OAuthFlows;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.utils.SpringDocUtils;
import tools.jackson.databind.JsonNode;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the served OpenAPI document says about Allot as a whole. The committed {@code openapi.yaml} is the
 * contract; {@code OpenApiContractTests} fails when the served API and the file differ.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

	static {
		// The caller comes from the token, not from the request's parameters.
		SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class);
		// Free-form JSON (audit before/after) is an object, not Jackson's node class.
		SpringDocUtils.getConfig().replaceWithSchema(JsonNode.class, new ObjectSchema());
	}

	@Bean
	OpenAPI allotOpenApi() {
		SecurityScheme clientCredentials = new SecurityScheme().type(SecurityScheme.Type.OAUTH2)
			.description("A service account's client id and secret, exchanged at POST /oauth2/token for a JWT")
			.flows(new OAuthFlows().clientCredentials(new OAuthFlow().tokenUrl("/oauth2/token")));
		SecurityScheme bearer = new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT");
		return new OpenAPI()
			.info(new Info().title("Allot API")
				.version("v1")
				.description("Book dedicated GPU nodes from a shared fleet, get an isolated cluster, pay for what you "
						+ "used. Errors are RFC 9457 problems (application/problem+json) with a stable type."))
			.components(new Components().addSecuritySchemes("clientCredentials", clientCredentials)
				.addSecuritySchemes("bearer", bearer))
			.servers(List.of(new Server().url("/").description("this Allot")))
			.addSecurityItem(new SecurityRequirement().addList("bearer"));
	}

}
