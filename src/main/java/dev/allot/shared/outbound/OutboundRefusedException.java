package dev.allot.shared.outbound;

/**
 * A URL the outbound policy refuses. The message says why in words a tenant may read when saving the URL (it
 * names no address the host resolved to); {@link #detail()} adds what an admin needs, for the log only.
 */
public class OutboundRefusedException extends RuntimeException {

	private final String detail;

	OutboundRefusedException(String reason, String detail) {
		super(reason, null, false, false);
		this.detail = detail;
	}

	public String detail() {
		return detail;
	}

}
