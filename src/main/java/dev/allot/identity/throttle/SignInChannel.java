package dev.allot.identity.throttle;

/** Where a sign-in happens, and so which kind of account it names. */
public enum SignInChannel {

    /** The login form: a user by username. */
    USER("user"),

    /** Client authentication at {@code /oauth2/token} (and the other client endpoints): a client by id. */
    CLIENT("client"),

    /** A browser sign-in through an external OIDC issuer: a user by the issuer's subject. */
    EXTERNAL("external");

    private final String key;

    SignInChannel(String key) {
        this.key = key;
    }

    String key() {
        return key;
    }
}
