-- MORANA Initiative [MOR-29]: per player-game, the turns they held Initiative (TurnBegan initiative) and the grants
-- they made (InitiativeGranted); grouped by turns held, with wins (decided games).
WITH g AS (
    SELECT game, winner FROM games
    WHERE ruleset = 'morana' AND winner >= 0 AND ($ruleset IS NULL OR ruleset = $ruleset)
),
seats AS (SELECT g.game, g.winner, p.player FROM g CROSS JOIN (VALUES (0), (1)) p(player)),
held AS (
    SELECT e.game, (e.extra->>'initiative')::INTEGER AS player, count(*) AS turns_held
    FROM events e SEMI JOIN g USING (game) WHERE e.kind = 'TurnBegan' GROUP BY ALL
),
granted AS (
    SELECT e.game, e.player, count(*) AS grants
    FROM events e SEMI JOIN g USING (game) WHERE e.kind = 'InitiativeGranted' GROUP BY ALL
)
SELECT least(coalesce(h.turns_held, 0), 3) AS turns_held_capped_at_3, count(*) AS games,
       count(*) FILTER (WHERE s.winner = s.player) AS wins, sum(coalesce(x.grants, 0))::BIGINT AS grants
FROM seats s
LEFT JOIN held h ON h.game = s.game AND h.player = s.player
LEFT JOIN granted x ON x.game = s.game AND x.player = s.player
GROUP BY ALL ORDER BY 1;
