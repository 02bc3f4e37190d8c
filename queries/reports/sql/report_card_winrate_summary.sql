-- card_winrate from card_summary (ingest/sql/card_summary.sql: card_facts of decided games counted per seat context
-- and card), when the filters read only what a context holds (queries/reports/run.py says when): the same rows as
-- report_card_winrate.sql, summing a few thousand rows rather than one per game, seat and card. The filters and the
-- split are select.sql's, on the context's columns (p the seat, o the other seat, g the game).
WITH s AS (
    SELECT CASE $by WHEN 'agent' THEN p.agent WHEN 'deck' THEN p.deck WHEN 'seat' THEN 'seat ' || p.seat
                    WHEN 'matchup' THEN p.deck || ' vs ' || coalesce(p.opp_deck, '')
                    WHEN 'play' THEN CASE WHEN p.first_player IS NULL OR p.first_player < 0 THEN 'no first player'
                                          WHEN p.first_player = p.seat THEN 'on the play' ELSE 'on the draw' END
                    ELSE 'all' END
               || CASE WHEN $pool THEN '' ELSE chr(31) || p.agent || ' vs ' || coalesce(p.opp_agent, '') END AS grp,
           p.ruleset, p.card_id, p.opening_hand, p.drawn, p.played, p.won, p.games, p.turns
    FROM card_summary p
    WHERE ($ruleset IS NULL OR p.ruleset = $ruleset)
      AND ($rulesets IS NULL OR list_contains($rulesets, p.ruleset))
      AND ($event IS NULL OR p.event = $event)
      AND ($agent IS NULL OR p.agent = $agent)
      AND ($deck IS NULL OR p.deck = $deck)
      AND ($seat IS NULL OR p.seat = $seat)
),
a AS (
    SELECT grp, ruleset, card_id,
           coalesce(sum(games) FILTER (WHERE opening_hand), 0) AS oh_games,
           coalesce(sum(games) FILTER (WHERE opening_hand AND won), 0) AS oh_wins,
           sum(turns) FILTER (WHERE opening_hand) / sum(games) FILTER (WHERE opening_hand) AS oh_turns,
           coalesce(sum(games) FILTER (WHERE drawn), 0) AS dr_games,
           coalesce(sum(games) FILTER (WHERE drawn AND won), 0) AS dr_wins,
           sum(turns) FILTER (WHERE drawn) / sum(games) FILTER (WHERE drawn) AS dr_turns,
           coalesce(sum(games) FILTER (WHERE played), 0) AS pl_games,
           coalesce(sum(games) FILTER (WHERE played AND won), 0) AS pl_wins,
           sum(turns) FILTER (WHERE played) / sum(games) FILTER (WHERE played) AS pl_turns,
           sum(games) AS deck_games, coalesce(sum(games) FILTER (WHERE won), 0) AS deck_wins,
           sum(turns) / sum(games) AS deck_turns
    FROM s GROUP BY ALL
),
c AS (
    SELECT grp, ruleset, card_id, 'opening_hand' AS context, oh_games AS games, oh_wins AS wins,
           oh_turns AS turns, deck_games, deck_wins, deck_turns FROM a
    UNION ALL SELECT grp, ruleset, card_id, 'drawn', dr_games, dr_wins, dr_turns, deck_games, deck_wins, deck_turns
    FROM a
    UNION ALL SELECT grp, ruleset, card_id, 'played', pl_games, pl_wins, pl_turns, deck_games, deck_wins, deck_turns
    FROM a
)
SELECT grp, ruleset, card_id, context, games::BIGINT AS games, wins::BIGINT AS wins, round(turns, 2) AS mean_turns,
       deck_games::BIGINT AS deck_games, deck_wins::BIGINT AS deck_wins, round(deck_turns, 2) AS deck_mean_turns
FROM c WHERE games > 0
ORDER BY grp, ruleset, context, card_id;
