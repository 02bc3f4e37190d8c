-- The sample of a selection with no filter but the ruleset (sample.sql's row over select.sql's tables), counted
-- from games and players without making the selection: a report read from a summary made it for this line alone.
-- The same joins as select.sql's (a seat is a player row and each other seat of its game), so the same counts.
WITH s AS (
    SELECT g.game
    FROM games g
    JOIN players p USING (game)
    LEFT JOIN players o ON o.game = p.game AND o.seat <> p.seat
    WHERE ($ruleset IS NULL OR g.ruleset = $ruleset)
      AND ($rulesets IS NULL OR list_contains($rulesets, g.ruleset))
)
SELECT count(*) AS games, count(*) FILTER (WHERE winner >= 0) AS decided, coalesce(sum(events), 0) AS events,
       coalesce(string_agg(DISTINCT ruleset, ', ' ORDER BY ruleset), '') AS rulesets,
       (SELECT count(*) FROM s) AS seats
FROM games
WHERE game IN (SELECT game FROM s);
