-- The sample every report states: the games and seat-games its filters select (sel_games, sel_seats).
SELECT count(*) AS games, count(*) FILTER (WHERE winner >= 0) AS decided, coalesce(sum(events), 0) AS events,
       coalesce(string_agg(DISTINCT ruleset, ', ' ORDER BY ruleset), '') AS rulesets,
       (SELECT count(*) FROM sel_seats) AS seats
FROM sel_games;
