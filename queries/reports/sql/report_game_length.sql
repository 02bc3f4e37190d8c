-- Game length in turns and events, per ruleset and end reason (every selected game).
SELECT ruleset, end_reason, count(*) AS games,
       avg(turns) AS mean_turns, median(turns) AS median_turns,
       quantile_disc(turns, 0.1) AS p10_turns, quantile_disc(turns, 0.9) AS p90_turns,
       avg(events) AS mean_events, max(events) AS max_events
FROM sel_games
GROUP BY ALL ORDER BY ruleset, games DESC, end_reason;
