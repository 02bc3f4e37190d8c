-- card_games for the games numbered $lo..$hi (one ingest batch): per game, seat and card id, the 17lands contexts.
-- Opening hand: in `hand` at the end of set-up (turn 0), whole-pile events (`cards`) included, e.g. a mulligan.
-- Drawn (after the opening hand): a single-card move to `hand` from `deck`, or from `resource` (Miras 9 [M9-049]:
-- "a draw from Resource"), from turn 1 on. Played: a move from `hand` to anywhere but deck, hand, discard, exile,
-- nav or gone. Used: the card's own ability or effect happened: Miras 9 AbilityActivated, TriggerFired,
-- StackPushed, Manifested, Pressured; MORANA OmenFired, RebornFired, CharmFired, ClashFired, InvocationFired.
INSERT INTO card_games
WITH setup AS (
    SELECT game, n, unnest(CASE WHEN card IS NOT NULL THEN [card] ELSE cards END) AS card, dst
    FROM events
    WHERE game BETWEEN $lo AND $hi AND turn = 0 AND dst IS NOT NULL AND (card IS NOT NULL OR cards IS NOT NULL)
),
opening AS (SELECT game, card FROM setup GROUP BY game, card HAVING arg_max(dst, n) = 'hand'),
moves AS (
    SELECT game, card,
           min(turn) FILTER (WHERE turn >= 1 AND src IN ('deck', 'resource') AND dst = 'hand') AS drawn_turn,
           bool_or(turn >= 1 AND src = 'resource' AND dst = 'hand') AS from_resource,
           min(turn) FILTER (WHERE src = 'hand' AND dst NOT IN ('deck', 'hand', 'discard', 'exile', 'nav', 'gone'))
               AS played_turn
    FROM events
    WHERE game BETWEEN $lo AND $hi AND card IS NOT NULL AND src IN ('deck', 'hand', 'resource') AND dst IS NOT NULL
    GROUP BY game, card
),
uses AS (
    SELECT game, card, min(turn) AS used_turn
    FROM events
    WHERE game BETWEEN $lo AND $hi AND card IS NOT NULL
      AND kind IN ('AbilityActivated', 'TriggerFired', 'StackPushed', 'Manifested', 'Pressured',
                   'OmenFired', 'RebornFired', 'CharmFired', 'ClashFired', 'InvocationFired')
    GROUP BY game, card
)
SELECT d.game, d.seat, d.card_id, count(*) AS copies,
       bool_or(o.card IS NOT NULL), bool_or(m.drawn_turn IS NOT NULL), bool_or(coalesce(m.from_resource, false)),
       least(min(CASE WHEN o.card IS NOT NULL THEN 0 END), min(m.drawn_turn)),
       bool_or(m.played_turn IS NOT NULL), min(m.played_turn),
       bool_or(u.used_turn IS NOT NULL), min(u.used_turn)
FROM deck_cards d
LEFT JOIN opening o ON o.game = d.game AND o.card = d.instance
LEFT JOIN moves m ON m.game = d.game AND m.card = d.instance
LEFT JOIN uses u ON u.game = d.game AND u.card = d.instance
WHERE d.game BETWEEN $lo AND $hi AND d.idx >= 0
GROUP BY d.game, d.seat, d.card_id
ORDER BY d.game, d.seat, d.card_id;
