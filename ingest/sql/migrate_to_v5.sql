-- Schema version 5: decision reviews (issue 32). `annals review LOG --save` writes LOG.review.json beside a log;
-- `annals ingest` loads the review files it finds beside the logs it reads (ingest/reviews.py), one row per decision
-- rated, a game's rows replaced whole when its review is loaded again and deleted with the game.
CREATE TABLE IF NOT EXISTS decision_reviews (
    game INTEGER NOT NULL,             -- games.game
    game_id VARCHAR NOT NULL,
    seat TINYINT NOT NULL,             -- the deciding seat (decisions.player)
    decision INTEGER NOT NULL,         -- decisions.n
    at_event INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    point VARCHAR NOT NULL,
    chance_before DOUBLE NOT NULL,
    chance_made DOUBLE NOT NULL,
    chance_best DOUBLE NOT NULL,
    loss DOUBLE NOT NULL,
    verdict VARCHAR NOT NULL,          -- best | good | inaccuracy | mistake | blunder
    made VARCHAR NOT NULL,
    best VARCHAR NOT NULL,
    iterations INTEGER NOT NULL,
    inaccuracy DOUBLE NOT NULL,        -- the thresholds the verdicts were given with
    mistake DOUBLE NOT NULL,
    blunder DOUBLE NOT NULL,
    file VARCHAR NOT NULL,             -- the review file it was loaded from
    PRIMARY KEY (game, decision)
);
