-- card_facts for the batch in card_moves (card_moves.sql says what opening, drawn and played mean): per game,
-- seat and card id (the leader too), whether a copy was in the opening hand, drawn, or played. Computed once at
-- ingest so per-card reports read a small table.
INSERT INTO card_facts
SELECT game, seat, card_id, count(*) AS copies,
       bool_or(opening), bool_or(drawn_turn IS NOT NULL), bool_or(played_turn IS NOT NULL)
FROM card_moves
GROUP BY game, seat, card_id
ORDER BY game, seat, card_id;
