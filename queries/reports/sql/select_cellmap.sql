-- Each split's game lengths and blocks of game numbers (as card_metrics_cells counts them) with the game-length fifth
-- of their selected decided seats, and whether it is one fifth (whole): a fifth ends in one block of one length,
-- whose seat-games report_card_metrics_cells.sql reads from card_games (sel_celledges). Counted, not ranked: the
-- fifths are select_cards.sql's ntile(5) over each split's seats by turns, game and seat, and a block's seats at one
-- length are consecutive in that order, so each (length, block) holds positions start .. start + n - 1 of the split's
-- total, and the fifth of a position is ntile's arithmetic (the first total % 5 fifths one seat longer; fewer than
-- 5 seats, one each). This reads a few rows per split instead of a window over every seat (sel_cards).
CREATE OR REPLACE TEMP TABLE sel_cellmap AS
WITH d AS (
    SELECT grp, ruleset, turns, game // $block AS block, count(*) AS n FROM sel_seats WHERE decided GROUP BY ALL
),
p AS (
    SELECT s.gi, d.turns, d.block, d.n,
           sum(d.n) OVER (PARTITION BY s.gi ORDER BY d.turns, d.block ROWS UNBOUNDED PRECEDING) - d.n AS start,
           sum(d.n) OVER (PARTITION BY s.gi) AS total
    FROM d JOIN sel_splits s ON s.grp = d.grp AND s.ruleset = d.ruleset
),
q AS (  -- ntile's sizes: `size` seats per fifth, the first `large` fifths one more, ending at position `small`
    SELECT *, total // least(5, total) AS size, total - least(5, total) * (total // least(5, total)) AS large,
           (total - least(5, total) * (total // least(5, total))) * (total // least(5, total) + 1) AS small
    FROM p
),
f AS (
    SELECT gi, turns, block, start, size, large, small,
           CASE WHEN start < small THEN 1 + start // (size + 1) ELSE 1 + large + (start - small) // size END AS lq,
           CASE WHEN start + n - 1 < small THEN 1 + (start + n - 1) // (size + 1)
                ELSE 1 + large + (start + n - 1 - small) // size END AS last
    FROM q
)
SELECT gi, turns, block, lq, lq = last AS whole, start, size, large, small FROM f;
