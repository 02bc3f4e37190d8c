-- What report_card_metrics_cells.sql needs to read card_metrics_cells for a selection, made from sel_cards once per
-- selection (queries/reports/filters.py: EXTRAS): each seat context of the selected decided seats (what a cell is
-- counted by) by its number in the cells (ctx), with its split number and pairing. Each is read of the context alone
-- (select.sql, select_cards.sql), so a context's seats share one (uniform); queries/reports/run.py reads card_games
-- instead if one does not.
CREATE OR REPLACE TEMP TABLE sel_cellctx AS
WITH sel AS (
    SELECT g.ruleset, g.event, g.first_player, s.seat, s.agent, s.deck, s.opp_agent, s.opp_deck,
           min(c.gi) AS gi, bool_or(c.paired) AS paired,
           min(c.gi) = max(c.gi) AND bool_or(c.paired) = bool_and(c.paired) AS uniform
    FROM sel_cards c
    JOIN sel_seats s ON s.game * 2 + s.seat = c.k
    JOIN games g ON g.game = s.game
    GROUP BY ALL
),
numbered AS (SELECT DISTINCT ctx, ruleset, event, first_player, seat, agent, deck, opp_agent, opp_deck
             FROM card_metrics_cells)
SELECT n.ctx, sel.*
FROM sel LEFT JOIN numbered n
  ON n.ruleset = sel.ruleset AND n.event IS NOT DISTINCT FROM sel.event
 AND n.first_player IS NOT DISTINCT FROM sel.first_player AND n.seat = sel.seat AND n.agent = sel.agent
 AND n.deck = sel.deck AND n.opp_agent IS NOT DISTINCT FROM sel.opp_agent AND n.opp_deck IS NOT DISTINCT FROM sel.opp_deck;
