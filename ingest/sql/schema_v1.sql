-- annals database schema, version 1: one long-format schema for every ruleset.
-- games.game is a dense integer assigned in ingest order; events and decisions are inserted sorted by (game, n),
-- so rows of one game sit together and zone maps on `game` make a point query read one block.

CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);

CREATE TABLE IF NOT EXISTS games (
    game INTEGER PRIMARY KEY,          -- dense surrogate key, ingest order
    game_id VARCHAR NOT NULL UNIQUE,   -- the header's game id
    file VARCHAR NOT NULL,             -- the path it was ingested from
    digest VARCHAR NOT NULL,           -- the log's final chain digest: identifies its content
    ruleset VARCHAR NOT NULL,
    ruleset_version VARCHAR NOT NULL,
    engine_version VARCHAR NOT NULL,
    card_pool_hash VARCHAR NOT NULL,
    format_version INTEGER NOT NULL,
    seed UBIGINT NOT NULL,
    max_turns INTEGER NOT NULL,
    event VARCHAR,                     -- tournament metadata (NULL when the header has none)
    round INTEGER,
    table_no INTEGER,
    match VARCHAR,
    game_no INTEGER,
    branched_from VARCHAR,             -- a continued game: the source game id and event number
    branched_at INTEGER,
    first_player INTEGER,              -- the player of the first event of turn 1 (-1 when unknown; NULL for MORANA [MOR-13])
    winner INTEGER NOT NULL,           -- -1: draw or no result
    end_reason VARCHAR NOT NULL,
    events INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    turns INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS players (
    game INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name VARCHAR NOT NULL,
    agent VARCHAR NOT NULL,
    deck VARCHAR NOT NULL,
    leader VARCHAR NOT NULL,
    PRIMARY KEY (game, seat)
);

CREATE TABLE IF NOT EXISTS deck_cards (
    game INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    idx INTEGER NOT NULL,              -- position in the deck list; -1 for the leader
    instance INTEGER NOT NULL,         -- schemas.records.instance_id(seat, idx)
    card_id VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS cards (     -- the card pools as a dimension: every card id seen per ruleset and pool
    ruleset VARCHAR NOT NULL,
    card_pool_hash VARCHAR NOT NULL,
    card_id VARCHAR NOT NULL,
    name VARCHAR,                      -- from the pool this annals ships, when the hash matches (else NULL)
    type VARCHAR,
    data JSON,                         -- the whole card definition
    PRIMARY KEY (ruleset, card_pool_hash, card_id)
);

CREATE TABLE IF NOT EXISTS events (
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    step VARCHAR NOT NULL,
    player TINYINT NOT NULL,
    kind VARCHAR NOT NULL,             -- the event class name
    card INTEGER,                      -- field-name conventions of schemas/records.py; NULL when absent
    cards INTEGER[],
    src VARCHAR,
    dst VARCHAR,
    counter VARCHAR,
    holder INTEGER,
    value INTEGER,
    amount INTEGER,
    target INTEGER,
    source VARCHAR,
    card_id VARCHAR,
    extra JSON                         -- every other field of the event, by name
);

CREATE TABLE IF NOT EXISTS decisions (
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,                -- decision number in the game
    at_event INTEGER NOT NULL,         -- events emitted before it (Decision.at)
    player TINYINT NOT NULL,
    point VARCHAR NOT NULL,
    n_offered INTEGER NOT NULL,
    chosen INTEGER NOT NULL,           -- index into offered
    chosen_kind VARCHAR NOT NULL,      -- class name of the chosen option
    chosen_option JSON NOT NULL,
    offered JSON NOT NULL              -- every option offered, [tag, fields...] each
);

CREATE TABLE IF NOT EXISTS card_facts (  -- derived at ingest (ingest/sql/card_facts.sql), one row per game, seat, card id
    game INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    card_id VARCHAR NOT NULL,
    copies INTEGER NOT NULL,
    opening_hand BOOLEAN NOT NULL,     -- a copy was in hand at the end of set-up (turn 0)
    drawn BOOLEAN NOT NULL,            -- a copy moved deck or resource -> hand from turn 1 on [M9-049]
    played BOOLEAN NOT NULL            -- a copy moved from hand into play (not deck, hand, discard, exile, nav, gone)
);

CREATE TABLE IF NOT EXISTS quarantine (
    file VARCHAR NOT NULL,
    file_digest VARCHAR NOT NULL,      -- BLAKE2b of the file bytes
    game_id VARCHAR,                   -- when the header could be read
    error VARCHAR NOT NULL,            -- the error class: TruncatedLogError, CorruptLogError, ChangedLogError, ...
    frame INTEGER,
    byte_offset BIGINT,
    reason VARCHAR NOT NULL,
    events_read INTEGER NOT NULL,      -- events decoded before the problem (not stored)
    PRIMARY KEY (file, file_digest)
);
