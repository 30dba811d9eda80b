-- booking and inventory (issue 32): booking's events moved from the module's root package to
-- dev.allot.booking.events, and the booking queue to dev.allot.booking.queue. The event publication registry names
-- each event by its class and each listener by its method, parameter classes included: a publication still
-- outstanding at the upgrade (republished at the restart) is renamed here, else Spring Modulith would skip it as an
-- event of an unknown type. Completed publications are deleted (completion-mode: delete), so only outstanding ones
-- are touched.
UPDATE event_publication
SET event_type = regexp_replace(event_type,
        '^dev\.allot\.booking\.(Reservation(AwaitsApproval|Cancelled|Confirmed|Decided|Dequeued|Extended|Failed|Preempted|Queued)|RetainedVolumeDeleted)$',
        'dev.allot.booking.events.\1'),
    listener_id = regexp_replace(regexp_replace(listener_id,
        'dev\.allot\.booking\.(Reservation(AwaitsApproval|Cancelled|Confirmed|Decided|Dequeued|Extended|Failed|Preempted|Queued)|RetainedVolumeDeleted)\M',
        'dev.allot.booking.events.\1', 'g'),
        '^dev\.allot\.booking\.BookingQueue\.', 'dev.allot.booking.queue.BookingQueue.')
WHERE event_type LIKE 'dev.allot.booking.%' OR listener_id LIKE '%dev.allot.booking.%';

-- inventory's events moved the same way, to dev.allot.inventory.events (the listeners that take them name them too)
UPDATE event_publication
SET event_type = regexp_replace(event_type,
        '^dev\.allot\.inventory\.(NodeAdded|NodeStateChanged|PoolSparesChanged)$', 'dev.allot.inventory.events.\1'),
    listener_id = regexp_replace(listener_id,
        'dev\.allot\.inventory\.(NodeAdded|NodeStateChanged|PoolSparesChanged)\M', 'dev.allot.inventory.events.\1', 'g')
WHERE event_type LIKE 'dev.allot.inventory.%' OR listener_id LIKE '%dev.allot.inventory.%';
