-- A stored game about to be replaced by its grown log (ingest.loader): what its log said, and when, into
-- game_history. $game: its game number; $superseded_by: the new log's digest.
INSERT OR IGNORE INTO game_history
SELECT g.game_id, g.digest, g.file, g.winner, g.end_reason, g.events, g.decisions, d.recorded_at,
       now() AT TIME ZONE 'UTC', $superseded_by
FROM games g LEFT JOIN game_dates d USING (game)
WHERE g.game = $game;
