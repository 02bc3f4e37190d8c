-- Decision reviews by the deciding seat's deck (decision_reviews: `annals review LOG --save`, loaded by ingest).
-- Per split, ruleset and deck: the reviewed seat-games (games) and decisions, accuracy (the mean over decisions of
-- Lichess's per-move accuracy, 103.1668 * exp(-0.04354 * loss in percent) - 3.1669 clamped to 0..100, as
-- queries/review.py move_accuracy), the mean loss of winning chance, each class's count, and wrong (inaccuracies,
-- mistakes and blunders) with wrong_rate (its interval added in queries/reports/run.py). Seat filters select the
-- deciding seat. Reviews made with other iterations or thresholds are pooled: compare like with like.
WITH r AS (
    SELECT s.grp, s.ruleset, s.deck, r.game, r.seat, r.loss, r.verdict,
           least(100.0, greatest(0.0, 103.1668 * exp(-0.04354 * r.loss * 100) - 3.1669)) AS accuracy
    FROM decision_reviews r JOIN sel_seats s ON s.game = r.game AND s.seat = r.seat
)
SELECT grp, ruleset, deck, count(DISTINCT game * 2 + seat) AS games, count(*) AS decisions,
       round(avg(accuracy), 2) AS accuracy, round(avg(loss), 4) AS mean_loss,
       count(*) FILTER (WHERE verdict = 'best') AS best, count(*) FILTER (WHERE verdict = 'good') AS good,
       count(*) FILTER (WHERE verdict = 'inaccuracy') AS inaccuracies,
       count(*) FILTER (WHERE verdict = 'mistake') AS mistakes, count(*) FILTER (WHERE verdict = 'blunder') AS blunders,
       count(*) FILTER (WHERE verdict IN ('inaccuracy', 'mistake', 'blunder')) AS wrong, NULL::DOUBLE AS wrong_rate
FROM r
GROUP BY ALL
ORDER BY grp, ruleset, accuracy, deck;
