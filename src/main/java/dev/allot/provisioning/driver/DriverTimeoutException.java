package dev.allot.provisioning.driver;

import java.time.Duration;

/** The operation did not finish in time. It may still complete on the infrastructure: repeat it, it is idempotent. */
public class DriverTimeoutException extends ClusterDriverException {

    public DriverTimeoutException(String operation, Duration limit) {
        super(operation + " did not finish within " + limit, true, null);
    }
}
