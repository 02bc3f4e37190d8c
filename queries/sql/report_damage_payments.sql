-- Miras 9 Battle Damage payment choices: each point paid (BattleDamagePaid) by where it was paid from
-- (echo, hand, deck, resource, used), by game stage (turn) and by whether the payer still had points to pay after.
WITH g AS (SELECT game FROM games WHERE ruleset = 'miras9' AND ($ruleset IS NULL OR ruleset = $ruleset))
SELECT CASE WHEN e.turn <= 4 THEN '1: turns 1-4' WHEN e.turn <= 8 THEN '2: turns 5-8' ELSE '3: turns 9+' END AS stage,
       e.source AS paid_from,
       count(*) AS points,
       count(*) / sum(count(*)) OVER (PARTITION BY stage) AS share_of_stage,
       count(*) FILTER (WHERE (e.extra->>'remaining')::INTEGER > 0) AS with_more_to_pay,
       count(DISTINCT e.game) AS in_games
FROM events e SEMI JOIN g USING (game)
WHERE e.kind = 'BattleDamagePaid'
GROUP BY 1, 2 ORDER BY stage, points DESC, paid_from;
