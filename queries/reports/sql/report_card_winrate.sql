-- Per card: how often its owner won when a copy was in the opening hand, drawn, or played (decided games; one count
-- per game and seat however many copies), beside the card's in-deck baseline (deck_games, deck_wins) and the mean
-- game length of each, for the length bias. Reads card_facts (ingest/sql/card_facts.sql defines the contexts).
-- One pass of aggregates over the seat-games (each context a FILTER), then the three contexts as rows of the small
-- result: aggregating a three-way UNION ALL of the seat-games cost three passes.
-- The seats are joined on one integer key, game * 2 + seat (a join on the two columns cost 15% more at 10 M
-- events), and sel_seats carries the game's ruleset, turns and whether it was decided (no second join to sel_games).
WITH s AS (
    SELECT game * 2 + seat AS k, grp, ruleset, won, turns FROM sel_seats WHERE decided
),
f AS (
    SELECT s.grp, s.ruleset, f.card_id, f.opening_hand, f.drawn, f.played, s.won, s.turns
    FROM card_facts f JOIN s ON s.k = f.game * 2 + f.seat
),
a AS (
    SELECT grp, ruleset, card_id,
           count(*) FILTER (WHERE opening_hand) AS oh_games, count(*) FILTER (WHERE opening_hand AND won) AS oh_wins,
           avg(turns) FILTER (WHERE opening_hand) AS oh_turns,
           count(*) FILTER (WHERE drawn) AS dr_games, count(*) FILTER (WHERE drawn AND won) AS dr_wins,
           avg(turns) FILTER (WHERE drawn) AS dr_turns,
           count(*) FILTER (WHERE played) AS pl_games, count(*) FILTER (WHERE played AND won) AS pl_wins,
           avg(turns) FILTER (WHERE played) AS pl_turns,
           count(*) AS deck_games, count(*) FILTER (WHERE won) AS deck_wins, avg(turns) AS deck_turns
    FROM f GROUP BY ALL
),
c AS (
    SELECT grp, ruleset, card_id, 'opening_hand' AS context, oh_games AS games, oh_wins AS wins,
           oh_turns AS turns, deck_games, deck_wins, deck_turns FROM a
    UNION ALL SELECT grp, ruleset, card_id, 'drawn', dr_games, dr_wins, dr_turns, deck_games, deck_wins, deck_turns
    FROM a
    UNION ALL SELECT grp, ruleset, card_id, 'played', pl_games, pl_wins, pl_turns, deck_games, deck_wins, deck_turns
    FROM a
)
SELECT grp, ruleset, card_id, context, games, wins, round(turns, 2) AS mean_turns, deck_games, deck_wins,
       round(deck_turns, 2) AS deck_mean_turns
FROM c WHERE games > 0
ORDER BY grp, ruleset, context, card_id;
