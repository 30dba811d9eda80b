package dev.allot.identity.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import dev.allot.identity.settings.SecurityProperties;
import dev.allot.shared.security.PlatformRole;
import dev.allot.shared.security.SealingKey;
import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import tools.jackson.databind.json.JsonMapper;

/** Rotating the signing key: the new key signs, the old one verifies until the longest token lifetime passed. */
class SigningKeyRotationTests extends IntegrationTest {

    @Autowired
    SealingKey sealing;

    @Autowired
    SecurityProperties properties;

    @Test
    void aPlatformAdminRotatesTheNewKeySignsAndTokensOfTheOldKeyStillWork() {
        String before = adminToken();
        String oldKid = kid(before);

        Api.Response rotated = api.post("/api/v1/signing-keys/rotate", before, "");
        assertThat(rotated.status()).as(rotated.body()).isEqualTo(200);
        String newKid = rotated.json().get("kid").asString();
        assertThat(newKid).isNotEqualTo(oldKid);
        var previous = rotated.json().get("previous");
        assertThat(previous.get(0).get("kid").asString()).isEqualTo(oldKid);
        Instant retiresAt = Instant.parse(previous.get(0).get("retiresAt").asString());
        assertThat(retiresAt)
                .isBetween(
                        Instant.now().plus(properties.maxTokenLifetime()),
                        Instant.now().plus(properties.maxTokenLifetime()).plus(Duration.ofMinutes(2)));

        String after = api.token(ADMIN_CLIENT, ADMIN_SECRET);
        assertThat(kid(after)).isEqualTo(newKid);
        assertThat(api.get("/api/v1/me", after).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/me", before).status()).isEqualTo(200);

        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'signing_key.rotated' AND object_id = ?")
                        .param(newKid)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(jdbc.sql("SELECT jwk FROM signing_key").query(String.class).list())
                .allSatisfy(jwk -> assertThat(jwk).startsWith("v1:").doesNotContain("\"d\""));
        assertThat(jdbc.sql("SELECT count(*) FROM signing_key WHERE superseded_at IS NULL")
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void onlyAPlatformAdminRotates() {
        String tenant = newTenant();
        long keys = keyCount();
        for (String token : List.of(tenantToken(tenant, "TENANT_ADMIN"), userToken(newUser(PlatformRole.AUDITOR)))) {
            Api.Response refused = api.post("/api/v1/signing-keys/rotate", token, "");
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.contentType()).startsWith("application/problem+json");
        }
        assertThat(api.post("/api/v1/signing-keys/rotate", null, "").status()).isEqualTo(401);
        assertThat(keyCount()).isEqualTo(keys);
    }

    @Test
    void aKeySupersededLongerThanTheMaxTokenLifetimeAgoNoLongerVerifiesAndIsDeletedAtTheNextRotation()
            throws Exception {
        String admin = newUser(PlatformRole.PLATFORM_ADMIN);
        RSAKey recent = storeSupersededKey(Duration.ofMinutes(5));
        RSAKey retired = storeSupersededKey(properties.maxTokenLifetime().plus(Duration.ofMinutes(2)));

        String byRecent = sign(recent, admin);
        String byRetired = sign(retired, admin);
        // another replica's keys reach this one's cache within a second
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() ->
                        assertThat(api.get("/api/v1/me", byRecent).status()).isEqualTo(200));
        assertThat(api.get("/api/v1/me", byRetired).status()).isEqualTo(401);

        assertThat(api.post("/api/v1/signing-keys/rotate", adminToken(), "").status())
                .isEqualTo(200);
        assertThat(stored(retired.getKeyID())).as("the retired key is deleted").isZero();
        assertThat(stored(recent.getKeyID()))
                .as("the recent key still verifies")
                .isOne();
        assertThat(api.get("/api/v1/me", byRecent).status()).isEqualTo(200);
    }

    @Test
    void aPlatformAdminRetiresACompromisedKeyAndItsTokensStopWorkingAtOnce() throws Exception {
        String admin = newUser(PlatformRole.PLATFORM_ADMIN);
        RSAKey compromised = storeSupersededKey(Duration.ofMinutes(5));
        String byCompromised = sign(compromised, admin);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(api.get("/api/v1/me", byCompromised).status())
                                .isEqualTo(200));

        String path = "/api/v1/signing-keys/" + compromised.getKeyID() + "/retire";
        String tenant = newTenant();
        assertThat(api.post(path, tenantToken(tenant, "TENANT_ADMIN"), "").status())
                .isEqualTo(403);
        Api.Response retired = api.post(path, adminToken(), "");
        assertThat(retired.status()).as(retired.body()).isEqualTo(200);
        assertThat(retired.json().get("kid").asString()).isEqualTo(compromised.getKeyID());
        assertThat(retired.json().get("signingKid").asString()).isEqualTo(kid(adminToken()));

        // without waiting for the key's lifetime (it had 55 minutes left)
        assertThat(api.get("/api/v1/me", byCompromised).status()).isEqualTo(401);
        assertThat(stored(compromised.getKeyID())).isZero();
        assertThat(api.get("/api/v1/me", adminToken()).status()).isEqualTo(200);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'signing_key.retired' AND object_id = ?")
                        .param(compromised.getKeyID())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(api.post(path, adminToken(), "").status()).as("gone").isEqualTo(404);
    }

    private RSAKey storeSupersededKey(Duration ago) throws Exception {
        RSAKey key =
                new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
        jdbc.sql("""
				INSERT INTO signing_key (kid, jwk, created_at, superseded_at)
				VALUES (?, ?, now() - interval '1 day', now() - ? * interval '1 second')""")
                .params(
                        key.getKeyID(),
                        sealing.seal("signing_key:" + key.getKeyID(), key.toJSONString()),
                        ago.toSeconds())
                .update();
        return key;
    }

    private String sign(RSAKey key, String subject) {
        Instant now = Instant.now();
        JwtClaimsSet claims = JwtClaimsSet.builder()
                .issuer(api.baseUrl())
                .subject(subject)
                .issuedAt(now.minus(1, ChronoUnit.MINUTES))
                .expiresAt(now.plus(5, ChronoUnit.MINUTES))
                .build();
        return new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(key)))
                .encode(JwtEncoderParameters.from(
                        JwsHeader.with(SignatureAlgorithm.RS256)
                                .type("at+jwt")
                                .keyId(key.getKeyID())
                                .build(),
                        claims))
                .getTokenValue();
    }

    private long keyCount() {
        return jdbc.sql("SELECT count(*) FROM signing_key").query(Long.class).single();
    }

    private long stored(String kid) {
        return jdbc.sql("SELECT count(*) FROM signing_key WHERE kid = ?")
                .param(kid)
                .query(Long.class)
                .single();
    }

    static String kid(String token) {
        String header = new String(
                Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))), StandardCharsets.UTF_8);
        return JsonMapper.builder().build().readTree(header).get("kid").asString();
    }
}
