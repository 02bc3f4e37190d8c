-- Miras 9 reaction windows: per window name, how many opened, how many got at least one response (StackPushed),
-- the response rate (all_response_rate: over every window, the baseline), pushes per window and the deepest stack.
-- Windows are numbered by opening order in a game.
WITH g AS (SELECT game FROM sel_games),
w AS (
    SELECT e.game, e.n, e.kind, e.extra,
           sum(CASE WHEN e.kind = 'WindowOpened' THEN 1 ELSE 0 END) OVER (PARTITION BY e.game ORDER BY e.n) AS win_no
    FROM events e SEMI JOIN g USING (game)
    WHERE e.kind IN ('WindowOpened', 'StackPushed')
),
per AS (
    SELECT game, win_no,
           any_value(extra->>'window') FILTER (WHERE kind = 'WindowOpened') AS window_name,
           count(*) FILTER (WHERE kind = 'StackPushed') AS pushes,
           coalesce(max((extra->>'depth')::INTEGER) FILTER (WHERE kind = 'StackPushed'), 0) AS depth
    FROM w WHERE win_no > 0 GROUP BY game, win_no
)
SELECT window_name, count(*) AS windows, count(DISTINCT game) AS games, count(*) FILTER (WHERE pushes > 0) AS responded,
       NULL::DOUBLE AS response_rate,  -- with its interval, in queries/reports/run.py
       round(sum(count(*) FILTER (WHERE pushes > 0)) OVER () / sum(count(*)) OVER (), 4) AS all_response_rate,
       avg(pushes) AS pushes_per_window, max(depth) AS max_depth,
       avg(depth) FILTER (WHERE pushes > 0) AS mean_depth_when_responded
FROM per GROUP BY window_name ORDER BY windows DESC, window_name;
