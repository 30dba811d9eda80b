package dev.allot.identity.api;

import dev.allot.identity.keys.SigningKeyRotation;
import dev.allot.shared.security.Caller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Platform admins rotate the token signing key, or retire one at once; see {@link SigningKeyRotation}. */
@RestController
class SigningKeysController {

    private final SigningKeyRotation rotation;

    SigningKeysController(SigningKeyRotation rotation) {
        this.rotation = rotation;
    }

    @PostMapping("/api/v1/signing-keys/rotate")
    SigningKeyRotation.SigningKeyRotated rotate(Caller caller) {
        return rotation.rotate(caller);
    }

    @PostMapping("/api/v1/signing-keys/{kid}/retire")
    SigningKeyRotation.SigningKeyRetired retire(Caller caller, @PathVariable String kid) {
        return rotation.retire(caller, kid);
    }
}
