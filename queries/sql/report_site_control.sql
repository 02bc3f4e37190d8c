-- MORANA Site control by position: per Site (1-3, left to right), the Rite scorings won by seat 0, seat 1, the first
-- player, and ties (SiteScored winner -1).
WITH g AS (
    SELECT game, first_player FROM games WHERE ruleset = 'morana' AND ($ruleset IS NULL OR ruleset = $ruleset)
)
SELECT (e.extra->>'site')::INTEGER AS site, count(*) AS scorings,
       count(*) FILTER (WHERE (e.extra->>'winner')::INTEGER = 0) AS seat0,
       count(*) FILTER (WHERE (e.extra->>'winner')::INTEGER = 1) AS seat1,
       count(*) FILTER (WHERE (e.extra->>'winner')::INTEGER = g.first_player) AS first_player,
       count(*) FILTER (WHERE (e.extra->>'winner')::INTEGER < 0) AS ties
FROM events e JOIN g USING (game)
WHERE e.kind = 'SiteScored' GROUP BY ALL ORDER BY site;
