-- What report_card_metrics_cells.sql needs to read card_metrics_cells for a selection (queries/reports/filters.py:
-- EXTRAS): each seat context of the cells (ctx: what a cell is counted by) that the filters keep, with its split
-- number in sel_splits (gi) and whether its seat-games are pairs (paired: the first seat of a game whose two seats
-- are both selected in one split). All of it is read of the context alone, as select.sql and select_cards.sql read
-- it of each seat: the split and the other seat's split are select.sql's grp and opp_grp on the context's columns,
-- so the few dozen contexts are mapped here instead of every selected seat (at 100 M events that cost a fresh
-- process 150 ms). --min-turns is not a context's: sel_cellmap holds only the selected lengths.
-- The filters and the split are select.sql's; keep them in step.
CREATE OR REPLACE TEMP TABLE sel_cellctx AS
WITH x AS (
    SELECT ctx, any_value(ruleset) AS ruleset, any_value(event) AS event, any_value(first_player) AS first_player,
           any_value(seat) AS seat, any_value(agent) AS agent, any_value(deck) AS deck,
           any_value(opp_agent) AS opp_agent, any_value(opp_deck) AS opp_deck
    FROM card_metrics_cells GROUP BY ctx
),
kept AS (
    SELECT x.*,
           CASE $by WHEN 'agent' THEN agent WHEN 'deck' THEN deck WHEN 'seat' THEN 'seat ' || seat
                    WHEN 'matchup' THEN deck || ' vs ' || coalesce(opp_deck, '')
                    WHEN 'play' THEN CASE WHEN first_player IS NULL OR first_player < 0 THEN 'no first player'
                                          WHEN first_player = seat THEN 'on the play' ELSE 'on the draw' END
                    ELSE 'all' END
               || CASE WHEN $pool THEN '' ELSE chr(31) || agent || ' vs ' || coalesce(opp_agent, '') END AS grp,
           CASE $by WHEN 'agent' THEN opp_agent WHEN 'deck' THEN opp_deck WHEN 'seat' THEN 'seat ' || (1 - seat)
                    WHEN 'matchup' THEN coalesce(opp_deck, '') || ' vs ' || deck
                    WHEN 'play' THEN CASE WHEN first_player IS NULL OR first_player < 0 THEN 'no first player'
                                          WHEN first_player = 1 - seat THEN 'on the play' ELSE 'on the draw' END
                    ELSE 'all' END
               || CASE WHEN $pool THEN '' ELSE chr(31) || coalesce(opp_agent, '') || ' vs ' || agent END AS opp_grp,
           -- the other seat is selected too: it exists and the seat filters keep it
           opp_agent IS NOT NULL AND ($agent IS NULL OR opp_agent = $agent) AND ($deck IS NULL OR opp_deck = $deck)
               AND ($seat IS NULL OR 1 - seat = $seat) AS other_kept
    FROM x
    WHERE ($ruleset IS NULL OR ruleset = $ruleset)
      AND ($rulesets IS NULL OR list_contains($rulesets, ruleset))
      AND ($event IS NULL OR event = $event)
      AND ($agent IS NULL OR agent = $agent)
      AND ($deck IS NULL OR deck = $deck)
      AND ($seat IS NULL OR seat = $seat)
)
SELECT k.ctx, s.gi, k.seat = 0 AND k.other_kept AND k.grp = k.opp_grp AS paired
FROM kept k JOIN sel_splits s ON s.grp = k.grp AND s.ruleset = k.ruleset;
