-- Per card and the turn a copy was first played (card_games.first_played_turn: from hand into play), decided
-- seat-games from card_games: how many played it first on that turn and won, beside every seat-game with the card
-- in its deck (deck_games/deck_wins, the baseline); play_rate = games / deck_games gets its interval in
-- queries/reports/run.py. Turns after the tenth are one row (11: eleven or later).
WITH s AS (SELECT game * 2 + seat AS k, grp, ruleset, won::INTEGER AS w FROM sel_seats WHERE decided),
c AS (
    SELECT s.grp, s.ruleset, c.card_id, CASE WHEN c.first_played_turn > 11 THEN 11 ELSE c.first_played_turn END AS turn,
           s.w
    FROM card_games c JOIN s ON s.k = c.game * 2 + c.seat
),
deck AS (SELECT grp, ruleset, card_id, count(*) AS deck_games, sum(w)::BIGINT AS deck_wins FROM c GROUP BY ALL)
SELECT c.grp, c.ruleset, c.card_id, c.turn AS played_turn, count(*) AS games, sum(c.w)::BIGINT AS wins,
       NULL AS play_rate, any_value(d.deck_games) AS deck_games, any_value(d.deck_wins) AS deck_wins
FROM c JOIN deck d USING (grp, ruleset, card_id)
WHERE c.turn IS NOT NULL
GROUP BY c.grp, c.ruleset, c.card_id, c.turn ORDER BY c.grp, c.ruleset, c.card_id, c.turn;
