-- Each split's game lengths and blocks of game numbers (as card_metrics_cells counts them) with the game-length fifth
-- of their selected decided seats (sel_cards.lq), and whether it is one fifth (whole): a fifth ends in one block of
-- one length, whose seat-games report_card_metrics_cells.sql reads from card_games (sel_celledges).
CREATE OR REPLACE TEMP TABLE sel_cellmap AS
SELECT gi, turns, k // 2 // $block AS block, min(lq) AS lq, min(lq) = max(lq) AS whole
FROM sel_cards
GROUP BY ALL;
