-- The data dictionary of the tournament tables (schema v2, `annals ingest EVENT_FOLDER`, ingest/events.py).
-- Player ids are the ids registered with `annals event register`; an event's rows are replaced whole on each ingest.

COMMENT ON TABLE tournaments IS 'One row per ingested event folder (a tournament: `annals event new`)';
COMMENT ON COLUMN tournaments.event_id IS 'The event id, as in every game header''s tournament.event (games.event)';
COMMENT ON COLUMN tournaments.name IS 'The event''s name as given to annals event new';
COMMENT ON COLUMN tournaments.ruleset IS 'Ruleset every game of the event is played under: miras9 or morana';
COMMENT ON COLUMN tournaments.rounds IS 'Number of Swiss rounds';
COMMENT ON COLUMN tournaments.best_of IS 'Games per match: best of N';
COMMENT ON COLUMN tournaments.top IS 'Players in the single-elimination cut after the Swiss rounds (0: no cut)';
COMMENT ON COLUMN tournaments.seed IS 'The event''s recorded seed: pairings and lots are drawn from it, so they reproduce';
COMMENT ON COLUMN tournaments.max_turns IS 'Each game''s turn cap, the event''s time limit (a game reaching it is drawn)';
COMMENT ON COLUMN tournaments.players IS 'Players registered (dropped players included)';
COMMENT ON COLUMN tournaments.folder IS 'Absolute path of the event folder it was ingested from';

COMMENT ON TABLE entrants IS 'Registrations: each player of an event with the deck they registered';
COMMENT ON COLUMN entrants.event_id IS 'The event (tournaments.event_id)';
COMMENT ON COLUMN entrants.player_id IS 'The player''s registered id, unique within the event';
COMMENT ON COLUMN entrants.name IS 'The player''s name';
COMMENT ON COLUMN entrants.deck IS 'The registered deck list''s name: the archetype the metagame report counts; (no list) for a player registered without one';
COMMENT ON COLUMN entrants.leader IS 'The deck''s leader card id: the Miras 9 Planet/Spirit or the MORANA Warden';
COMMENT ON COLUMN entrants.dropped_after IS 'NULL: never dropped; N: dropped after round N (0: before round 1)';

COMMENT ON TABLE rounds IS 'One row per round played or paired: the Swiss rounds, then the rounds of the cut';
COMMENT ON COLUMN rounds.event_id IS 'The event (tournaments.event_id)';
COMMENT ON COLUMN rounds.round IS 'Round number from 1; the cut''s rounds follow the Swiss ones';
COMMENT ON COLUMN rounds.stage IS 'swiss or top (the single-elimination cut)';
COMMENT ON COLUMN rounds.seed IS 'The generator seed that ordered players within each point group (0 for the cut)';
COMMENT ON COLUMN rounds.tables IS 'Tables (matches, byes included) in the round';

COMMENT ON TABLE pairings IS 'Who meets whom at which table in each round';
COMMENT ON COLUMN pairings.event_id IS 'The event (tournaments.event_id)';
COMMENT ON COLUMN pairings.round IS 'Round number (rounds.round)';
COMMENT ON COLUMN pairings.table_no IS 'Table number within the round, from 1';
COMMENT ON COLUMN pairings.player_a IS 'Player id of the first player listed (the higher-ranked at pairing time)';
COMMENT ON COLUMN pairings.player_b IS 'Player id of the opponent; NULL: player_a has the bye';

COMMENT ON TABLE matches IS 'One row per match (a pairing played out): its games'' result, or a judge''s override';
COMMENT ON COLUMN matches.event_id IS 'The event (tournaments.event_id)';
COMMENT ON COLUMN matches.round IS 'Round number (rounds.round)';
COMMENT ON COLUMN matches.stage IS 'swiss or top';
COMMENT ON COLUMN matches.table_no IS 'Table number within the round';
COMMENT ON COLUMN matches.player_a IS 'Player id of the first player of the pairing';
COMMENT ON COLUMN matches.player_b IS 'Player id of the opponent; NULL: a bye (counted as a 2-0 win)';
COMMENT ON COLUMN matches.wins_a IS 'Games won by player_a';
COMMENT ON COLUMN matches.wins_b IS 'Games won by player_b';
COMMENT ON COLUMN matches.draws IS 'Drawn games (a game reaching the turn cap)';
COMMENT ON COLUMN matches.winner IS 'Player id of the match winner; NULL: a drawn match';
COMMENT ON COLUMN matches.ended IS 'How it ended: games (played out), time (turn cap), bye, or seed (a level cut match to the higher seed)';
COMMENT ON COLUMN matches.turn_cap IS 'The turn cap its games were played under';
COMMENT ON COLUMN matches.override_judge IS 'The judge who entered the result by hand; NULL: the result is the games''';
COMMENT ON COLUMN matches.override_reason IS 'Why the judge overrode the result; NULL without an override';

COMMENT ON TABLE match_games IS 'Each game of each match; game_id joins the games table';
COMMENT ON COLUMN match_games.event_id IS 'The event (tournaments.event_id)';
COMMENT ON COLUMN match_games.round IS 'Round number (rounds.round)';
COMMENT ON COLUMN match_games.table_no IS 'Table number within the round';
COMMENT ON COLUMN match_games.game_no IS 'Game number within the match, from 1';
COMMENT ON COLUMN match_games.game_id IS 'The game''s id (games.game_id)';
COMMENT ON COLUMN match_games.first_player IS 'Player id of who took turn 1 (Miras 9 [M9-022]); NULL for MORANA, which has no first player [MOR-13]';
COMMENT ON COLUMN match_games.decider IS 'Player id of who chose the first player (by lot in game 1, then the previous loser); NULL for MORANA';
COMMENT ON COLUMN match_games.method IS 'How the first player was chosen: lot, loser (the previous game''s), drawn (the same decider after a draw), seats (MORANA)';
COMMENT ON COLUMN match_games.winner IS 'Player id of the game''s winner; NULL: a drawn game';
COMMENT ON COLUMN match_games.end_reason IS 'The game''s end reason, from its log''s closing record';
COMMENT ON COLUMN match_games.turns IS 'Turns the game lasted';

COMMENT ON TABLE standings IS 'Each event''s standings at ingest: Swiss rank with tiebreakers, and the final place';
COMMENT ON COLUMN standings.event_id IS 'The event (tournaments.event_id)';
COMMENT ON COLUMN standings.rank IS 'Rank after the Swiss rounds: points, then OMW, GW, OGW, then a seeded lot';
COMMENT ON COLUMN standings.player_id IS 'The player (entrants.player_id)';
COMMENT ON COLUMN standings.points IS 'Match points: 3 a win (a bye is a win), 1 a draw, 0 a loss';
COMMENT ON COLUMN standings.wins IS 'Matches won, byes included';
COMMENT ON COLUMN standings.losses IS 'Matches lost';
COMMENT ON COLUMN standings.draws IS 'Matches drawn';
COMMENT ON COLUMN standings.byes IS 'Byes received';
COMMENT ON COLUMN standings.omw IS 'Opponents'' match-win percentage as a fraction, each opponent floored at 0.33, byes excluded';
COMMENT ON COLUMN standings.gw IS 'The player''s game-win percentage as a fraction, floored at 0.33';
COMMENT ON COLUMN standings.ogw IS 'Opponents'' game-win percentage as a fraction, each floored at 0.33, byes excluded';
COMMENT ON COLUMN standings.place IS 'Final place: the cut''s results first, then Swiss rank';

COMMENT ON TABLE interventions IS 'Judge records: from logs'' judge frames (with the game), and events'' match overrides';
COMMENT ON COLUMN interventions.event_id IS 'The event; NULL for a judged game outside an event';
COMMENT ON COLUMN interventions.round IS 'Round number from the game''s header; NULL outside an event';
COMMENT ON COLUMN interventions.table_no IS 'Table number from the game''s header; NULL outside an event';
COMMENT ON COLUMN interventions.game_no IS 'Game number within the match; NULL outside an event or for a match override';
COMMENT ON COLUMN interventions.game_id IS 'The judged game (games.game_id); NULL for a match override';
COMMENT ON COLUMN interventions.frame IS 'Frame index of the judge record in the log; NULL for a match override';
COMMENT ON COLUMN interventions.kind IS 'warning, game_loss, note, extra_time, override, backup, or match_override';
COMMENT ON COLUMN interventions.judge IS 'The judge''s name as recorded';
COMMENT ON COLUMN interventions.player_id IS 'The player concerned: the seat''s tournament id, else its name; NULL when none';
COMMENT ON COLUMN interventions.reason IS 'The reason the judge gave';
COMMENT ON COLUMN interventions.at_event IS 'Number of events in the log when the record was made; NULL for a match override';
COMMENT ON COLUMN interventions.data IS 'The whole record as JSON (schemas.judge.Intervention or schemas.event.Override)';
