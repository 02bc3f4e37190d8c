-- The games and seats a report reads (queries/reports/filters.py): two temporary tables, so every report applies the same
-- filters the same way. Game filters keep whole games; seat filters keep matching seats, and the games that have one.
CREATE OR REPLACE TEMP TABLE sel_seats AS
SELECT p.game, p.seat, p.agent, p.deck, o.agent AS opp_agent, o.deck AS opp_deck,
       g.winner = p.seat AS won, g.winner >= 0 AS decided, g.ruleset, g.turns,
       -- the split, and unless the analyst pools them the bot pairing (like for like: a strong bot's wins are not a
       -- deck's or a card's), joined by the unit separator (chr(31)) and parted again in queries/reports/run.py
       -- --by matchup: the seat's deck against the opponent's (card stats within a matchup); --by play: on the play
       -- (took turn 1 [M9-022]) or on the draw; MORANA has no first player [MOR-13]
       CASE $by WHEN 'agent' THEN p.agent WHEN 'deck' THEN p.deck WHEN 'seat' THEN 'seat ' || p.seat
                WHEN 'matchup' THEN p.deck || ' vs ' || coalesce(o.deck, '')
                WHEN 'play' THEN CASE WHEN g.first_player IS NULL OR g.first_player < 0 THEN 'no first player'
                                      WHEN g.first_player = p.seat THEN 'on the play' ELSE 'on the draw' END
                ELSE 'all' END
           || CASE WHEN $pool THEN '' ELSE chr(31) || p.agent || ' vs ' || coalesce(o.agent, '') END AS grp,
       CASE $by WHEN 'agent' THEN o.agent WHEN 'deck' THEN o.deck WHEN 'seat' THEN 'seat ' || o.seat
                WHEN 'matchup' THEN coalesce(o.deck, '') || ' vs ' || p.deck
                WHEN 'play' THEN CASE WHEN g.first_player IS NULL OR g.first_player < 0 THEN 'no first player'
                                      WHEN g.first_player = o.seat THEN 'on the play' ELSE 'on the draw' END
                ELSE 'all' END
           || CASE WHEN $pool THEN '' ELSE chr(31) || coalesce(o.agent, '') || ' vs ' || p.agent END AS opp_grp
FROM games g
JOIN players p USING (game)
LEFT JOIN players o ON o.game = p.game AND o.seat <> p.seat
LEFT JOIN game_dates t ON t.game = g.game
WHERE ($ruleset IS NULL OR g.ruleset = $ruleset)
  AND ($rulesets IS NULL OR list_contains($rulesets, g.ruleset))
  AND ($event IS NULL OR g.event = $event)
  AND ($since IS NULL OR t.recorded_at >= $since::DATE)
  AND ($until IS NULL OR t.recorded_at < $until::DATE + INTERVAL 1 DAY)
  AND ($min_turns IS NULL OR g.turns >= $min_turns)
  AND ($agent IS NULL OR p.agent = $agent)
  AND ($deck IS NULL OR p.deck = $deck)
  AND ($seat IS NULL OR p.seat = $seat);

CREATE OR REPLACE TEMP TABLE sel_games AS
SELECT g.game, g.ruleset, g.winner, g.turns, g.events, g.first_player, g.end_reason, g.max_turns
FROM games g
WHERE g.game IN (SELECT game FROM sel_seats);
