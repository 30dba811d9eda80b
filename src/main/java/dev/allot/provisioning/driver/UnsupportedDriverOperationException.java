package dev.allot.provisioning.driver;

/** This adapter does not offer the operation; ask {@link ClusterDriver#supportsHealthChecks()} first. */
public class UnsupportedDriverOperationException extends ClusterDriverException {

    public UnsupportedDriverOperationException(String driver, String operation) {
        super(driver + " driver does not support " + operation, false, null);
    }
}
