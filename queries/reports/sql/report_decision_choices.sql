-- What was chosen at each decision point: per option kind, how often it was chosen, its share of the point, and
-- its baselines. pick = chosen / decisions that offered it (uniform_pick: what choosing uniformly among the offered
-- options would give, the mean of kind's options / options offered); chosen_* are the decided seat-games that
-- chose it at that point, declined_* those offered it there that never chose it (the matched baseline). The
-- deciding player's seat is the one filtered. Option kinds come from option_kinds (the offered JSON's first value).
-- weighted_*: each decided seat-game offered the kind at that point weighs 1, split between chosen and declined by
-- the share of its decisions there that chose it (a game offered it 10 times and choosing it 5 counts half to
-- each), so a long game with many chances to choose it no longer lands among chosen_games for that alone.
-- pick's interval is cluster-robust by game (pick_se: the sandwich variance of a ratio over pick_games clusters,
-- with the G/(G-1) correction), since a game's decisions are alike: treated as independent they gave an interval
-- about half as wide. Shares are summed as DECIMAL: a sum of doubles depends on the order the threads add them in, and a total on a
-- rounding tie (17/32 = 0.53125) would then round either way from one run to the next.
WITH d AS (
    SELECT s.grp, s.ruleset, d.game, d.player AS seat, d.n, d.point, d.chosen_kind, d.n_offered, d.offered,
           s.decided, s.won
    FROM decisions d JOIN sel_seats s ON s.game = d.game AND s.seat = d.player
),
offers AS (  -- each option offered, by its tag (unnested alone: Spark joins only after a LATERAL VIEW)
    SELECT d.grp, d.ruleset, d.game, d.seat, d.decided, d.won, d.point, d.n, d.chosen_kind, d.n_offered,
           u.opt->>0 AS tag
    FROM d CROSS JOIN unnest(d.offered::JSON[]) AS u(opt)
),
o AS (  -- per decision and option kind offered: how many options of that kind, and whether it was the one chosen
    SELECT d.grp, d.ruleset, d.game, d.seat, d.decided, d.won, d.point, k.kind, d.chosen_kind = k.kind AS chosen,
           CAST(count(*) / any_value(d.n_offered) AS DECIMAL(38, 12)) AS of_offered
    FROM offers d
    JOIN option_kinds k ON k.ruleset = d.ruleset AND k.tag = d.tag
    GROUP BY d.grp, d.ruleset, d.game, d.seat, d.decided, d.won, d.point, d.n, k.kind, d.chosen_kind
),
seat_games AS (  -- per seat-game, point and kind: chosen there at least once, or only offered
    SELECT grp, ruleset, point, kind, won, bool_or(chosen) AS chosen,
           CAST(avg(chosen::INTEGER) AS DECIMAL(38, 12)) AS share
    FROM o WHERE decided GROUP BY grp, ruleset, game, seat, point, kind, won
),
picks AS (
    SELECT grp, ruleset, point, kind, count(*) FILTER (WHERE chosen) AS decisions, count(*) AS offered_decisions,
           avg(of_offered) AS uniform_pick
    FROM o GROUP BY ALL
),
games AS (
    SELECT grp, ruleset, point, kind,
           count(*) FILTER (WHERE chosen) AS chosen_games, count(*) FILTER (WHERE chosen AND won) AS chosen_wins,
           count(*) FILTER (WHERE NOT chosen) AS declined_games,
           count(*) FILTER (WHERE NOT chosen AND won) AS declined_wins,
           CAST(round(sum(share), 4) AS DOUBLE) AS weighted_chosen_games,
           CAST(round(coalesce(sum(share) FILTER (WHERE won), 0), 4) AS DOUBLE) AS weighted_chosen_wins,
           CAST(round(sum(1 - share), 4) AS DOUBLE) AS weighted_declined_games,
           CAST(round(coalesce(sum(1 - share) FILTER (WHERE won), 0), 4) AS DOUBLE) AS weighted_declined_wins
    FROM seat_games GROUP BY ALL
),
per_game AS (  -- each game a cluster: its decisions offering the kind at that point, and those choosing it
    SELECT grp, ruleset, point, kind, game, count(*) FILTER (WHERE chosen) AS y, count(*) AS n FROM o GROUP BY ALL
),
robust AS (  -- the pick's cluster-robust variance by game: a game's decisions are not independent of each other
    SELECT q.grp, q.ruleset, q.point, q.kind, count(*) AS clusters,
           sum(power(q.y - q.n * t.p, 2)) / power(any_value(t.total), 2) AS v
    FROM per_game q
    JOIN (SELECT grp, ruleset, point, kind, sum(y) / sum(n) AS p, sum(n) AS total FROM per_game GROUP BY ALL) t
        USING (grp, ruleset, point, kind)
    GROUP BY q.grp, q.ruleset, q.point, q.kind
),
occurs AS (  -- the games it was chosen in at that point (each game once, whichever seats)
    SELECT grp, ruleset, point, chosen_kind AS kind, count(DISTINCT game) AS games FROM d GROUP BY ALL
)
SELECT p.grp, p.ruleset, p.point, p.kind AS option_kind, p.decisions,
       p.decisions / sum(p.decisions) OVER (PARTITION BY p.grp, p.ruleset, p.point) AS share,
       p.offered_decisions, NULL::DOUBLE AS pick,
       CASE WHEN r.clusters > 1 THEN sqrt(r.v * r.clusters / (r.clusters - 1)) END AS pick_se, r.clusters AS pick_games,
       CAST(round(p.uniform_pick, 4) AS DOUBLE) AS uniform_pick,
       coalesce(c.games, 0) AS games,
       coalesce(g.chosen_games, 0) AS chosen_games, coalesce(g.chosen_wins, 0) AS chosen_wins,
       coalesce(g.declined_games, 0) AS declined_games, coalesce(g.declined_wins, 0) AS declined_wins,
       coalesce(g.weighted_chosen_games, 0) AS weighted_chosen_games,
       coalesce(g.weighted_chosen_wins, 0) AS weighted_chosen_wins,
       coalesce(g.weighted_declined_games, 0) AS weighted_declined_games,
       coalesce(g.weighted_declined_wins, 0) AS weighted_declined_wins
FROM picks p
LEFT JOIN games g USING (grp, ruleset, point, kind)
LEFT JOIN occurs c USING (grp, ruleset, point, kind)
LEFT JOIN robust r USING (grp, ruleset, point, kind)
ORDER BY p.grp, p.ruleset, p.point, p.decisions DESC, p.kind;
