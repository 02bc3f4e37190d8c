-- card_facts for the games numbered $lo..$hi (one ingest batch): per game, seat and card id, whether a copy was in
-- the opening hand, drawn, or played. Computed once at ingest so per-card reports read a small table.
-- Opening hand: in `hand` at the end of set-up (turn 0), whole-pile events (`cards`) included, e.g. a mulligan.
-- Drawn: a single-card move deck → hand, or resource → hand (Miras 9 [M9-049]: a draw from Resource), from turn 1
-- on. Played: a single-card move from `hand` to anywhere but
-- deck, hand, discard, exile, nav or gone (a Unit, Site, Equipment or Reaction entering play or the stack; a MORANA
-- Commit to a Site).
INSERT INTO card_facts
WITH setup AS (
    SELECT game, n, unnest(CASE WHEN card IS NOT NULL THEN [card] ELSE cards END) AS card, dst
    FROM events
    WHERE game BETWEEN $lo AND $hi AND turn = 0 AND dst IS NOT NULL AND (card IS NOT NULL OR cards IS NOT NULL)
),
opening AS (SELECT game, card FROM setup GROUP BY game, card HAVING arg_max(dst, n) = 'hand'),
moves AS (
    SELECT game, card,
           bool_or(turn >= 1 AND src IN ('deck', 'resource') AND dst = 'hand') AS drawn,
           bool_or(src = 'hand' AND dst NOT IN ('deck', 'hand', 'discard', 'exile', 'nav', 'gone')) AS played
    FROM events
    WHERE game BETWEEN $lo AND $hi AND card IS NOT NULL AND src IN ('deck', 'hand', 'resource') AND dst IS NOT NULL
    GROUP BY game, card
)
SELECT d.game, d.seat, d.card_id, count(*) AS copies,
       bool_or(o.card IS NOT NULL), bool_or(coalesce(m.drawn, false)), bool_or(coalesce(m.played, false))
FROM deck_cards d
LEFT JOIN opening o ON o.game = d.game AND o.card = d.instance
LEFT JOIN moves m ON m.game = d.game AND m.card = d.instance
WHERE d.game BETWEEN $lo AND $hi
GROUP BY d.game, d.seat, d.card_id
ORDER BY d.game, d.seat, d.card_id;
