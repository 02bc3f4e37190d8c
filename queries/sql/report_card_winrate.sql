-- Per card: how often its owner won when it was in the opening hand, drawn, or played. Decided games only; one
-- count per game and seat however many copies. Opening hand: in `hand` at the end of set-up (turn 0). Drawn: moved
-- deck → hand from turn 1 on. Played: moved from `hand` to anywhere but deck, hand, discard, exile, nav or gone
-- (a Unit, Site, Equipment or Reaction entering play or the stack; a MORANA Commit to a Site).
WITH g AS (
    SELECT game, ruleset, winner FROM games WHERE winner >= 0 AND ($ruleset IS NULL OR ruleset = $ruleset)
),
dc AS (SELECT d.game, d.seat, d.instance, d.card_id, g.ruleset, g.winner FROM deck_cards d JOIN g USING (game)),
mv AS (SELECT z.game, z.card, z.turn, z.src, z.dst, z.n FROM zone_moves z SEMI JOIN g USING (game)),
facts AS (
    SELECT 'opening_hand' AS context, game, card FROM mv WHERE turn = 0
    GROUP BY game, card HAVING arg_max(dst, n) = 'hand'
    UNION ALL
    SELECT DISTINCT 'drawn', game, card FROM mv WHERE turn >= 1 AND src = 'deck' AND dst = 'hand'
    UNION ALL
    SELECT DISTINCT 'played', game, card FROM mv
    WHERE src = 'hand' AND dst NOT IN ('deck', 'hand', 'discard', 'exile', 'nav', 'gone')
)
SELECT dc.ruleset, dc.card_id, f.context,
       count(DISTINCT dc.game * 2 + dc.seat) AS games,
       count(DISTINCT dc.game * 2 + dc.seat) FILTER (WHERE dc.winner = dc.seat) AS wins
FROM facts f JOIN dc ON dc.game = f.game AND dc.instance = f.card
GROUP BY ALL
ORDER BY dc.ruleset, f.context, dc.card_id;
