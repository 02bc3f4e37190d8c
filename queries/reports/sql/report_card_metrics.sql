-- Card metrics as 17lands defines them, per card (and --by split): decided seat-games from card_games
-- (ingest/sql/card_moves.sql defines opening hand, drawn, played, used and placed at set-up). A copy placed at
-- set-up [M9-020] was chosen, not drawn: a seat-game whose copies were only that is in neither GIH nor GNS.
-- IWD = GIH win rate - GNS win rate is
-- added in Python (queries/reports/run.py) from the pairs below. Games where a card is never seen are shorter, so
-- iwd_length_matched compares GIH and GNS within each fifth of the game lengths and weights the fifths by their
-- GIH games (a fifth without both groups is left out; matched_gih_games says how many GIH games remain).
-- IWD's interval is cluster-robust by game (iwd_se, the sandwich variance of a difference of two means whose
-- seat-games cluster in games: a mirror match puts both seats of one game in the sample): each game's share of the
-- difference, squared and summed, scaled by G / (G - 1) over the G games holding the card (iwd_games).
-- In two steps, for speed (bench/reports.py): the seat-game rows are first counted per split, card and combination
-- of the flags (a few dozen rows per card), joined on one integer key and grouped by small values; every metric is
-- then a sum over those few rows (x is 1 where the flag holds, else 0).
WITH s AS (  -- the selected decided seats, keyed game * 2 + seat, each split and ruleset numbered
    SELECT game * 2 + seat AS k, grp, ruleset, won::INTEGER AS w, turns,
           dense_rank() OVER (ORDER BY grp, ruleset) AS gi,
           ntile(5) OVER (PARTITION BY grp, ruleset ORDER BY turns, game, seat) AS lq  -- game-length fifth
    FROM sel_seats WHERE decided
),
c AS (
    SELECT s.gi, c.card_id, c.opening_hand::INTEGER AS oh, c.drawn::INTEGER AS gd,
           (c.opening_hand OR c.drawn)::INTEGER AS gih, c.played::INTEGER AS pl, c.used::INTEGER AS us, s.w,
           (c.placed_at_setup AND NOT (c.opening_hand OR c.drawn))::INTEGER AS su,
           s.lq, count(*) AS n, sum(s.turns) AS turns
    FROM card_games c JOIN s ON s.k = c.game * 2 + c.seat
    GROUP BY ALL
),
per_game AS (  -- each game's GIH and GNS seats for a card, and their wins: the clusters of IWD's interval
    SELECT s.gi, c.card_id, c.game,
           sum((c.opening_hand OR c.drawn)::INTEGER) AS a, sum((c.opening_hand OR c.drawn)::INTEGER * s.w) AS aw,
           sum((NOT (c.opening_hand OR c.drawn OR c.placed_at_setup))::INTEGER) AS b,
           sum((NOT (c.opening_hand OR c.drawn OR c.placed_at_setup))::INTEGER * s.w) AS bw
    FROM card_games c JOIN s ON s.k = c.game * 2 + c.seat
    GROUP BY ALL
),
shapes AS (  -- the games counted by shape (a game has two seats: a few dozen shapes a card)
    SELECT gi, card_id, a, aw, b, bw, count(*) AS k FROM per_game GROUP BY ALL
),
strata AS (  -- GIH and GNS per game-length fifth, for the length-matched IWD
    SELECT gi, card_id, lq, sum(n * gih) AS gn, sum(n * gih * w) AS gw,
           sum(n * (1 - gih) * (1 - su)) AS nn, sum(n * (1 - gih) * (1 - su) * w) AS nw
    FROM c GROUP BY ALL
),
lm AS (  -- each fifth's GIH - GNS win rate, weighted by its GIH games (fifths holding both)
    SELECT gi, card_id, round(sum(gn * (gw / gn - nw / nn)) / sum(gn), 4) AS iwd_length_matched,
           sum(gn)::BIGINT AS matched_gih_games
    FROM strata WHERE gn > 0 AND nn > 0 GROUP BY ALL
),
m AS (
    SELECT gi, card_id,
           sum(n)::BIGINT AS gp_games, sum(n * w)::BIGINT AS gp_wins,
           sum(n * oh)::BIGINT AS oh_games, sum(n * oh * w)::BIGINT AS oh_wins,
           sum(n * gd)::BIGINT AS gd_games, sum(n * gd * w)::BIGINT AS gd_wins,
           sum(n * gih)::BIGINT AS gih_games, sum(n * gih * w)::BIGINT AS gih_wins,
           sum(n * (1 - gih) * (1 - su))::BIGINT AS gns_games, sum(n * (1 - gih) * (1 - su) * w)::BIGINT AS gns_wins,
           sum(n * su)::BIGINT AS setup_only_games,
           sum(n * pl)::BIGINT AS played_games, sum(n * pl * w)::BIGINT AS played_wins,
           sum(n * gih * (1 - pl))::BIGINT AS gih_unplayed_games,
           sum(n * gih * (1 - pl) * w)::BIGINT AS gih_unplayed_wins,
           sum(n * us)::BIGINT AS used_games, sum(n * us * w)::BIGINT AS used_wins,
           sum(n * (1 - us))::BIGINT AS unused_games, sum(n * (1 - us) * w)::BIGINT AS unused_wins,
           round(sum(turns) / sum(n), 2) AS gp_mean_turns,
           round(sum(turns * gih) / nullif(sum(n * gih), 0), 2) AS gih_mean_turns,
           round(sum(turns * (1 - gih) * (1 - su)) / nullif(sum(n * (1 - gih) * (1 - su)), 0), 2) AS gns_mean_turns,
           round(sum(turns * pl) / nullif(sum(n * pl), 0), 2) AS played_mean_turns
    FROM c GROUP BY ALL
),
se AS (  -- sqrt(G / (G - 1) * sum over games of (game's GIH residual / GIH n - its GNS residual / GNS n)^2)
    SELECT gi, card_id, sum(k)::BIGINT AS iwd_games,
           round(sqrt(sum(k) / nullif(sum(k) - 1, 0) * sum(k * power(
               (aw - a * m.gih_wins / m.gih_games) / m.gih_games - (bw - b * m.gns_wins / m.gns_games) / m.gns_games,
           2))), 6) AS iwd_se
    FROM shapes JOIN m USING (gi, card_id)
    WHERE m.gih_games > 0 AND m.gns_games > 0 AND a + b > 0
    GROUP BY ALL
)
SELECT g.grp, g.ruleset, m.* EXCLUDE (gi), se.iwd_se, se.iwd_games, lm.iwd_length_matched, lm.matched_gih_games
FROM m JOIN (SELECT DISTINCT gi, grp, ruleset FROM s) g USING (gi) LEFT JOIN se USING (gi, card_id)
LEFT JOIN lm USING (gi, card_id)
ORDER BY g.grp, g.ruleset, m.card_id;
