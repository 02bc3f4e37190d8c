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
-- then a sum over those few rows (x is 1 where the flag holds, else 0). A game's share of the IWD is the sum of its
-- seats' shares r, so its square is each seat's r^2 plus, where both seats hold the card, 2 r r' with the other's:
-- card_games.other_seat (stored at ingest) says the other seat's context, and po carries it on the first seat of a
-- game whose two seats are both selected in one split, so no pass groups the rows by game.
-- The selected decided seats' split numbers, game-length fifths and pairs are sel_cards' (select_cards.sql), and the
-- splits by number sel_splits' (select_splits.sql), made once per selection. Under a split or a filter the rows counted (r) are read from the cells derived at ingest instead
-- (queries/reports/run.py: cells_sql swaps r for report_card_metrics_cells.sql); every stage after r is the same.
WITH r AS (  -- the rows counted: each a seat-game (n of them) of one card, its split, result, length and fifth
    SELECT s.gi, s.w, s.turns, s.lq, s.paired, c.card_id, c.opening_hand, c.drawn, c.played, c.used,
           c.placed_at_setup, c.other_seat, 1 AS n
    FROM card_games c JOIN sel_cards s ON s.k = c.game * 2 + c.seat
),
c AS (
    SELECT gi, card_id, opening_hand::INTEGER AS oh, drawn::INTEGER AS gd, (opening_hand OR drawn)::INTEGER AS gih,
           played::INTEGER AS pl, used::INTEGER AS us, w,
           (placed_at_setup AND NOT (opening_hand OR drawn))::INTEGER AS su,
           lq, CASE WHEN paired THEN other_seat ELSE 0 END AS po, sum(n)::BIGINT AS n, sum(n * turns) AS turns
    FROM r GROUP BY ALL
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
sq AS (  -- sqrt(G / (G - 1) * sum over games of (its seats' GIH residuals / GIH n - GNS residuals / GNS n)^2)
    SELECT gi, card_id,
           sum(n * (gih + gns) * (1 - (po IN (1, 2))::INTEGER))::BIGINT AS iwd_games,  -- a pair is one game
           sum(n * (r * r + 2 * r * (
               (po = 1)::INTEGER * (1 - w - gih_rate) / gih_games - (po = 2)::INTEGER * (1 - w - gns_rate) / gns_games
           ))) AS squares
    FROM (
        SELECT *, gih * (w - gih_rate) / gih_games - gns * (w - gns_rate) / gns_games AS r
        FROM (
            SELECT c.gi, c.card_id, c.n, c.w, c.po, c.gih, (1 - c.gih) * (1 - c.su) AS gns, m.gih_games, m.gns_games,
                   m.gih_wins / m.gih_games AS gih_rate, m.gns_wins / m.gns_games AS gns_rate
            FROM c JOIN m USING (gi, card_id)
            WHERE m.gih_games > 0 AND m.gns_games > 0
        )
    )
    GROUP BY ALL
),
se AS (
    SELECT gi, card_id, iwd_games, round(sqrt(iwd_games / nullif(iwd_games - 1, 0) * squares), 6) AS iwd_se
    FROM sq WHERE iwd_games > 0
)
SELECT g.grp, g.ruleset, m.* EXCLUDE (gi), se.iwd_se, se.iwd_games, lm.iwd_length_matched, lm.matched_gih_games
FROM m JOIN sel_splits g USING (gi) LEFT JOIN se USING (gi, card_id)
LEFT JOIN lm USING (gi, card_id)
ORDER BY g.grp, g.ruleset, m.card_id;
