-- The deck lists of one game (by its dense key), leaders (idx -1) left out: seat, then list order.
SELECT seat, card_id FROM deck_cards WHERE game = ? AND idx >= 0 ORDER BY seat, idx
