-- Miras 9 Battle Damage payment choices: each point paid (BattleDamagePaid; the payer is the event's player) by
-- where it was paid from (echo, hand, deck, resource, used), by game stage (turn) and by whether the payer still had
-- points to pay after; share_overall is that source's share of every stage's points (the baseline).
SELECT s.grp,
       CASE WHEN e.turn <= 4 THEN '1: turns 1-4' WHEN e.turn <= 8 THEN '2: turns 5-8' ELSE '3: turns 9+' END AS stage,
       e.source AS paid_from,
       count(*) AS points,
       count(*) / sum(count(*)) OVER (PARTITION BY s.grp,  -- the stage again: Spark SQL takes no alias in a window
           CASE WHEN e.turn <= 4 THEN '1: turns 1-4' WHEN e.turn <= 8 THEN '2: turns 5-8' ELSE '3: turns 9+' END)
           AS share_of_stage,
       sum(count(*)) OVER (PARTITION BY s.grp, e.source) / sum(count(*)) OVER (PARTITION BY s.grp) AS share_overall,
       count(*) FILTER (WHERE (e.extra->>'remaining')::INTEGER > 0) AS with_more_to_pay,
       count(DISTINCT e.game) AS games
FROM events e JOIN sel_seats s ON s.game = e.game AND s.seat = e.player
WHERE e.kind = 'BattleDamagePaid'
GROUP BY 1, 2, 3 ORDER BY s.grp, stage, points DESC, paid_from;
