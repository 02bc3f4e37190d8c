-- First-player advantage: how often the player who took turn 1 won, per ruleset (decided games).
SELECT ruleset, count(*) AS all_games, count(*) FILTER (WHERE winner >= 0) AS games,
       count(*) FILTER (WHERE winner >= 0 AND winner = first_player) AS wins
FROM games
WHERE first_player >= 0 AND ($ruleset IS NULL OR ruleset = $ruleset)
GROUP BY ruleset ORDER BY ruleset;
