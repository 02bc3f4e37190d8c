-- Each split of the selection's decided seats by its number in sel_cards (select_cards.sql), made once per selection:
-- what report_card_metrics.sql joins its rows to at the end (a DISTINCT over every selected seat in each run cost a
-- tenth of the report at 100 M events).
CREATE OR REPLACE TEMP TABLE sel_splits AS
SELECT DISTINCT gi, grp, ruleset FROM sel_cards;
