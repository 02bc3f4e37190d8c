-- An event's standings: final place (the cut first), Swiss rank, match points, record, the three tiebreakers.
SELECT s.event_id, s.place, s.rank, s.player_id, e.name, e.deck, s.points,
       s.wins || '-' || s.losses || '-' || s.draws AS record, s.byes,
       round(100 * s.omw, 2) AS omw_pct, round(100 * s.gw, 2) AS gw_pct, round(100 * s.ogw, 2) AS ogw_pct,
       e.dropped_after
FROM standings s
JOIN entrants e USING (event_id, player_id)
JOIN tournaments t USING (event_id)
WHERE ($event IS NULL OR s.event_id = $event) AND ($ruleset IS NULL OR t.ruleset = $ruleset)
ORDER BY s.event_id, s.place;
