-- Miras 9 Manifest and Pressure: per action, the player-games that used it, uses, and how often those players won
-- (decided games).
WITH g AS (
    SELECT game, winner FROM games
    WHERE ruleset = 'miras9' AND winner >= 0 AND ($ruleset IS NULL OR ruleset = $ruleset)
),
u AS (
    SELECT e.game, e.player, e.kind, count(*) AS uses
    FROM events e SEMI JOIN g USING (game)
    WHERE e.kind IN ('Manifested', 'Pressured') GROUP BY ALL
)
SELECT u.kind AS action, count(*) AS games, sum(u.uses)::BIGINT AS uses, avg(u.uses) AS uses_per_game,
       count(*) FILTER (WHERE g.winner = u.player) AS wins
FROM u JOIN g USING (game) GROUP BY u.kind ORDER BY u.kind;
