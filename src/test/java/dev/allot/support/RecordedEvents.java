package dev.allot.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Domain events the application published, as tests observe them (synchronously, inside their transaction). */
@Component
public class RecordedEvents {

    private final List<Object> events = new CopyOnWriteArrayList<>();

    @EventListener
    void on(Object event) {
        if (event.getClass().getPackageName().startsWith("dev.allot.")) {
            events.add(event);
        }
    }

    public <T> List<T> ofType(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
