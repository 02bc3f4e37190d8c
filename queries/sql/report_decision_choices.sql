-- What was chosen at each decision point: option kind, how often, its share of the point, options offered.
SELECT g.ruleset, d.point, d.chosen_kind, count(*) AS decisions,
       count(*) / sum(count(*)) OVER (PARTITION BY g.ruleset, d.point) AS share,
       avg(d.n_offered) AS mean_offered
FROM decisions d JOIN games g USING (game)
WHERE ($ruleset IS NULL OR g.ruleset = $ruleset)
GROUP BY g.ruleset, d.point, d.chosen_kind ORDER BY g.ruleset, d.point, decisions DESC, d.chosen_kind;
