-- Views per event family, for people who write SQL. Recreated on every open, so they follow the code.

CREATE OR REPLACE VIEW zone_moves AS          -- every card moved: one row per card (a list event is unnested)
SELECT e.game, e.n, e.turn, e.step, e.player, e.kind, c.card, e.src, e.dst
FROM (SELECT game, n, turn, step, player, kind, src, dst,
             CASE WHEN card IS NOT NULL THEN [card] ELSE cards END AS moved
      FROM events WHERE dst IS NOT NULL AND (card IS NOT NULL OR cards IS NOT NULL)) e,
     unnest(e.moved) AS c(card);

CREATE OR REPLACE VIEW counter_changes AS     -- every counter change (Echo, wounds, Slava, score, ...)
SELECT game, n, turn, step, player, kind, counter, holder, value, amount, source
FROM events WHERE counter IS NOT NULL;

CREATE OR REPLACE VIEW game_results AS        -- one row per game and seat: deck, first or not, won or not
SELECT g.game, g.game_id, g.ruleset, p.seat, p.deck, p.agent, g.first_player = p.seat AS went_first,
       g.winner = p.seat AS won, g.winner, g.turns, g.events, g.end_reason
FROM games g JOIN players p USING (game);
