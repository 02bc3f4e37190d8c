-- Decision reviews by the card of the choice made (decision_reviews joined to decisions): which cards' decisions
-- players get wrong most. The card is the chosen option's `card` field (option_kinds names the fields: MORANA's
-- Place and Rebirth), an instance of the deciding seat's deck (deck_cards), named by the game's card pool (cards);
-- a choice with no card (Seal the Commit, an Invocation) is a row of its option kind with card_id NULL. Per split,
-- ruleset, option kind and card: reviewed seat-games (games), decisions, accuracy (mean per-decision accuracy as
-- queries/review.py move_accuracy), mean loss, each class's count, wrong and wrong_rate as report_review_accuracy.
WITH r AS (
    SELECT s.grp, s.ruleset, r.game, r.seat, r.loss, r.verdict, d.chosen_kind AS kind,
           json_extract_string(d.chosen_option, list_position(k.fields, 'card'))::INTEGER AS instance,
           least(100.0, greatest(0.0, 103.1668 * exp(-0.04354 * r.loss * 100) - 3.1669)) AS accuracy
    FROM decision_reviews r
    JOIN sel_seats s ON s.game = r.game AND s.seat = r.seat
    JOIN decisions d ON d.game = r.game AND d.n = r.decision
    LEFT JOIN option_kinds k ON k.ruleset = s.ruleset AND k.kind = d.chosen_kind
),
named AS (
    SELECT r.*, dc.card_id, c.name AS card
    FROM r
    JOIN games g ON g.game = r.game
    LEFT JOIN deck_cards dc ON dc.game = r.game AND dc.instance = r.instance
    LEFT JOIN cards c ON c.ruleset = g.ruleset AND c.card_pool_hash = g.card_pool_hash AND c.card_id = dc.card_id
)
SELECT grp, ruleset, kind, card_id, card, count(DISTINCT game * 2 + seat) AS games, count(*) AS decisions,
       round(avg(accuracy), 2) AS accuracy, round(avg(loss), 4) AS mean_loss,
       count(*) FILTER (WHERE verdict = 'best') AS best, count(*) FILTER (WHERE verdict = 'good') AS good,
       count(*) FILTER (WHERE verdict = 'inaccuracy') AS inaccuracies,
       count(*) FILTER (WHERE verdict = 'mistake') AS mistakes, count(*) FILTER (WHERE verdict = 'blunder') AS blunders,
       count(*) FILTER (WHERE verdict IN ('inaccuracy', 'mistake', 'blunder')) AS wrong, NULL::DOUBLE AS wrong_rate
FROM named
GROUP BY ALL
ORDER BY grp, ruleset, accuracy, kind, card_id;
