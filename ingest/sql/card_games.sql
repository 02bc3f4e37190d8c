-- card_games for the batch in card_moves (card_moves.sql says what opening, drawn, played and used mean): per
-- game, seat and card id of the main deck (not the leader), the 17lands contexts (card_moves.sql defines placed).
INSERT INTO card_games
SELECT game, seat, card_id, count(*) AS copies,
       bool_or(opening), bool_or(drawn_turn IS NOT NULL), bool_or(from_resource),
       least(min(CASE WHEN opening THEN 0 END), min(drawn_turn)),
       bool_or(played_turn IS NOT NULL), min(played_turn),
       bool_or(used_turn IS NOT NULL), min(used_turn), bool_or(placed)
FROM card_moves
WHERE idx >= 0
GROUP BY game, seat, card_id
ORDER BY game, seat, card_id;
