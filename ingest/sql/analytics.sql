-- Tables added for honest analytics (issue 16), created on every writable open; additive to schema_v1 (no new
-- version: nothing existing changes shape). Filled at ingest per batch; a database made before them is backfilled
-- by ingest.schema.ensure_schema.

CREATE TABLE IF NOT EXISTS game_dates (  -- when each game's log was written, for --since/--until and export months
    game INTEGER PRIMARY KEY,
    recorded_at TIMESTAMP NOT NULL         -- the log file's modification time at ingest, UTC (logs carry no clock)
);

CREATE TABLE IF NOT EXISTS card_games (  -- derived at ingest (ingest/sql/card_games.sql): one row per game, seat, card id
    game INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    card_id VARCHAR NOT NULL,
    copies INTEGER NOT NULL,
    opening_hand BOOLEAN NOT NULL,       -- a copy was in hand at the end of set-up (turn 0)
    drawn BOOLEAN NOT NULL,              -- a copy came to hand from turn 1 on: from the deck, or from Resource [M9-049]
    drawn_from_resource BOOLEAN NOT NULL,
    first_in_hand_turn INTEGER,          -- 0: opening hand; NULL: never in hand
    played BOOLEAN NOT NULL,             -- a copy moved from hand into play (as card_facts.played)
    first_played_turn INTEGER,
    used BOOLEAN NOT NULL,               -- a copy's own ability or effect happened (see card_games.sql)
    first_used_turn INTEGER,
    placed_at_setup BOOLEAN NOT NULL,    -- a copy was put into play at set-up from the deck, never in hand [M9-020]
    other_seat TINYINT NOT NULL          -- the other seat's context for this card id in this game: 0 not in its main
                                         -- deck, 1 in hand (GIH), 2 never in hand nor placed at set-up, 3 placed only
);

CREATE OR REPLACE TABLE option_kinds (    -- the decision option types of every ruleset this annals knows, by tag
    ruleset VARCHAR NOT NULL,
    tag VARCHAR NOT NULL,                  -- the option's tag, as the first element of its JSON array
    kind VARCHAR NOT NULL,                 -- the option class name (decisions.chosen_kind)
    fields VARCHAR[] NOT NULL              -- the names of the array's other elements, in order
);

CREATE TABLE IF NOT EXISTS game_history (  -- the logs a stored game was read from before its log grew (judge frames)
    game_id VARCHAR NOT NULL,
    digest VARCHAR NOT NULL,             -- the superseded log's chain digest
    file VARCHAR NOT NULL,
    winner INTEGER NOT NULL,             -- its result as it stood (a judge's game loss or override counted)
    end_reason VARCHAR NOT NULL,
    events INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    recorded_at TIMESTAMP,               -- the superseded log file's modification time, UTC
    superseded_at TIMESTAMP NOT NULL,    -- when an ingest replaced it, UTC
    superseded_by VARCHAR NOT NULL,      -- the digest of the log that replaced it
    PRIMARY KEY (game_id, digest)
);

CREATE TABLE IF NOT EXISTS games_removed (  -- games taken out of the database by hand (annals db remove)
    game_id VARCHAR NOT NULL,
    digest VARCHAR NOT NULL,
    file VARCHAR NOT NULL,
    winner INTEGER NOT NULL,
    end_reason VARCHAR NOT NULL,
    events INTEGER NOT NULL,
    removed_at TIMESTAMP NOT NULL,       -- UTC
    reason VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS card_summary (  -- derived after ingest (ingest/sql/card_summary.sql): card_facts of decided
    ruleset VARCHAR NOT NULL,                -- games counted per seat context and card, for card_winrate
    event VARCHAR,
    first_player INTEGER,
    seat INTEGER NOT NULL,
    agent VARCHAR NOT NULL,
    deck VARCHAR NOT NULL,
    opp_agent VARCHAR,                       -- the other seat's (NULL: none)
    opp_deck VARCHAR,
    card_id VARCHAR NOT NULL,
    opening_hand BOOLEAN NOT NULL,
    drawn BOOLEAN NOT NULL,
    played BOOLEAN NOT NULL,
    won BOOLEAN NOT NULL,
    games BIGINT NOT NULL,                   -- seat-games in the context whose card_facts row holds these flags
    turns BIGINT NOT NULL                    -- their games' turns, summed
);

CREATE TABLE IF NOT EXISTS card_summary_stamp (  -- what card_summary was derived from (card_summary_stamp.sql)
    games BIGINT,
    games_hash UBIGINT,
    seats BIGINT,
    seats_hash UBIGINT,
    facts BIGINT
);

CREATE TABLE IF NOT EXISTS card_metrics_summary (  -- derived after ingest (ingest/summary.py): card_metrics'
    grp VARCHAR NOT NULL,                            -- rows for every decided game, no filter, no split, as the
    ruleset VARCHAR NOT NULL,                        -- report's SQL gives them (report_card_metrics.sql)
    card_id VARCHAR NOT NULL,
    gp_games BIGINT, gp_wins BIGINT, oh_games BIGINT, oh_wins BIGINT, gd_games BIGINT, gd_wins BIGINT,
    gih_games BIGINT, gih_wins BIGINT, gns_games BIGINT, gns_wins BIGINT, setup_only_games BIGINT,
    played_games BIGINT, played_wins BIGINT, gih_unplayed_games BIGINT, gih_unplayed_wins BIGINT,
    used_games BIGINT, used_wins BIGINT, unused_games BIGINT, unused_wins BIGINT,
    gp_mean_turns DOUBLE, gih_mean_turns DOUBLE, gns_mean_turns DOUBLE, played_mean_turns DOUBLE,
    iwd_se DOUBLE, iwd_games BIGINT, iwd_length_matched DOUBLE, matched_gih_games BIGINT
);

CREATE TABLE IF NOT EXISTS card_metrics_summary_stamp (  -- what card_metrics_summary was derived from (as above)
    games BIGINT,
    games_hash UBIGINT,
    seats BIGINT,
    seats_hash UBIGINT,
    facts BIGINT
);

CREATE TABLE IF NOT EXISTS card_metrics_cells (  -- derived after ingest (ingest/sql/card_metrics_cells.sql): card_games
    ctx INTEGER NOT NULL,                        -- the seat context's number (the eight columns after it)
    ruleset VARCHAR NOT NULL,                    -- of decided games counted per seat context, length, result, flags
    event VARCHAR,                               -- and block of game numbers, what card_metrics reads under a split
    first_player INTEGER,
    seat INTEGER NOT NULL,
    agent VARCHAR NOT NULL,                      -- or a filter (queries/reports/run.py: cells_sql)
    deck VARCHAR NOT NULL,
    opp_agent VARCHAR,                           -- the other seat's (NULL: none)
    opp_deck VARCHAR,
    turns INTEGER NOT NULL,
    block INTEGER NOT NULL,                      -- game // ingest.summary.CELL_BLOCK
    won BOOLEAN NOT NULL,
    card_id VARCHAR NOT NULL,
    opening_hand BOOLEAN NOT NULL,
    drawn BOOLEAN NOT NULL,
    played BOOLEAN NOT NULL,
    used BOOLEAN NOT NULL,
    placed_at_setup BOOLEAN NOT NULL,
    other_seat TINYINT NOT NULL,
    n BIGINT NOT NULL                            -- seat-games (card_games rows) in the cell
);

CREATE TABLE IF NOT EXISTS card_metrics_cells_stamp (  -- what card_metrics_cells was derived from (as above)
    games BIGINT,
    games_hash UBIGINT,
    seats BIGINT,
    seats_hash UBIGINT,
    facts BIGINT
);
