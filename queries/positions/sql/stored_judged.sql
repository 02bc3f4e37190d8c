-- A stored game's judge records (its log's judge frames, as ingest stored them), in frame order
-- (queries/positions/storedlog.py gives them back with the rebuilt log).
SELECT frame, data FROM interventions WHERE game_id = ? AND frame IS NOT NULL ORDER BY frame
