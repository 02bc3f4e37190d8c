-- MORANA Slava curves: mean Slava at the end of each turn for the eventual winner and loser (decided games). A game
-- counts for the turns it lasted: `games` reached that turn, reached_share of all the outcome's seat-games.
WITH gs AS (
    SELECT s.grp, s.game, s.seat AS player, s.won, g.turns
    FROM sel_seats s JOIN sel_games g USING (game) WHERE g.winner >= 0
),
s AS (
    SELECT e.game, e.turn, e.holder AS player, arg_max(e.value, e.n) AS slava
    FROM events e SEMI JOIN gs USING (game)
    WHERE e.kind = 'SlavaGained' GROUP BY ALL
),
grid AS (SELECT grp, game, player, won, unnest(generate_series(1, greatest(turns, 1))) AS turn FROM gs),
per AS (
    SELECT grid.grp, grid.turn, CASE WHEN grid.won THEN 'winner' ELSE 'loser' END AS outcome,
           count(*) AS games, avg(coalesce(s.slava, 0)) AS mean_slava, max(coalesce(s.slava, 0)) AS max_slava
    FROM grid ASOF LEFT JOIN s ON grid.game = s.game AND grid.player = s.player AND grid.turn >= s.turn
    GROUP BY ALL
)
SELECT grp, turn, outcome, games,
       round(games / max(games) OVER (PARTITION BY grp, outcome), 4) AS reached_share, mean_slava, max_slava
FROM per ORDER BY grp, turn, outcome;
