-- MORANA Site control by position: per Site (1-3, left to right), the Rite scorings won by seat 0, seat 1, and
-- ties (SiteScored winner -1); resolved_first: scorings of a Site one player resolved first that turn
-- (SiteResolutionBegan first >= 0; -1 is a simultaneous resolution), won_by_first: those that player scored;
-- first_win_rate = won_by_first / resolved_first gets its Wilson interval in Python (NULL placeholder here).
WITH g AS (SELECT game FROM sel_games),
r AS (
    SELECT e.game, e.n, e.turn, (e.extra->>'site')::INTEGER AS site, (e.extra->>'first')::INTEGER AS first
    FROM events e SEMI JOIN g USING (game) WHERE e.kind = 'SiteResolutionBegan'
),
sc AS (
    SELECT e.game, e.n, e.turn, (e.extra->>'site')::INTEGER AS site, (e.extra->>'winner')::INTEGER AS winner
    FROM events e SEMI JOIN g USING (game) WHERE e.kind = 'SiteScored'
)
SELECT sc.site, count(*) AS scorings,
       count(*) FILTER (WHERE sc.winner = 0) AS seat0,
       count(*) FILTER (WHERE sc.winner = 1) AS seat1,
       count(*) FILTER (WHERE sc.winner < 0) AS ties,
       count(*) FILTER (WHERE r.first >= 0) AS resolved_first,
       count(*) FILTER (WHERE r.first >= 0 AND sc.winner = r.first) AS won_by_first,
       NULL::DOUBLE AS first_win_rate,
       count(DISTINCT sc.game) AS games
FROM sc ASOF LEFT JOIN r ON sc.game = r.game AND sc.turn = r.turn AND sc.site = r.site AND sc.n >= r.n
GROUP BY ALL ORDER BY sc.site;
