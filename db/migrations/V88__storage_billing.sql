-- quota: a rate card's storage line, the price of one GiB held for a month (730 hours), for volumes booked with
-- reservations of its GPU type; 0 (the default for existing cards) bills storage at nothing.
ALTER TABLE rate_card ADD COLUMN storage_gi_month numeric(14, 4) NOT NULL DEFAULT 0 CHECK (storage_gi_month >= 0);

-- billing: storage postings (per volume and UTC day, key 'storage:<volume>:<day>') and their ledger line.
ALTER TABLE ledger_transaction DROP CONSTRAINT ledger_transaction_kind_check,
    ADD CONSTRAINT ledger_transaction_kind_check CHECK (kind IN ('USAGE', 'CANCELLATION_FEE', 'REVERSAL', 'STORAGE'));
ALTER TABLE ledger_entry DROP CONSTRAINT ledger_entry_line_check,
    ADD CONSTRAINT ledger_entry_line_check CHECK (line IN ('USAGE', 'CREDIT', 'FEE', 'STORAGE'));

-- billing: up to which day (exclusive, UTC) each volume's storage is metered, so a run starts where the last ended.
CREATE TABLE storage_metering (
    volume_id     uuid PRIMARY KEY REFERENCES volume (id),
    metered_until date NOT NULL
);
