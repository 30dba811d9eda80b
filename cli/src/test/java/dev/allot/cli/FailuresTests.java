package dev.allot.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FailuresTests {

    @Test
    void onlyCapacityNotAvailableIsNoCapacity() {
        assertEquals(ExitCodes.NO_CAPACITY, Failures.exitCode(409, "capacity_not_available"));
        assertEquals(ExitCodes.FAILED, Failures.exitCode(409, "conflict"));
    }

    @Test
    void every422IsAQuotaOrBudgetRefusal() {
        assertEquals(ExitCodes.QUOTA, Failures.exitCode(422, "quota_exceeded"));
        assertEquals(ExitCodes.QUOTA, Failures.exitCode(422, "budget_exceeded"));
    }

    @Test
    void authenticationAndBadInputAndTheRest() {
        assertEquals(ExitCodes.AUTH, Failures.exitCode(401, ""));
        assertEquals(ExitCodes.AUTH, Failures.exitCode(403, "forbidden"));
        assertEquals(ExitCodes.BAD_INPUT, Failures.exitCode(400, "validation_failed"));
        assertEquals(ExitCodes.BAD_INPUT, Failures.exitCode(404, "not_found"));
        assertEquals(ExitCodes.FAILED, Failures.exitCode(503, ""));
    }
}
