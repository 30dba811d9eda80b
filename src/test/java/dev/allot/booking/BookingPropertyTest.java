package dev.allot.booking;

import dev.allot.support.Api;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.springframework.test.context.TestContextManager;

/**
 * Property tests over the whole application: jqwik runs the tries, and Spring's test context (the one the other
 * integration tests share) is prepared by hand, since jqwik is not a JUnit Jupiter extension host.
 */
abstract class BookingPropertyTest extends BookingFixture {

    @BeforeProperty
    void prepare() throws Exception {
        new TestContextManager(getClass()).prepareTestInstance(this);
        api = new Api(port);
    }
}
