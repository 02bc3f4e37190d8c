-- Schema version 4: `games.turns` counts the turns played. A game stopped at its turn cap had begun the turn after
-- the cap (its closing record's turns) without playing it; earlier versions stored that turn.
UPDATE games SET turns = max_turns WHERE end_reason = 'turn_cap' AND max_turns > 0 AND turns > max_turns;
