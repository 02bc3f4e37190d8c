-- MORANA Initiative [MOR-29]: per decided seat-game, the turns it held Initiative (TurnBegan initiative) and the
-- grants it made (InitiativeGranted); grouped by turns held, with wins, mean length, and every seat-game (all_*).
WITH b AS (
    SELECT s.grp, s.game, s.seat, s.won, g.turns FROM sel_seats s JOIN sel_games g USING (game) WHERE g.winner >= 0
),
held AS (
    SELECT e.game, (e.extra->>'initiative')::INTEGER AS seat, count(*) AS turns_held
    FROM events e SEMI JOIN b USING (game) WHERE e.kind = 'TurnBegan' GROUP BY ALL
),
granted AS (
    SELECT e.game, e.player AS seat, count(*) AS grants
    FROM events e SEMI JOIN b USING (game) WHERE e.kind = 'InitiativeGranted' GROUP BY ALL
)
SELECT b.grp, least(coalesce(h.turns_held, 0), 3) AS turns_held_capped_at_3, count(*) AS games,
       count(*) FILTER (WHERE b.won) AS wins, sum(coalesce(x.grants, 0))::BIGINT AS grants,
       round(avg(b.turns), 2) AS mean_turns,
       any_value(t.all_games) AS all_games, any_value(t.all_wins) AS all_wins
FROM b
LEFT JOIN held h ON h.game = b.game AND h.seat = b.seat
LEFT JOIN granted x ON x.game = b.game AND x.seat = b.seat
JOIN (SELECT grp, count(*) AS all_games, count(*) FILTER (WHERE won) AS all_wins FROM b GROUP BY grp) t USING (grp)
GROUP BY ALL ORDER BY b.grp, 2;
