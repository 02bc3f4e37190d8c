-- MORANA Reborn timing [MOR-21]: per turn, Reborns committed (RebornCommitted), how many fired at Dusk (a
-- RebornFired of the same card that turn) and how many never did; the decided seat-games that committed one that
-- turn and their wins; reached: seat-games lasting to that turn; all_*: every decided seat-game (baseline).
WITH b AS (
    SELECT s.grp, s.game, s.seat, s.won, g.turns FROM sel_seats s JOIN sel_games g USING (game) WHERE g.winner >= 0
),
c AS (
    SELECT e.game, e.turn, e.player AS seat, e.card FROM events e SEMI JOIN b USING (game)
    WHERE e.kind = 'RebornCommitted'
),
f AS (
    SELECT DISTINCT e.game, e.turn, e.card FROM events e SEMI JOIN b USING (game) WHERE e.kind = 'RebornFired'
),
per AS (
    SELECT b.grp, c.turn, count(*) AS committed, count(f.card) AS fired, count(*) - count(f.card) AS never_fired,
           count(DISTINCT c.game * 2 + c.seat) AS games,
           count(DISTINCT c.game * 2 + c.seat) FILTER (WHERE b.won) AS wins
    FROM c JOIN b USING (game, seat) LEFT JOIN f USING (game, turn, card)
    GROUP BY ALL
)
SELECT p.grp, p.turn, p.committed, p.fired, p.never_fired, p.games, p.wins,
       (SELECT count(*) FROM b WHERE b.grp = p.grp AND b.turns >= p.turn) AS reached,
       (SELECT count(*) FROM b WHERE b.grp = p.grp) AS all_games,
       (SELECT count(*) FROM b WHERE b.grp = p.grp AND b.won) AS all_wins
FROM per p ORDER BY p.grp, p.turn;
