-- card_metrics_cells: card_games of the decided games counted per cell, what card_metrics sums instead of card_games
-- under a split or a filter (queries/reports/run.py says when: cells_sql), so that the report reads one row per cell,
-- not one per game, seat and card. A cell holds the seat-games of one card that share everything the report's splits
-- and filters read of a seat (select.sql: its game's ruleset, event, first player and length, its seat, agent and
-- deck, the other seat's agent and deck), its result and flags (report_card_metrics.sql), and a block of game numbers
-- (ingest.summary.CELL_BLOCK of them): a game-length fifth of a selection ends within one block (at one length), so
-- every other block lies whole in one fifth; the report reads the blocks where a fifth ends from card_games. Each
-- context is numbered (ctx), so that a report maps the cells to its splits by one integer.
-- Derived whole from the stored tables (ingest.summary.refresh_card_summary), after each ingest and removal.
DELETE FROM card_metrics_cells;
INSERT INTO card_metrics_cells
SELECT dense_rank() OVER (ORDER BY ruleset, event, first_player, seat, agent, deck, opp_agent, opp_deck) AS ctx, *
FROM (
    SELECT g.ruleset, g.event, g.first_player, p.seat, p.agent, p.deck, o.agent AS opp_agent, o.deck AS opp_deck,
           g.turns, c.game // $block AS block, g.winner = p.seat AS won, c.card_id, c.opening_hand, c.drawn, c.played,
           c.used, c.placed_at_setup, c.other_seat, count(*) AS n
    FROM card_games c
    JOIN games g ON g.game = c.game
    JOIN players p ON p.game = c.game AND p.seat = c.seat
    LEFT JOIN players o ON o.game = c.game AND o.seat <> c.seat
    WHERE g.winner >= 0
    GROUP BY ALL
);
