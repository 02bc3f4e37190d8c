-- Each split of the selection's decided seats by its number (gi), made from sel_seats once per selection: numbered
-- as select_cards.sql numbers them (by grp, then ruleset), so that report_card_metrics.sql joins its rows to them at
-- the end (a DISTINCT over every selected seat in each run cost a tenth of the report at 100 M events), and its run
-- over the cells (sel_cellctx, sel_cellmap, sel_celledges) maps to them without sel_cards.
CREATE OR REPLACE TEMP TABLE sel_splits AS
SELECT row_number() OVER (ORDER BY grp, ruleset) AS gi, grp, ruleset
FROM (SELECT DISTINCT grp, ruleset FROM sel_seats WHERE decided);
