-- MORANA Reborn timing: on which turn Reborn fired, how often, in how many games, and how often the player whose
-- Reborn fired went on to win (decided games).
WITH g AS (
    SELECT game, winner FROM games
    WHERE ruleset = 'morana' AND winner >= 0 AND ($ruleset IS NULL OR ruleset = $ruleset)
)
SELECT e.turn, count(*) AS reborns, count(DISTINCT e.game) AS in_games,
       count(DISTINCT e.game * 2 + e.player) AS games,
       count(DISTINCT e.game * 2 + e.player) FILTER (WHERE g.winner = e.player) AS wins
FROM events e JOIN g USING (game)
WHERE e.kind = 'RebornFired' GROUP BY e.turn ORDER BY e.turn;
