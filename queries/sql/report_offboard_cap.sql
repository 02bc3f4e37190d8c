-- MORANA off-board cap [MOR-31]: Slava gains the +4-a-turn cap cut (SlavaGained capped > 0), by turn: hits, Slava
-- lost to the cap, games affected, out of all off-board gains.
WITH g AS (SELECT game FROM games WHERE ruleset = 'morana' AND ($ruleset IS NULL OR ruleset = $ruleset)),
o AS (
    SELECT e.game, e.turn, coalesce((e.extra->>'capped')::INTEGER, 0) AS capped
    FROM events e SEMI JOIN g USING (game)
    WHERE e.kind = 'SlavaGained' AND e.source = 'offboard'
)
SELECT turn, count(*) AS offboard_gains, count(*) FILTER (WHERE capped > 0) AS cap_hits,
       sum(capped)::BIGINT AS slava_cut, count(DISTINCT game) FILTER (WHERE capped > 0) AS games_hit
FROM o GROUP BY turn ORDER BY turn;
