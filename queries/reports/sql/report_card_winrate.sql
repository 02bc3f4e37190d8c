-- Per card: how often its owner won when a copy was in the opening hand, drawn, or played (decided games; one count
-- per game and seat however many copies), beside the card's in-deck baseline (deck_games, deck_wins) and the mean
-- game length of each, for the length bias. Reads card_facts (ingest/sql/card_facts.sql defines the contexts).
-- One pass of aggregates over the seat-games (each context a FILTER), then the three contexts as rows of the small
-- result: aggregating a three-way UNION ALL of the seat-games cost three passes.
WITH f AS (
    SELECT s.grp, g.ruleset, f.card_id, f.opening_hand, f.drawn, f.played, s.won, g.turns
    FROM card_facts f JOIN sel_seats s USING (game, seat) JOIN sel_games g USING (game)
    WHERE g.winner >= 0
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
