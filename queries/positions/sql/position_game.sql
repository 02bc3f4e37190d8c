-- The game number of a game id, for position_rows.sql: looked up on its own, so that the events scan below filters
-- on a constant and its zone maps leave one row group to read (a subquery or a join in its place is planned as a
-- scan of every row group: several times slower, growing with the table).
SELECT game FROM games WHERE game_id = ?
