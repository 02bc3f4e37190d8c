-- The header fields the database keeps of one game (queries/positions/storedlog.py rebuilds its header from them).
SELECT game, ruleset, ruleset_version, engine_version, card_pool_hash, format_version, seed, max_turns, event, round,
       table_no, match, game_no, branched_from, first_player, events, decisions
FROM games WHERE game_id = ?
