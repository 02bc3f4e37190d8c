-- Card metrics as 17lands defines them, per card (and --by split): decided seat-games from card_games
-- (ingest/sql/card_games.sql defines opening hand, drawn, played and used). IWD = GIH win rate - GNS win rate is
-- added in Python (queries/reports.py) from the pairs below.
WITH f AS (
    SELECT s.grp, s.ruleset, c.card_id, c.opening_hand AS oh, c.drawn AS gd, c.opening_hand OR c.drawn AS gih,
           c.played, c.used, s.won, s.turns
    FROM card_games c JOIN sel_seats s USING (game, seat)
    WHERE s.decided  -- sel_seats carries the game's ruleset, length and result: one join, not two
)
SELECT grp, ruleset, card_id,
       count(*) AS gp_games, count(*) FILTER (WHERE won) AS gp_wins,
       count(*) FILTER (WHERE oh) AS oh_games, count(*) FILTER (WHERE oh AND won) AS oh_wins,
       count(*) FILTER (WHERE gd) AS gd_games, count(*) FILTER (WHERE gd AND won) AS gd_wins,
       count(*) FILTER (WHERE gih) AS gih_games, count(*) FILTER (WHERE gih AND won) AS gih_wins,
       count(*) FILTER (WHERE NOT gih) AS gns_games, count(*) FILTER (WHERE NOT gih AND won) AS gns_wins,
       count(*) FILTER (WHERE played) AS played_games, count(*) FILTER (WHERE played AND won) AS played_wins,
       count(*) FILTER (WHERE gih AND NOT played) AS gih_unplayed_games,
       count(*) FILTER (WHERE gih AND NOT played AND won) AS gih_unplayed_wins,
       count(*) FILTER (WHERE used) AS used_games, count(*) FILTER (WHERE used AND won) AS used_wins,
       count(*) FILTER (WHERE NOT used) AS unused_games, count(*) FILTER (WHERE NOT used AND won) AS unused_wins,
       round(avg(turns), 2) AS gp_mean_turns, round(avg(turns) FILTER (WHERE gih), 2) AS gih_mean_turns,
       round(avg(turns) FILTER (WHERE played), 2) AS played_mean_turns
FROM f GROUP BY ALL
ORDER BY grp, ruleset, card_id;
