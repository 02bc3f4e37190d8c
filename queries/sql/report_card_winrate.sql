-- Per card: how often its owner won when a copy was in the opening hand, drawn, or played (decided games; one count
-- per game and seat however many copies). Reads card_facts, which ingest derives: see ingest/sql/card_facts.sql for
-- the exact definitions of the three contexts.
WITH f AS (
    SELECT g.ruleset, f.card_id, f.opening_hand, f.drawn, f.played, g.winner = f.seat AS won
    FROM card_facts f JOIN games g USING (game)
    WHERE g.winner >= 0 AND ($ruleset IS NULL OR g.ruleset = $ruleset)
)
SELECT ruleset, card_id, context, games, wins FROM (
    SELECT ruleset, card_id, 'opening_hand' AS context, count(*) FILTER (WHERE opening_hand) AS games,
           count(*) FILTER (WHERE opening_hand AND won) AS wins
    FROM f GROUP BY ALL
    UNION ALL
    SELECT ruleset, card_id, 'drawn', count(*) FILTER (WHERE drawn), count(*) FILTER (WHERE drawn AND won)
    FROM f GROUP BY ALL
    UNION ALL
    SELECT ruleset, card_id, 'played', count(*) FILTER (WHERE played), count(*) FILTER (WHERE played AND won)
    FROM f GROUP BY ALL
)
WHERE games > 0
ORDER BY ruleset, context, card_id;
