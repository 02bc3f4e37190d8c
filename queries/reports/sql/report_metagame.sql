-- Metagame: each deck archetype's share of an event's field (the deck name registered is the archetype).
-- $event: one event id (NULL: every event); $ruleset as everywhere. A player who withdrew before round 1
-- (dropped_after 0) is no entrant: not in the field.
SELECT t.event_id, t.ruleset, e.deck, count(*) AS players,
       round(count(*) / any_value(t.players), 4) AS share,
       count(*) FILTER (WHERE s.place <= greatest(t.top, 1)) AS in_top
FROM entrants e
JOIN tournaments t USING (event_id)
LEFT JOIN standings s ON s.event_id = e.event_id AND s.player_id = e.player_id
WHERE ($event IS NULL OR t.event_id = $event) AND ($ruleset IS NULL OR t.ruleset = $ruleset)
  AND e.dropped_after IS DISTINCT FROM 0
GROUP BY ALL ORDER BY t.event_id, players DESC, e.deck;
