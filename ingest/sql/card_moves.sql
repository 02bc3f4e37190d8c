-- card_moves for the games numbered $lo..$hi (one ingest batch): a temporary table, one row per deck card (and
-- leader) of each seat, with what happened to that copy; card_facts.sql and card_games.sql sum it by card id.
-- One pass over the events for both (they were three), so the definitions below are the only ones.
-- Opening hand: in `hand` at the end of set-up (turn 0), whole-pile events (`cards`) included, e.g. a mulligan.
-- Placed at set-up: at the end of set-up anywhere but the hand or the deck, having never been in the hand: Miras 9's
-- starting Site, chosen from the deck and put in a lane [M9-020] (17lands leaves such copies out of GIH and GNS).
-- Drawn: a single-card move to `hand` from `deck`, or from `resource` (Miras 9 [M9-049]: "a draw from Resource"),
-- from turn 1 on. Played: a single-card move from `hand` to anywhere but deck, hand, discard, exile, nav or gone
-- (a Unit, Site, Equipment or Reaction entering play or the stack; a MORANA Commit to a Site). Used: the card's
-- own ability or effect happened: Miras 9 AbilityActivated, TriggerFired, StackPushed, Manifested, Pressured;
-- MORANA OmenFired, RebornFired, CharmFired, ClashFired, InvocationFired.
CREATE OR REPLACE TEMP TABLE card_moves AS
WITH setup AS (
    SELECT game, n, unnest(CASE WHEN card IS NOT NULL THEN [card] ELSE cards END) AS card, dst
    FROM events
    WHERE game BETWEEN $lo AND $hi AND turn = 0 AND dst IS NOT NULL AND (card IS NOT NULL OR cards IS NOT NULL)
),
ended AS (SELECT game, card, arg_max(dst, n) AS dst, bool_or(dst = 'hand') AS held FROM setup GROUP BY game, card),
opening AS (SELECT game, card FROM ended WHERE dst = 'hand'),
placed AS (SELECT game, card FROM ended WHERE dst NOT IN ('hand', 'deck') AND NOT held),
moves AS (  -- each event's three flags worked out once; only events that raise one are grouped (most raise none)
    SELECT game, card, min(turn) FILTER (WHERE drawn) AS drawn_turn,
           bool_or(drawn AND src = 'resource') AS from_resource,
           min(turn) FILTER (WHERE played) AS played_turn, min(turn) FILTER (WHERE used) AS used_turn
    FROM (
        SELECT game, card, turn, src,
               turn >= 1 AND src IN ('deck', 'resource') AND dst = 'hand' AS drawn,
               src = 'hand' AND dst NOT IN ('deck', 'hand', 'discard', 'exile', 'nav', 'gone') AS played,
               kind IN ('AbilityActivated', 'TriggerFired', 'StackPushed', 'Manifested', 'Pressured', 'OmenFired',
                        'RebornFired', 'CharmFired', 'ClashFired', 'InvocationFired') AS used
        FROM events
        WHERE game BETWEEN $lo AND $hi AND card IS NOT NULL
    )
    WHERE drawn OR played OR used
    GROUP BY game, card
)
SELECT d.game, d.seat, d.idx, d.card_id, o.card IS NOT NULL AS opening, p.card IS NOT NULL AS placed, m.drawn_turn,
       coalesce(m.from_resource, false) AS from_resource, m.played_turn, m.used_turn
FROM deck_cards d
LEFT JOIN opening o ON o.game = d.game AND o.card = d.instance
LEFT JOIN placed p ON p.game = d.game AND p.card = d.instance
LEFT JOIN moves m ON m.game = d.game AND m.card = d.instance
WHERE d.game BETWEEN $lo AND $hi;
