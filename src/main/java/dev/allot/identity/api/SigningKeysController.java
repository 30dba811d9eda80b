package dev.allot.identity.api;

import dev.allot.identity.SigningKeyRotation;
import dev.allot.shared.security.Caller;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Platform admins rotate the token signing key; see {@link SigningKeyRotation}. */
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

}
