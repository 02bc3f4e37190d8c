-- MORANA Slava curves: mean Slava at the end of each turn for the eventual winner and loser (decided games; a game
-- counts for the turns it lasted).
WITH g AS (
    SELECT game, winner, turns FROM games
    WHERE ruleset = 'morana' AND winner >= 0 AND ($ruleset IS NULL OR ruleset = $ruleset)
),
s AS (
    SELECT e.game, e.turn, e.holder AS player, arg_max(e.value, e.n) AS slava
    FROM events e SEMI JOIN g USING (game)
    WHERE e.kind = 'SlavaGained' GROUP BY ALL
),
grid AS (
    SELECT g.game, g.winner, unnest(generate_series(1, greatest(g.turns, 1))) AS turn, p.player
    FROM g CROSS JOIN (VALUES (0), (1)) p(player)
)
SELECT grid.turn, CASE WHEN grid.player = grid.winner THEN 'winner' ELSE 'loser' END AS outcome,
       count(*) AS games, avg(coalesce(s.slava, 0)) AS mean_slava, max(coalesce(s.slava, 0)) AS max_slava
FROM grid ASOF LEFT JOIN s ON grid.game = s.game AND grid.player = s.player AND grid.turn >= s.turn
GROUP BY ALL ORDER BY grid.turn, outcome;
