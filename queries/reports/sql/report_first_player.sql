-- First-player advantage against its baseline: per seat agent and opponent agent (a bot pairing, so bot skill is
-- not read as going first), the decided games the seat went first [M9-022] and its wins, beside the games the same
-- agent went second against the same opponent agent and its wins; the advantage is the difference of the two
-- rates (finished in queries/reports/run.py). MORANA games have first_player NULL [MOR-13] and are not selected.
SELECT s.grp, g.ruleset, s.agent, s.opp_agent AS opponent_agent,
       count(*) FILTER (WHERE s.seat = g.first_player) AS all_games,
       count(*) FILTER (WHERE s.seat = g.first_player AND g.winner >= 0) AS games,
       count(*) FILTER (WHERE s.seat = g.first_player AND s.won) AS wins,
       count(*) FILTER (WHERE s.seat <> g.first_player AND g.winner >= 0) AS second_games,
       count(*) FILTER (WHERE s.seat <> g.first_player AND s.won) AS second_wins
FROM sel_seats s JOIN sel_games g USING (game)
WHERE g.first_player IS NOT NULL
GROUP BY ALL ORDER BY s.grp, g.ruleset, s.agent, s.opp_agent;
