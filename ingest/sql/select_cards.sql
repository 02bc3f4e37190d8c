-- What report_card_metrics.sql needs of the selected decided seats, made from sel_seats once per selection (a
-- read-only connection keeps it with the selection: queries/reports/filters.py), not by every run of the report: each
-- split and ruleset numbered (gi; joined, not ranked by a window over every seat: a third faster), the seat's
-- game-length fifth within it (lq), and whether it is the first seat of a game whose two seats are both in one split
-- (paired: the game is one cluster of two seat-games). Keyed game * 2 + seat, as card_games is joined.
CREATE OR REPLACE TEMP TABLE sel_cards AS
WITH d AS (SELECT * FROM sel_seats WHERE decided),
splits AS (
    SELECT grp, ruleset, row_number() OVER (ORDER BY grp, ruleset) AS gi FROM (SELECT DISTINCT grp, ruleset FROM d)
),
pairs AS (SELECT game, grp FROM d GROUP BY game, grp HAVING count(*) = 2)
SELECT game * 2 + seat AS k, gi, grp, ruleset, won::INTEGER AS w, turns,
       ntile(5) OVER (PARTITION BY gi ORDER BY turns, game, seat) AS lq,
       seat = 0 AND pairs.game IS NOT NULL AS paired
FROM d JOIN splits USING (grp, ruleset) LEFT JOIN pairs USING (game, grp);
