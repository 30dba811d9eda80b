package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.MeApi;
import dev.allot.client.model.Me;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Checks the client credentials against the token endpoint and stores them (mode 0600) with the tenant the
 * service account belongs to, so that later commands need no options to sign in.
 */
@Command(name = "login", description = "Sign in with a service account's client credentials and store them.")
class LoginCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Option(names = "--url", required = true, description = "Allot's base URL, e.g. https://allot.example.com")
    String url;

    @Option(names = "--client-id", required = true)
    String clientId;

    @Option(
            names = "--client-secret",
            description = "The secret (default: $ALLOT_CLIENT_SECRET; an option is visible to other users in ps).")
    String clientSecret;

    @Override
    public Integer call() throws ApiException {
        String secret = this.clientSecret != null ? this.clientSecret : System.getenv("ALLOT_CLIENT_SECRET");
        if (secret == null || secret.isBlank()) {
            throw new CliFailure(ExitCodes.BAD_INPUT, "no secret: pass --client-secret or set ALLOT_CLIENT_SECRET");
        }
        Tokens.Token token = Tokens.fetch(this.url, this.clientId, secret);
        Credentials signedIn =
                new Credentials(this.url, this.clientId, secret, this.session.tenant, token.value(), token.expiresAt());
        signedIn.write(this.session.configFile());
        Me me = new MeApi(this.session.client()).getMe();
        String tenant = this.session.tenant;
        if (tenant == null && me.getTenants() != null && me.getTenants().size() == 1) {
            tenant = me.getTenants().getFirst().getTenant();
        }
        new Credentials(this.url, this.clientId, secret, tenant, token.value(), token.expiresAt())
                .write(this.session.configFile());
        if (this.session.json()) {
            this.session.printJson(me);
        } else {
            this.session.println("Signed in as " + me.getSubject() + (tenant != null ? " (tenant " + tenant + ")" : "")
                    + "; credentials in " + this.session.configFile() + ", token valid until "
                    + token.expiresAt().truncatedTo(ChronoUnit.SECONDS));
        }
        return ExitCodes.OK;
    }
}
