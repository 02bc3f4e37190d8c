-- Deck against deck (decided games): each game once from each deck's side. A mirror row (same deck, and the same
-- --by group) is split by seat, because a game seen from both sides of a mirror always sums to one win in two.
WITH m AS (
    SELECT s.grp, s.opp_grp, g.ruleset, s.deck, s.opp_deck AS opponent, s.seat, s.won,
           s.deck = s.opp_deck AND s.grp = s.opp_grp AS mirror
    FROM sel_seats s JOIN sel_games g USING (game)
    WHERE g.winner >= 0
),
r AS (
    SELECT grp, opp_grp, ruleset, deck, opponent, CASE WHEN mirror THEN 'seat ' || seat ELSE 'either' END AS side,
           count(*) AS games, count(*) FILTER (WHERE won) AS wins
    FROM m GROUP BY ALL
)
SELECT grp, opp_grp, ruleset, deck, opponent, side, games, wins,
       sum(games) OVER (PARTITION BY grp, ruleset, deck)::BIGINT AS deck_games,
       sum(wins) OVER (PARTITION BY grp, ruleset, deck)::BIGINT AS deck_wins
FROM r ORDER BY grp, opp_grp, ruleset, deck, opponent, side;
