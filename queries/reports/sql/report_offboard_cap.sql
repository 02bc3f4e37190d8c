-- MORANA off-board cap [MOR-31]: Slava gains the +4-a-turn cap cut (SlavaGained capped > 0), by turn and gaining
-- seat (holder): hits, Slava lost to the cap, seat-games affected, out of all off-board gains; reached: the
-- selected seat-games that lasted to that turn.
WITH b AS (SELECT s.grp, s.game, s.seat, g.turns FROM sel_seats s JOIN sel_games g USING (game)),
o AS (
    SELECT b.grp, e.game, e.turn, b.seat, coalesce((e.extra->>'capped')::INTEGER, 0) AS capped
    FROM events e JOIN b ON b.game = e.game AND b.seat = e.holder
    WHERE e.kind = 'SlavaGained' AND e.source = 'offboard'
),
per AS (
    SELECT grp, turn, count(*) AS offboard_gains, count(*) FILTER (WHERE capped > 0) AS cap_hits,
           sum(capped)::BIGINT AS slava_cut, count(DISTINCT game * 2 + seat) FILTER (WHERE capped > 0) AS games_hit
    FROM o GROUP BY ALL
)
SELECT p.*, (SELECT count(*) FROM b WHERE b.grp = p.grp AND b.turns >= p.turn) AS reached
FROM per p ORDER BY grp, turn;
