-- billing: the double-entry ledger. Money is numeric with a currency; PostgreSQL refuses an unbalanced
-- transaction (checked at commit), any change or removal of a posted row, and any posting into a closed month.

-- Accounts: one receivable per tenant and currency (what it owes), one per revenue class, and contra-revenue
-- accounts for credits. Debits are positive amounts, credits negative.
CREATE TABLE ledger_account (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code      text NOT NULL CHECK (code ~ '^[a-z][a-z0-9_:.-]{1,120}$'),
    kind      text NOT NULL CHECK (kind IN ('RECEIVABLE', 'REVENUE', 'CONTRA_REVENUE')),
    tenant_id uuid REFERENCES tenant (id),
    currency  text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    UNIQUE (code, currency),
    UNIQUE (id, currency),
    CHECK ((kind = 'RECEIVABLE') = (tenant_id IS NOT NULL))
);

-- A statement month: postings take a share lock on its row, closing takes an exclusive one, so no posting can
-- slip into a month while it closes.
CREATE TABLE ledger_month (
    month     date PRIMARY KEY CHECK (extract(day FROM month) = 1),
    closed_at timestamptz
);

CREATE TABLE ledger_transaction (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id   uuid NOT NULL REFERENCES tenant (id),
    kind        text NOT NULL CHECK (kind IN ('USAGE', 'CANCELLATION_FEE', 'REVERSAL')),
    -- exactly-once key of what caused the posting ('usage:<reservation>:<hour>', 'reversal:<id>', ...)
    posting_key text NOT NULL UNIQUE CHECK (length(posting_key) BETWEEN 1 AND 200),
    month       date NOT NULL REFERENCES ledger_month (month),
    posted_at   timestamptz NOT NULL,
    description text NOT NULL CHECK (length(description) BETWEEN 1 AND 500),
    reverses    bigint UNIQUE REFERENCES ledger_transaction (id),
    reason      text CHECK (length(reason) BETWEEN 1 AND 500),
    actor       text,
    CHECK ((kind = 'REVERSAL') = (reverses IS NOT NULL)),
    CHECK (kind <> 'REVERSAL' OR (reason IS NOT NULL AND actor IS NOT NULL))
);
CREATE INDEX ledger_transaction_tenant ON ledger_transaction (tenant_id, id);
CREATE INDEX ledger_transaction_month ON ledger_transaction (tenant_id, month);

-- The dimensions (reservation, project, GPU type, rate class, hour) ride on the entries so that statements and
-- reports read the ledger itself: a statement cannot disagree with the entries it sums.
CREATE TABLE ledger_entry (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id bigint NOT NULL REFERENCES ledger_transaction (id),
    account_id     bigint NOT NULL,
    currency       text   NOT NULL,
    amount         numeric(18, 4) NOT NULL,
    line           text   NOT NULL CHECK (line IN ('USAGE', 'CREDIT', 'FEE')),
    reservation_id uuid,
    project        text,
    gpu_type       text,
    rate_class     text CHECK (rate_class IN ('RESERVED', 'BORROWED', 'ON_DEMAND')),
    period_start   timestamptz,
    gpu_seconds    bigint,
    unit_price     numeric(14, 4),
    FOREIGN KEY (account_id, currency) REFERENCES ledger_account (id, currency)
);
CREATE INDEX ledger_entry_transaction ON ledger_entry (transaction_id);
CREATE INDEX ledger_entry_account ON ledger_entry (account_id, transaction_id);
CREATE INDEX ledger_entry_reservation ON ledger_entry (reservation_id) WHERE reservation_id IS NOT NULL;

CREATE FUNCTION ledger_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused; post a reversing transaction instead', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER ledger_entry_append_only BEFORE UPDATE OR DELETE ON ledger_entry
    FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();
CREATE TRIGGER ledger_entry_no_truncate BEFORE TRUNCATE ON ledger_entry
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_is_append_only();
CREATE TRIGGER ledger_transaction_append_only BEFORE UPDATE OR DELETE ON ledger_transaction
    FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();
CREATE TRIGGER ledger_transaction_no_truncate BEFORE TRUNCATE ON ledger_transaction
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_is_append_only();

-- Checked at commit, once every entry of the transaction is in: it has entries and sums to zero per currency.
CREATE FUNCTION ledger_check_balanced(tx bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    bad record;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM ledger_entry WHERE transaction_id = tx) THEN
        RAISE EXCEPTION 'ledger transaction % has no entries', tx USING ERRCODE = 'check_violation';
    END IF;
    SELECT currency, sum(amount) AS total INTO bad FROM ledger_entry WHERE transaction_id = tx
        GROUP BY currency HAVING sum(amount) <> 0 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger transaction % does not balance: its % entries sum to %', tx, bad.currency, bad.total
            USING ERRCODE = 'check_violation';
    END IF;
END $$;

CREATE FUNCTION ledger_entry_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM ledger_check_balanced(NEW.transaction_id);
    RETURN NULL;
END $$;

CREATE FUNCTION ledger_transaction_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM ledger_check_balanced(NEW.id);
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER ledger_entry_balanced AFTER INSERT ON ledger_entry
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_balances();
CREATE CONSTRAINT TRIGGER ledger_transaction_has_entries AFTER INSERT ON ledger_transaction
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balances();

-- A posting share-locks its month's row; a closed month takes nothing more.
CREATE FUNCTION ledger_month_is_open() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    closed timestamptz;
BEGIN
    INSERT INTO ledger_month (month) VALUES (NEW.month) ON CONFLICT DO NOTHING;
    SELECT closed_at INTO closed FROM ledger_month WHERE month = NEW.month FOR SHARE;
    IF closed IS NOT NULL THEN
        RAISE EXCEPTION 'month % is closed: post into an open month with a reference', to_char(NEW.month, 'YYYY-MM')
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER ledger_transaction_open_month BEFORE INSERT ON ledger_transaction
    FOR EACH ROW EXECUTE FUNCTION ledger_month_is_open();

-- A closed month stays closed.
CREATE FUNCTION ledger_month_stays_closed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' OR OLD.closed_at IS NOT NULL THEN
        RAISE EXCEPTION 'month % is closed for good', to_char(OLD.month, 'YYYY-MM') USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER ledger_month_closed_for_good BEFORE UPDATE OR DELETE ON ledger_month
    FOR EACH ROW EXECUTE FUNCTION ledger_month_stays_closed();
