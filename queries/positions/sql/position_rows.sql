-- The rows of one game up to an event (game number, event number) that a position is folded from: the field-name
-- conventions of schemas/records.py, as the position() macro (ingest/sql/position.sql) reads them. Unordered: an
-- ORDER BY costs a fifth of the point query, and the caller sorts the few hundred rows by n (queries/positions/
-- timeline.py: position_from_db), which takes microseconds.
SELECT n, card, cards, dst, counter, holder, value FROM events WHERE game = ? AND n <= ?
