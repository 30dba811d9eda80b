package dev.allot.demo;

import java.time.Clock;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

/**
 * Where the demo is seeded, the application's clock is a {@link DemoClock}: the real clock, which the demo rewinds
 * only while it replays its history at the first start.
 */
@Component
@ConditionalOnExpression(DemoData.ENABLED)
class DemoClockInstaller implements BeanPostProcessor {

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        return "clock".equals(beanName) && bean instanceof Clock real && !(bean instanceof DemoClock)
                ? new DemoClock(real)
                : bean;
    }
}
