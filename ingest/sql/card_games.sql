-- card_games for the batch in card_moves (card_moves.sql says what opening, drawn, played and used mean): per
-- game, seat and card id of the main deck (not the leader), the 17lands contexts (card_moves.sql defines placed).
-- other_seat is the other seat's context for the same card id in the same game (the sum over the game's two rows
-- less this row's own), so that card_metrics finds a game's two seats holding a card in one row, not a pass by game.
-- The sum is a grouping joined back, not a window: a window sorts the rows, about a fifth slower here.
INSERT INTO card_games
WITH per_seat AS (
    SELECT game, seat, card_id, count(*) AS copies,
           bool_or(opening) AS opening_hand, bool_or(drawn_turn IS NOT NULL) AS drawn, bool_or(from_resource),
           least(min(CASE WHEN opening THEN 0 END), min(drawn_turn)),
           bool_or(played_turn IS NOT NULL), min(played_turn),
           bool_or(used_turn IS NOT NULL), min(used_turn), bool_or(placed) AS placed,
           CASE WHEN bool_or(opening) OR bool_or(drawn_turn IS NOT NULL) THEN 1 WHEN bool_or(placed) THEN 3 ELSE 2
           END AS context
    FROM card_moves
    WHERE idx >= 0
    GROUP BY game, seat, card_id
),
totals AS (SELECT game, card_id, sum(context) AS total FROM per_seat GROUP BY game, card_id)
SELECT p.* EXCLUDE (context), (t.total - p.context)::TINYINT
FROM per_seat p JOIN totals t USING (game, card_id)
ORDER BY game, seat, card_id;
