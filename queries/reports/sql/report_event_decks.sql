-- Deck win rates in an event: games (decided games of the event's matches, both seats) and wins of each deck,
-- with matches played and won beside (byes excluded). The Wilson 95% interval is added to games and wins.
WITH seat_games AS (
    SELECT mg.event_id, e.deck, mg.winner = e.player_id AS won
    FROM match_games mg
    JOIN matches m USING (event_id, round, table_no)
    JOIN entrants e ON e.event_id = mg.event_id AND e.player_id IN (m.player_a, m.player_b)
    WHERE mg.winner IS NOT NULL
), seat_matches AS (
    SELECT m.event_id, e.deck, count(*) AS matches, count(*) FILTER (WHERE m.winner = e.player_id) AS match_wins
    FROM matches m
    JOIN entrants e ON e.event_id = m.event_id AND e.player_id IN (m.player_a, m.player_b)
    WHERE m.player_b IS NOT NULL
    GROUP BY ALL
)
SELECT t.event_id, t.ruleset, g.deck, count(*) AS games, count(*) FILTER (WHERE g.won) AS wins,
       any_value(sm.matches) AS matches, any_value(sm.match_wins) AS match_wins
FROM seat_games g
JOIN tournaments t USING (event_id)
LEFT JOIN seat_matches sm ON sm.event_id = g.event_id AND sm.deck = g.deck
WHERE ($event IS NULL OR t.event_id = $event) AND ($ruleset IS NULL OR t.ruleset = $ruleset)
GROUP BY ALL ORDER BY t.event_id, wins DESC, g.deck;
