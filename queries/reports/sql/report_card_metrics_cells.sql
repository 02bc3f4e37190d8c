-- card_metrics' rows counted (the r stage of report_card_metrics.sql, which queries/reports/run.py cells_sql swaps
-- for this one; every later stage is that file's) read from card_metrics_cells (ingest/sql/card_metrics_cells.sql):
-- each cell's seat context (by its number) mapped to the selection's split and pairing (sel_cellctx), its length and
-- block of games to the split's game-length fifth where the block lies whole in one (sel_cellmap); the seat-games of
-- the blocks where a fifth ends are read one by one from card_games (sel_celledges).
r AS (
    SELECT t.gi, x.won::INTEGER AS w, x.turns, m.lq, t.paired, x.card_id, x.opening_hand, x.drawn, x.played, x.used,
           x.placed_at_setup, x.other_seat, x.n
    FROM card_metrics_cells x
    JOIN sel_cellctx t ON t.ctx = x.ctx
    JOIN sel_cellmap m ON m.gi = t.gi AND m.turns = x.turns AND m.block = x.block
    WHERE m.whole
    UNION ALL
    SELECT s.gi, s.w, s.turns, s.lq, s.paired, c.card_id, c.opening_hand, c.drawn, c.played, c.used,
           c.placed_at_setup, c.other_seat, 1 AS n
    FROM card_games c JOIN sel_celledges s ON s.game = c.game AND s.seat = c.seat
),
