-- The selected decided seats in a block where a game-length fifth ends (sel_cellmap), which
-- report_card_metrics_cells.sql reads from card_games, with what sel_cards says of them.
CREATE OR REPLACE TEMP TABLE sel_celledges AS
SELECT c.k // 2 AS game, c.k % 2 AS seat, c.gi, c.w, c.turns, c.lq, c.paired
FROM sel_cards c
JOIN sel_cellmap m ON m.gi = c.gi AND m.turns = c.turns AND m.block = c.k // 2 // $block
WHERE NOT m.whole
ORDER BY c.k;
