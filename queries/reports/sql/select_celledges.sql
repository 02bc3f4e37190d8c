-- The selected decided seats in a block where a game-length fifth ends (sel_cellmap), which
-- report_card_metrics_cells.sql reads from card_games one by one, each with its split number, result, length, fifth
-- (its position in the split: the block's start plus its rank by game and seat, given ntile's arithmetic as
-- sel_cellmap gives it) and whether it is the first seat of a pair (both seats of its game selected in one split:
-- both then lie in this block and length), as select_cards.sql says of them.
CREATE OR REPLACE TEMP TABLE sel_celledges AS
WITH e AS (
    SELECT d.game, d.seat, m.gi, d.won::INTEGER AS w, d.turns, m.size, m.large, m.small,
           m.start + row_number() OVER (PARTITION BY m.gi, m.turns, m.block ORDER BY d.game, d.seat) - 1 AS i,
           count(*) OVER (PARTITION BY d.game, m.gi) = 2 AS pair
    FROM sel_seats d
    JOIN sel_splits s ON s.grp = d.grp AND s.ruleset = d.ruleset
    JOIN sel_cellmap m ON m.gi = s.gi AND m.turns = d.turns AND m.block = d.game // $block
    WHERE d.decided AND NOT m.whole
)
SELECT game, seat, gi, w, turns,
       CASE WHEN i < small THEN 1 + i // (size + 1) ELSE 1 + large + (i - small) // size END AS lq,
       seat = 0 AND pair AS paired
FROM e
ORDER BY game, seat;
