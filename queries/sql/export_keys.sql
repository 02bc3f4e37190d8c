-- The keys of every game for `annals export`: its partition (ruleset, and the month its log was written), and the
-- keys a shared dataset's rows carry so they join across exports: the game's id and when it was played.
CREATE OR REPLACE TEMP TABLE export_keys AS
SELECT g.game, g.game_id, g.ruleset,
       strftime(coalesce(d.recorded_at, TIMESTAMP '1970-01-01'), '%Y-%m') AS month,
       d.recorded_at AS played_at
FROM games g LEFT JOIN game_dates d USING (game);
