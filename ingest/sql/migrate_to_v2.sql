-- Schema version 2: the tournament tables, filled by `annals ingest EVENT_FOLDER` (ingest/events.py) beside the
-- games. An event's rows are replaced whole on each ingest of its folder, in one transaction. (`events` is the
-- game events table, so the events of a tournament are `tournaments`.)

CREATE TABLE IF NOT EXISTS tournaments (
    event_id VARCHAR PRIMARY KEY,      -- the event's id, as in every game header's tournament.event
    name VARCHAR NOT NULL,
    ruleset VARCHAR NOT NULL,
    rounds INTEGER NOT NULL,           -- Swiss rounds
    best_of INTEGER NOT NULL,
    top INTEGER NOT NULL,              -- the single-elimination cut (0: none)
    seed UBIGINT NOT NULL,
    max_turns INTEGER NOT NULL,        -- each game's turn cap: the time limit
    players INTEGER NOT NULL,
    folder VARCHAR NOT NULL            -- the absolute path it was ingested from
);

CREATE TABLE IF NOT EXISTS entrants (  -- registrations: who played which deck (its name is the archetype)
    event_id VARCHAR NOT NULL,
    player_id VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    deck VARCHAR NOT NULL,
    leader VARCHAR NOT NULL,
    dropped_after INTEGER,             -- NULL: never dropped; N: after round N (0: before round 1)
    PRIMARY KEY (event_id, player_id)
);

CREATE TABLE IF NOT EXISTS rounds (
    event_id VARCHAR NOT NULL,
    round INTEGER NOT NULL,
    stage VARCHAR NOT NULL,            -- swiss | top
    seed UBIGINT NOT NULL,             -- the generator seed that ordered the point groups (0 for the cut)
    tables INTEGER NOT NULL,
    PRIMARY KEY (event_id, round)
);

CREATE TABLE IF NOT EXISTS pairings (
    event_id VARCHAR NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    player_a VARCHAR NOT NULL,
    player_b VARCHAR,                  -- NULL: a bye
    PRIMARY KEY (event_id, round, table_no)
);

CREATE TABLE IF NOT EXISTS matches (
    event_id VARCHAR NOT NULL,
    round INTEGER NOT NULL,
    stage VARCHAR NOT NULL,
    table_no INTEGER NOT NULL,
    player_a VARCHAR NOT NULL,
    player_b VARCHAR,                  -- NULL: a bye
    wins_a INTEGER NOT NULL,
    wins_b INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    winner VARCHAR,                    -- NULL: a drawn match
    ended VARCHAR NOT NULL,            -- games | time | bye | seed
    turn_cap INTEGER NOT NULL,
    override_judge VARCHAR,            -- a judge's result entered by hand (NULL: the games' result)
    override_reason VARCHAR,
    PRIMARY KEY (event_id, round, table_no)
);

CREATE TABLE IF NOT EXISTS match_games (  -- each game of a match; game_id joins the games table
    event_id VARCHAR NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    game_no INTEGER NOT NULL,
    game_id VARCHAR NOT NULL,
    first_player VARCHAR,              -- player id; NULL for MORANA (no first player)
    decider VARCHAR,                   -- who chose it (NULL for MORANA)
    method VARCHAR NOT NULL,           -- lot | loser | drawn | seats
    winner VARCHAR,                    -- NULL: a drawn game
    end_reason VARCHAR NOT NULL,
    turns INTEGER NOT NULL,
    PRIMARY KEY (event_id, round, table_no, game_no)
);

CREATE TABLE IF NOT EXISTS standings (  -- the Swiss standings at ingest, and the final places (cut first)
    event_id VARCHAR NOT NULL,
    rank INTEGER NOT NULL,
    player_id VARCHAR NOT NULL,
    points INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    byes INTEGER NOT NULL,
    omw DOUBLE NOT NULL,               -- opponents' match-win percentage, as a fraction, floored at 0.33
    gw DOUBLE NOT NULL,
    ogw DOUBLE NOT NULL,
    place INTEGER NOT NULL,
    PRIMARY KEY (event_id, player_id)
);

-- Judge records. From a log's J frames (frame set; event fields from its header, NULL for a game outside an
-- event; player_id the seat's tournament id, else its name): written with the game, once. From an event's match
-- overrides (kind 'match_override', frame and game NULL): replaced with the event's other rows.
CREATE TABLE IF NOT EXISTS interventions (
    event_id VARCHAR,
    round INTEGER,
    table_no INTEGER,
    game_no INTEGER,
    game_id VARCHAR,
    frame INTEGER,
    kind VARCHAR NOT NULL,
    judge VARCHAR NOT NULL,
    player_id VARCHAR,
    reason VARCHAR,
    at_event INTEGER,
    data JSON  -- the whole record (schemas.judge.Intervention, or schemas.event.Override) as JSON
);
