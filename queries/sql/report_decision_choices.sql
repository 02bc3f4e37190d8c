-- What was chosen at each decision point: option kind, how often, its share of the point, options offered, and the
-- games it happened in (the deciding player's seat is the one filtered).
SELECT s.grp, g.ruleset, d.point, d.chosen_kind, count(*) AS decisions,
       count(*) / sum(count(*)) OVER (PARTITION BY s.grp, g.ruleset, d.point) AS share,
       avg(d.n_offered) AS mean_offered, count(DISTINCT d.game) AS games
FROM decisions d
JOIN sel_seats s ON s.game = d.game AND s.seat = d.player
JOIN sel_games g ON g.game = d.game
GROUP BY s.grp, g.ruleset, d.point, d.chosen_kind ORDER BY s.grp, g.ruleset, d.point, decisions DESC, d.chosen_kind;
