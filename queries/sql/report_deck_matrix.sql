-- Deck against deck: games and wins of `deck` facing `opponent` (decided games; both seats counted).
SELECT g.ruleset, a.deck, b.deck AS opponent, count(*) AS games, count(*) FILTER (WHERE g.winner = a.seat) AS wins
FROM games g
JOIN players a USING (game)
JOIN players b ON b.game = g.game AND b.seat <> a.seat
WHERE g.winner >= 0 AND ($ruleset IS NULL OR g.ruleset = $ruleset)
GROUP BY ALL ORDER BY g.ruleset, a.deck, opponent;
