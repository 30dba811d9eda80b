package dev.allot;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** Says where to go once Allot is ready. */
@Component
class StartupBanner implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(StartupBanner.class);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        Environment env = event.getApplicationContext().getEnvironment();
        String configured = env.getProperty("allot.security.public-url", "");
        String base = configured.isBlank() ? "http://127.0.0.1:" + env.getProperty("local.server.port") : configured;
        base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        log.info("""

				Allot is ready.
				  Web UI          {}/
				  API             {}/api/v1   (tokens: POST {}/oauth2/token)
				  API docs        {}/swagger-ui.html   (OpenAPI: {}/v3/api-docs)
				  Health          {}/actuator/health
				  Metrics         {}/actuator/prometheus   (bearer: the scrape token of ALLOT_METRICS_TOKEN_SHA256)
				""", base, base, base, base, base, base, base);
    }
}
