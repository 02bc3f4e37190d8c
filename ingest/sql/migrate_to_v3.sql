-- Schema version 3: `events.target` says "no target" with NULL only, and a real 0 stays 0 (ingest.plans.ABSENT).
-- Before, every target of 0 was stored as NULL, so Miras 9's SelectionChanged at the defender's Site position
-- (target 0) read like no target; and MORANA's ClashFired kept its "no target" sentinel -1. Ingest now stores
-- both rightly; this rewrites what earlier versions stored (SelectionChanged always has a target, so its NULL was 0).

UPDATE events SET target = 0
WHERE kind = 'SelectionChanged' AND target IS NULL AND game IN (SELECT game FROM games WHERE ruleset = 'miras9');

UPDATE events SET target = NULL
WHERE kind = 'ClashFired' AND target = -1 AND game IN (SELECT game FROM games WHERE ruleset = 'morana');
