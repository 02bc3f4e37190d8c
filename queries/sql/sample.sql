-- The sample every report states: games, decided games, events and rulesets under the filter.
SELECT count(*) AS games, count(*) FILTER (WHERE winner >= 0) AS decided, coalesce(sum(events), 0) AS events,
       coalesce(string_agg(DISTINCT ruleset, ', ' ORDER BY ruleset), '') AS rulesets
FROM games WHERE ($ruleset IS NULL OR ruleset = $ruleset);
