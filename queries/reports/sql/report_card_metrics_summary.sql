-- card_metrics from card_metrics_summary (ingest/summary.py: the rows report_card_metrics.sql gives for every decided
-- game, derived after ingest), when it is run with no filter but --ruleset, no split and the bot pairings
-- kept apart (queries/reports/run.py says when): each split is one ruleset's, so --ruleset keeps that ruleset's rows.
SELECT * FROM card_metrics_summary
WHERE $ruleset IS NULL OR ruleset = $ruleset
ORDER BY grp, ruleset, card_id;
