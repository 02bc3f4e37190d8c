-- MORANA: who resolved first at each Site, and why (SiteResolutionBegan first/reason [MOR-28], [MOR-29]). Per Site
-- and reason: resolutions, the decided seat-games where that seat resolved the Site first at least once, and their
-- wins; of_resolutions counts every resolution of the Site, simultaneous ones (first = -1) included.
WITH b AS (
    SELECT s.grp, s.game, s.seat, s.won FROM sel_seats s JOIN sel_games g USING (game) WHERE g.winner >= 0
),
r AS (
    SELECT e.game, (e.extra->>'site')::INTEGER AS site, (e.extra->>'first')::INTEGER AS first,
           e.extra->>'reason' AS reason
    FROM events e SEMI JOIN b USING (game) WHERE e.kind = 'SiteResolutionBegan'
),
per_site AS (SELECT site, count(*) AS of_resolutions FROM r GROUP BY site),
hit AS (
    SELECT b.grp, r.site, r.reason, b.game, b.seat, b.won, count(*) AS resolutions
    FROM r JOIN b ON b.game = r.game AND b.seat = r.first GROUP BY ALL
),
base AS (SELECT grp, count(*) AS all_games, count(*) FILTER (WHERE won) AS all_wins FROM b GROUP BY grp)
SELECT h.grp, h.site, h.reason, sum(h.resolutions)::BIGINT AS resolutions, any_value(p.of_resolutions) AS of_resolutions,
       count(*) AS games, count(*) FILTER (WHERE h.won) AS wins,
       any_value(base.all_games) AS all_games, any_value(base.all_wins) AS all_wins
FROM hit h JOIN per_site p USING (site) JOIN base USING (grp)
GROUP BY h.grp, h.site, h.reason ORDER BY h.grp, h.site, h.reason;
