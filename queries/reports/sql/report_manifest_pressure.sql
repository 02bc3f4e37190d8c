-- Miras 9 Manifest and Pressure: per action, the decided seat-games that used it (uses, wins, mean length), beside
-- those that did not (without_*) and all (all_*).
WITH b AS (
    SELECT s.grp, s.game, s.seat, s.won, g.turns FROM sel_seats s JOIN sel_games g USING (game) WHERE g.winner >= 0
),
u AS (
    SELECT e.game, e.player AS seat, e.kind, count(*) AS uses
    FROM events e SEMI JOIN b USING (game)
    WHERE e.kind IN ('Manifested', 'Pressured') GROUP BY ALL
),
a AS (SELECT * FROM (VALUES ('Manifested'), ('Pressured')) v(kind))
SELECT b.grp, a.kind AS action,
       count(u.uses) AS games, count(u.uses) FILTER (WHERE b.won) AS wins,
       coalesce(sum(u.uses), 0)::BIGINT AS uses, avg(u.uses) AS uses_per_game,
       round(avg(b.turns) FILTER (WHERE u.uses IS NOT NULL), 2) AS mean_turns,
       count(*) FILTER (WHERE u.uses IS NULL) AS without_games,
       count(*) FILTER (WHERE u.uses IS NULL AND b.won) AS without_wins,
       round(avg(b.turns) FILTER (WHERE u.uses IS NULL), 2) AS without_mean_turns,
       count(*) AS all_games, count(*) FILTER (WHERE b.won) AS all_wins
FROM b CROSS JOIN a
LEFT JOIN u ON u.game = b.game AND u.seat = b.seat AND u.kind = a.kind
GROUP BY ALL ORDER BY b.grp, action;
