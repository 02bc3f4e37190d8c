-- Metagame: each deck archetype's share of an event's field (the deck name registered is the archetype).
-- $event: one event id (NULL: every event); $ruleset as everywhere. A player who withdrew before round 1
-- (dropped_after 0) is no entrant: not in the field.
-- "The top" is the players of the top cut, or, for an event without one, the top 8 of its final standings (the
-- whole field when it is 8 or fewer): `top` says how many places that is. It was the winner alone without a cut.
WITH topped AS (
    SELECT event_id, ruleset, players, CASE WHEN top > 0 THEN top ELSE least(8, players) END AS top
    FROM tournaments
)
SELECT t.event_id, t.ruleset, e.deck, count(*) AS players,
       round(count(*) / any_value(t.players), 4) AS share,
       any_value(t.top) AS top,
       count(*) FILTER (WHERE s.place <= t.top) AS in_top
FROM entrants e
JOIN topped t USING (event_id)
LEFT JOIN standings s ON s.event_id = e.event_id AND s.player_id = e.player_id
WHERE ($event IS NULL OR t.event_id = $event) AND ($ruleset IS NULL OR t.ruleset = $ruleset)
  AND e.dropped_after IS DISTINCT FROM 0
GROUP BY t.event_id, t.ruleset, e.deck ORDER BY t.event_id, players DESC, e.deck;
