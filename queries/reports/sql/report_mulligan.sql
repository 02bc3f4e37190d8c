-- Miras 9 mulligans [M9-021]: each seat's one mulligan decision, by how many Units its opening hand held when it
-- decided (the cards drawn from the deck at set-up before the decision, typed by the game's card pool). Per split
-- and Units in hand: decisions, mulligans taken (take_rate, its interval added in queries/reports/run.py), and the
-- decided seat-games that kept against those that took a mulligan, with their wins.
WITH b AS (SELECT grp, ruleset, game, seat, won, decided FROM sel_seats),
m AS (
    SELECT d.game, d.player AS seat, d.at_event, (d.chosen_option->>1)::BOOLEAN AS took
    FROM decisions d SEMI JOIN b USING (game) WHERE d.point = 'mulligan'
),
hand AS (
    SELECT m.game, m.seat, count(*) FILTER (WHERE c.type = 'unit') AS units
    FROM m
    JOIN events e ON e.game = m.game AND e.n < m.at_event AND e.turn = 0 AND e.src = 'deck' AND e.dst = 'hand'
    JOIN deck_cards dc ON dc.game = e.game AND dc.instance = e.card AND dc.seat = m.seat
    JOIN games g ON g.game = e.game
    LEFT JOIN cards c ON c.ruleset = g.ruleset AND c.card_pool_hash = g.card_pool_hash AND c.card_id = dc.card_id
    GROUP BY m.game, m.seat
)
SELECT b.grp, b.ruleset, coalesce(h.units, 0) AS units_in_hand, count(*) AS decisions,
       count(*) FILTER (WHERE m.took) AS taken, NULL AS take_rate,
       count(*) FILTER (WHERE b.decided AND NOT m.took) AS kept_games,
       count(*) FILTER (WHERE b.won AND NOT m.took) AS kept_wins,
       count(*) FILTER (WHERE b.decided AND m.took) AS mulligan_games,
       count(*) FILTER (WHERE b.won AND m.took) AS mulligan_wins
FROM m JOIN b USING (game, seat) LEFT JOIN hand h USING (game, seat)
GROUP BY ALL ORDER BY b.grp, b.ruleset, units_in_hand;
