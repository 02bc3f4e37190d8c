-- First-player advantage: games won by the player who took turn 1 (sel_seats restricted to that seat). MORANA
-- games have first_player NULL [MOR-13] and drop out of the join.
SELECT s.grp, g.ruleset, count(*) AS all_games, count(*) FILTER (WHERE g.winner >= 0) AS games,
       count(*) FILTER (WHERE g.winner >= 0 AND s.won) AS wins
FROM sel_seats s JOIN sel_games g USING (game)
WHERE s.seat = g.first_player
GROUP BY ALL ORDER BY s.grp, g.ruleset;
