-- card_summary: card_facts of the decided games counted per seat context and card (what card_winrate reads when its
-- filters allow: queries/reports/sql/report_card_winrate_summary.sql), so that the report sums a few thousand rows,
-- not one per game, seat and card. A context is what the report's filters and splits read of a seat (select.sql):
-- its game's ruleset, event and first player, its seat, agent and deck and the other seat's agent and deck.
-- Derived whole from the stored tables (ingest.summary.refresh_card_summary), after each ingest and removal.
DELETE FROM card_summary;
INSERT INTO card_summary
SELECT g.ruleset, g.event, g.first_player, p.seat, p.agent, p.deck, o.agent AS opp_agent, o.deck AS opp_deck,
       f.card_id, f.opening_hand, f.drawn, f.played, g.winner = p.seat AS won,
       count(*) AS games, sum(g.turns) AS turns
FROM card_facts f
JOIN games g ON g.game = f.game
JOIN players p ON p.game = f.game AND p.seat = f.seat
LEFT JOIN players o ON o.game = f.game AND o.seat <> f.seat
WHERE g.winner >= 0
GROUP BY ALL;
