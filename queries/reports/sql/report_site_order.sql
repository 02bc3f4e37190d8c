-- MORANA: who resolved first at each Site, and why (SiteResolutionBegan first/reason [MOR-28], [MOR-29]). Per Site
-- and reason: resolutions, the decided seat-games where that seat resolved the Site first at least once, and their
-- wins; of_resolutions counts every resolution of the Site, simultaneous ones (first = -1) included.
-- The player with less Slava resolves first by rule [MOR-28], so resolving first is being behind: against a flat
-- 0.5 it reads as a finding. expected_wins is what being behind by the same Slava predicts: each seat-game's chance
-- is the win rate, within the split, of every seat at every resolution that was behind (or ahead) by the Slava it
-- was behind by at its first such resolution (the difference clipped to 4 either way).
WITH b AS (
    SELECT s.grp, s.game, s.seat, s.won FROM sel_seats s JOIN sel_games g USING (game) WHERE g.winner >= 0
),
r AS (
    SELECT e.game, e.n, (e.extra->>'site')::INTEGER AS site, (e.extra->>'first')::INTEGER AS first,
           e.extra->>'reason' AS reason, (e.extra->'slava'->>0)::INTEGER AS s0, (e.extra->'slava'->>1)::INTEGER AS s1
    FROM events e SEMI JOIN b USING (game) WHERE e.kind = 'SiteResolutionBegan'
),
per_site AS (SELECT site, count(*) AS of_resolutions FROM r GROUP BY site),
d AS (  -- each seat at each resolution, with the Slava it was behind by (negative: ahead)
    SELECT b.grp, b.game, b.seat, b.won, r.n, r.site, r.first, r.reason,
           greatest(-4, least(4, CASE b.seat WHEN 0 THEN r.s1 - r.s0 ELSE r.s0 - r.s1 END)) AS behind
    FROM r JOIN b USING (game)
),
chance AS (SELECT grp, behind, avg(won::INTEGER) AS p FROM d GROUP BY ALL),
hit AS (
    SELECT grp, site, reason, game, seat, won, count(*) AS resolutions, arg_min(behind, n) AS behind
    FROM d WHERE seat = first GROUP BY grp, site, reason, game, seat, won
),
base AS (SELECT grp, count(*) AS all_games, count(*) FILTER (WHERE won) AS all_wins FROM b GROUP BY grp)
SELECT h.grp, h.site, h.reason, sum(h.resolutions)::BIGINT AS resolutions, any_value(p.of_resolutions) AS of_resolutions,
       count(*) AS games, count(*) FILTER (WHERE h.won) AS wins, round(sum(c.p), 4) AS expected_wins,
       any_value(base.all_games) AS all_games, any_value(base.all_wins) AS all_wins
FROM hit h JOIN per_site p USING (site) JOIN base USING (grp) JOIN chance c USING (grp, behind)
GROUP BY h.grp, h.site, h.reason ORDER BY h.grp, h.site, h.reason;
