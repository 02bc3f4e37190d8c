-- A stored game removed by hand (annals db remove): which log it was, its result, when and why, into games_removed.
-- $game: its game number; $reason: the organiser's reason.
INSERT INTO games_removed
SELECT game_id, digest, file, winner, end_reason, events, now() AT TIME ZONE 'UTC', $reason
FROM games
WHERE game = $game;
