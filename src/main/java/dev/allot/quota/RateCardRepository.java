package dev.allot.quota;

import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Rate cards per GPU type, each in effect from its day on. */
@Repository
class RateCardRepository {

    private final JdbcClient jdbc;

    RateCardRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<RateCard> rateCardAt(UUID gpuTypeId, String gpuType, LocalDate day) {
        return jdbc.sql("SELECT * FROM rate_card WHERE gpu_type_id = ? AND effective_from <= ? "
                        + "ORDER BY effective_from DESC LIMIT 1")
                .params(gpuTypeId, day)
                .query((rs, n) -> rateCard(rs, gpuType))
                .optional();
    }

    List<RateCard> rateCards(UUID gpuTypeId, String gpuType) {
        return jdbc.sql("SELECT * FROM rate_card WHERE gpu_type_id = ? ORDER BY effective_from")
                .param(gpuTypeId)
                .query((rs, n) -> rateCard(rs, gpuType))
                .list();
    }

    void upsert(UUID gpuTypeId, RateCard card) {
        jdbc.sql("""
				INSERT INTO rate_card (gpu_type_id, effective_from, currency, reserved, borrowed, on_demand,
				    storage_gi_month)
				VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (gpu_type_id, effective_from) DO UPDATE SET currency = excluded.currency,
				    reserved = excluded.reserved, borrowed = excluded.borrowed, on_demand = excluded.on_demand,
				    storage_gi_month = excluded.storage_gi_month""")
                .params(
                        gpuTypeId,
                        card.effectiveFrom(),
                        card.currency(),
                        card.price(RateClass.RESERVED),
                        card.price(RateClass.BORROWED),
                        card.price(RateClass.ON_DEMAND),
                        card.storagePerGiMonth())
                .update();
    }

    private static RateCard rateCard(ResultSet rs, String gpuType) throws SQLException {
        return new RateCard(
                gpuType,
                rs.getObject("effective_from", LocalDate.class),
                rs.getString("currency"),
                Map.of(
                        RateClass.RESERVED,
                        rs.getBigDecimal("reserved"),
                        RateClass.BORROWED,
                        rs.getBigDecimal("borrowed"),
                        RateClass.ON_DEMAND,
                        rs.getBigDecimal("on_demand")),
                rs.getBigDecimal("storage_gi_month"));
    }
}
