-- Game length in turns and events, per ruleset, turn cap (0: none; games of different caps are never mixed) and
-- end reason, every selected game. Turns are those played (games.turns: a capped game counts its cap).
SELECT ruleset, max_turns AS turn_cap, end_reason, count(*) AS games,
       avg(turns) AS mean_turns, median(turns) AS median_turns,
       quantile_disc(turns, 0.1) AS p10_turns, quantile_disc(turns, 0.9) AS p90_turns,
       avg(events) AS mean_events, max(events) AS max_events
FROM sel_games
GROUP BY ALL ORDER BY ruleset, turn_cap, games DESC, end_reason;
