-- position(gid, event_no): where every card is and every counter's value after event number event_no of the game
-- with game id gid, read from the field-name conventions (schemas/records.py): the latest `dst` of each card
-- instance from events with `card` or `cards`, and the latest `value` of each (holder, counter); a counter whose
-- latest value is 0 is left out (no counter and a counter at 0 are the same position).
-- One row per card (what = 'card': card, zone) and per counter (what = 'counter': holder, counter, value).
-- POSITION is an SQL keyword, so the name must be quoted: SELECT * FROM "position"('3f2a...', 120);
-- position_at(gid, event_no) is the same macro under a name that needs no quotes.
-- Cost: a point query reads one row group (zone maps on `game`); its time is mostly DuckDB binding and planning
-- the two aggregates. The game is found with IN (game_id is UNIQUE): a scalar subquery adds a "more than one row"
-- check (an aggregate and a CASE) to plan on every call.
CREATE OR REPLACE MACRO position_at(gid, event_no) AS TABLE
WITH ev AS (
    SELECT n, card, cards, dst, counter, holder, value FROM events
    WHERE game IN (SELECT game FROM games WHERE game_id = gid) AND n <= event_no
),
moves AS (
    SELECT n, unnest(CASE WHEN card IS NOT NULL THEN [card] ELSE cards END) AS card, dst
    FROM ev WHERE dst IS NOT NULL AND (card IS NOT NULL OR cards IS NOT NULL)
)
SELECT 'card' AS what, card, arg_max(dst, n) AS zone, NULL::INTEGER AS holder, NULL::VARCHAR AS counter,
       NULL::INTEGER AS value
FROM moves GROUP BY card
UNION ALL
SELECT 'counter', NULL, NULL, holder, counter, arg_max(value, n)
FROM ev WHERE counter IS NOT NULL AND value IS NOT NULL GROUP BY holder, counter HAVING arg_max(value, n) <> 0;

CREATE OR REPLACE MACRO "position"(gid, event_no) AS TABLE SELECT * FROM position_at(gid, event_no);
