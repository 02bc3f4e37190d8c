-- The rows of one game up to an event (game number, event number) that a position is folded from, in event order:
-- the field-name conventions of schemas/records.py, as the position() macro (ingest/sql/position.sql) reads them.
SELECT n, card, cards, dst, counter, holder, value FROM events WHERE game = ? AND n <= ? ORDER BY n
