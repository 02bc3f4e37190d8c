-- Every stored game's number by its id, read once per read-only connection (queries/positions/timeline.py:
-- game_number).
SELECT game_id, game FROM games
