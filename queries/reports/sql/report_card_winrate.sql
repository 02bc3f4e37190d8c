-- Per card: how often its owner won when a copy was in the opening hand, drawn, or played (decided games; one count
-- per game and seat however many copies), beside the card's in-deck baseline (deck_games, deck_wins) and the mean
-- game length of each, for the length bias. Reads card_facts (ingest/sql/card_facts.sql defines the contexts).
WITH f AS (
    SELECT s.grp, g.ruleset, f.card_id, f.opening_hand, f.drawn, f.played, s.won, g.turns
    FROM card_facts f JOIN sel_seats s USING (game, seat) JOIN sel_games g USING (game)
    WHERE g.winner >= 0
),
c AS (
    SELECT grp, ruleset, card_id, 'opening_hand' AS context, opening_hand AS hit, won, turns FROM f
    UNION ALL SELECT grp, ruleset, card_id, 'drawn', drawn, won, turns FROM f
    UNION ALL SELECT grp, ruleset, card_id, 'played', played, won, turns FROM f
)
SELECT grp, ruleset, card_id, context,
       count(*) FILTER (WHERE hit) AS games, count(*) FILTER (WHERE hit AND won) AS wins,
       round(avg(turns) FILTER (WHERE hit), 2) AS mean_turns,
       count(*) AS deck_games, count(*) FILTER (WHERE won) AS deck_wins, round(avg(turns), 2) AS deck_mean_turns
FROM c GROUP BY ALL
HAVING count(*) FILTER (WHERE hit) > 0
ORDER BY grp, ruleset, context, card_id;
