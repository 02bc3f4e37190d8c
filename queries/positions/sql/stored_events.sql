-- The events of one game (by its dense key), in order, with the columns every kind fills by the field-name
-- conventions of schemas/records.py (NULL when absent): what a re-run of its decisions is compared with.
SELECT turn, step, player, kind, card, src, dst, holder, value, amount, target FROM events WHERE game = ? ORDER BY n
