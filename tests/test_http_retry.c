/* The retry and minimum-speed arithmetic of the http layer (src/http/conn.c; docs/HTTP.md,
 * "Failures" and "Limits"), from the same functions the connection uses: the pause before
 * each retry doubles from retry_delay_ms and stops at 30 s, so `--retries 40` waits minutes,
 * not 100 ms x 2^39; and under the default settings a server that sends under the minimum
 * speed (one byte a second) is given up within 3 minutes, retries and pauses included. The
 * time it really takes is checked against a server in tests/test_http_faults.sh. */
#include <stdint.h>

#include "blvl/http.h"
#include "check.h"
#include "http/conn.h"

int main(void) {
    /* Doubling from 100 ms: 100, 200, ..., 25 600, then 30 000 for good. */
    static const uint64_t want[] = {100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000};
    for (unsigned i = 0; i < 10; i++)
        CHECK_EQ_INT(blvl__http_conn_retry_pause_ms(100, i), want[i]);
    CHECK_EQ_INT(blvl__http_conn_retry_pause_ms(100, 39), 30000); /* was 100 ms x 2^39 */
    CHECK_EQ_INT(blvl__http_conn_retry_pause_ms(100, 1000), 30000);
    CHECK_EQ_INT(blvl__http_conn_retry_pause_ms(100, UINT32_MAX), 30000);
    /* A first pause longer than the cap is kept as it is, never doubled. */
    CHECK_EQ_INT(blvl__http_conn_retry_pause_ms(45000, 0), 45000);
    CHECK_EQ_INT(blvl__http_conn_retry_pause_ms(45000, 5), 45000);
    CHECK_EQ_INT(blvl__http_conn_retry_pause_ms(20000, 1), 30000);

    /* With 40 retries the pauses add up to 51 100 ms for the first nine, then 31 x 30 s. */
    uint64_t sum = 0;
    for (unsigned i = 0; i < 40; i++)
        sum += blvl__http_conn_retry_pause_ms(100, i);
    CHECK_EQ_INT(sum, 51100 + 31 * 30000ull);

    /* The defaults: 5 attempts (4 retries), each ended by the minimum speed within 30 s (and a
     * 50 ms check), and the pauses between them: 151.65 s, under 3 minutes. */
    uint64_t budget = blvl__http_conn_budget_ms(NULL);
    CHECK_EQ_INT(budget, 5 * (30000 + 50) + 100 + 200 + 400 + 800);
    CHECK(budget <= 180000);
    blvl_http_options h = {0};
    CHECK_EQ_INT(blvl__http_conn_budget_ms(&h), budget);
    /* --retries 40: bounded by the cap (41 attempts of 30 s, 40 pauses). */
    h.retries = 40;
    CHECK_EQ_INT(blvl__http_conn_budget_ms(&h), 41 * 30050ull + 51100 + 31 * 30000ull);
    /* The test's settings (tests/test_http_faults.sh): 1 s periods, one retry. */
    h.retries = 1;
    h.speed_time_ms = 1000;
    CHECK_EQ_INT(blvl__http_conn_budget_ms(&h), 2 * 1050 + 100);
    /* A shorter stall time-out ends a silent attempt first. */
    h.stall_timeout_ms = 400;
    CHECK_EQ_INT(blvl__http_conn_budget_ms(&h), 2 * 450 + 100);
    /* No retries. */
    h = (blvl_http_options){.retries = BLVL_HTTP_NO_RETRY};
    CHECK_EQ_INT(blvl__http_conn_budget_ms(&h), 30050);
    /* No minimum speed: nothing bounds a server that trickles. */
    h = (blvl_http_options){.speed_limit = BLVL_HTTP_NO_SPEED_LIMIT};
    CHECK_EQ_INT(blvl__http_conn_budget_ms(&h), UINT64_MAX);
    return check_report("test_http_retry");
}
