-- The partition keys of every game for `annals export`: its ruleset and the month its log was written.
CREATE OR REPLACE TEMP TABLE export_keys AS
SELECT g.game, g.ruleset, strftime(coalesce(d.recorded_at, TIMESTAMP '1970-01-01'), '%Y-%m') AS month
FROM games g LEFT JOIN game_dates d USING (game);
